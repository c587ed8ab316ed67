import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { CONDITION_OPERATORS } from "@agentfair/contracts";
import { Button, Form, Input, Select, Space, Typography } from "antd";
import type { CSSProperties, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useModelOptions } from "../api/options";
import { type ConditionRule, type NodeData, VAR_TYPES, type VarType } from "../model/types";
import { VarInput, VarSelect } from "./var-input";

/** What every property panel block gets: the node's data and how to change it. */
export interface FieldProps {
  data: NodeData;
  patch: (data: Partial<NodeData>) => void;
}

export const typeOptions = VAR_TYPES.map((v) => ({ value: v, label: v }));

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

/** The one variable field: a labelled pick of one upstream variable, bound to one key of the node's data. */
export function VarField({
  data,
  patch,
  field,
  label,
  extra,
  testId,
}: FieldProps & { field: string; label: ReactNode; extra?: ReactNode; testId: string }) {
  return (
    <Form.Item label={label} extra={extra}>
      <VarSelect value={String(data[field] ?? "")} onChange={(v) => patch({ [field]: v })} testId={testId} />
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

/** The remove button that ends every row of a list. */
export function RemoveButton({ onClick, size }: { onClick: () => void; size?: "small" }) {
  const { t } = useTranslation();
  return <Button size={size} icon={<DeleteOutlined />} aria-label={t("workflows.props.remove")} onClick={onClick} />;
}

/** The button under a list that adds a row. */
export function AddButton({
  onClick,
  testId,
  link,
  children,
}: {
  onClick: () => void;
  testId?: string;
  link?: boolean;
  children: ReactNode;
}) {
  return (
    <Button size="small" type={link ? "link" : undefined} icon={<PlusOutlined />} data-testid={testId} onClick={onClick}>
      {children}
    </Button>
  );
}

/** Replaces row `i` of a list with the same row changed. */
export const updateAt = <T,>(rows: T[], i: number, change: Partial<T>): T[] => rows.map((x, j) => (j === i ? { ...x, ...change } : x));
export const removeAt = <T,>(rows: T[], i: number): T[] => rows.filter((_, j) => j !== i);

/**
 * The one list of named, typed variables (start inputs, code outputs, extractor parameters, assignments):
 * per row a name (marked when empty or taken twice) and a type, what `below` adds under them, and the
 * duplicate-name message; then the add button and any further `actions`.
 */
export function VariableRows<T extends { name: string; type: VarType }>({
  rows,
  onChange,
  placeholder,
  testId,
  nameTestId,
  below,
  newRow,
  addLabel,
  addTestId,
  actions,
}: {
  rows: T[];
  onChange: (rows: T[]) => void;
  placeholder: string;
  testId?: string;
  nameTestId?: (i: number) => string;
  below?: (row: T, update: (change: Partial<T>) => void, i: number) => ReactNode;
  /** The row the add button appends, given the names taken. */
  newRow: (names: string[]) => T;
  addLabel: ReactNode;
  addTestId?: string;
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  const names = rows.map((r) => r.name.trim());
  return (
    <div data-testid={testId}>
      {rows.map((row, i) => {
        const name = row.name.trim();
        const dup = !!name && names.indexOf(name) !== i;
        const update = (change: Partial<T>) => onChange(updateAt(rows, i, change));
        return (
          <div key={i} style={{ marginBottom: below ? 8 : 6 }}>
            <Space.Compact style={{ width: "100%" }}>
              <Input
                status={dup || !name ? "error" : undefined}
                value={row.name}
                placeholder={placeholder}
                data-testid={nameTestId?.(i)}
                onChange={(e) => update({ name: e.target.value } as Partial<T>)}
              />
              <Select
                style={{ width: 110 }}
                value={row.type}
                options={typeOptions}
                onChange={(type: VarType) => update({ type } as Partial<T>)}
              />
              <RemoveButton onClick={() => onChange(removeAt(rows, i))} />
            </Space.Compact>
            {below?.(row, update, i)}
            {dup && <Typography.Text type="danger">{t("workflows.validation.duplicateVariable", { name })}</Typography.Text>}
          </div>
        );
      })}
      <Space>
        <AddButton testId={addTestId} onClick={() => onChange([...rows, newRow(names)])}>
          {addLabel}
        </AddButton>
        {actions}
      </Space>
    </div>
  );
}

/** One condition: an upstream variable, an operator and (unless the operator tests emptiness) the right side. */
export function ConditionRow({
  rule,
  onChange,
  onRemove,
  testId,
  style,
}: {
  rule: ConditionRule;
  onChange: (change: Partial<ConditionRule>) => void;
  onRemove: () => void;
  testId: string;
  style?: CSSProperties;
}) {
  const { t } = useTranslation();
  return (
    <div style={style}>
      <VarSelect value={rule.variable} onChange={(variable) => onChange({ variable })} testId={`${testId}-left`} />
      <Space.Compact style={{ width: "100%", marginTop: 4 }}>
        <Select
          style={{ width: 120 }}
          value={rule.operator}
          onChange={(operator) => onChange({ operator })}
          options={CONDITION_OPERATORS.map((op) => ({ value: op, label: t(`workflows.props.ops.${op}`) }))}
          data-testid={`${testId}-op`}
        />
        {rule.operator !== "isEmpty" && rule.operator !== "isNotEmpty" && (
          <Input
            value={rule.value}
            placeholder={t("workflows.props.right")}
            onChange={(e) => onChange({ value: e.target.value })}
            data-testid={`${testId}-right`}
          />
        )}
        <RemoveButton onClick={onRemove} />
      </Space.Compact>
    </div>
  );
}
