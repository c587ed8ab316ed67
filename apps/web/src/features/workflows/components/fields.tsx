import { Form, Select } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useModelOptions } from "../api/options";
import type { NodeData } from "../model/types";
import { VarInput } from "./var-input";

/** What every property panel block gets: the node's data and how to change it. */
export interface FieldProps {
  data: NodeData;
  patch: (data: Partial<NodeData>) => void;
}

/**
 * The one text field of the property panels: a labelled template input (with the variable picker) bound to
 * one key of the node's data.
 */
export function TextField({
  data,
  patch,
  field,
  label,
  extra,
  multiline,
  testId,
  placeholder,
}: FieldProps & { field: string; label: ReactNode; extra?: ReactNode; multiline?: boolean; testId: string; placeholder?: string }) {
  return (
    <Form.Item label={label} extra={extra}>
      <VarInput
        multiline={multiline}
        value={String(data[field] ?? "")}
        onChange={(v) => patch({ [field]: v })}
        testId={testId}
        placeholder={placeholder}
      />
    </Form.Item>
  );
}

/** The model of a node that calls one (LLM, classifier, extractor); empty: the platform's default. */
export function ModelField({ data, patch }: FieldProps) {
  const { t } = useTranslation();
  const models = useModelOptions();
  return (
    <Form.Item label={t("workflows.props.model")}>
      <Select
        allowClear
        value={(data.modelId as string) || undefined}
        placeholder={t("workflows.props.defaultModel")}
        onChange={(modelId) => patch({ modelId: modelId ?? "" })}
        options={(models.data ?? []).map((m) => ({ value: m.id, label: m.name }))}
      />
    </Form.Item>
  );
}
