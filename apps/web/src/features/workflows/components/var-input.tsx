import { Button, Dropdown, Input, Select, Tooltip } from "antd";
import { useContext, useRef } from "react";
import { createContext } from "react";
import { useTranslation } from "react-i18next";
import type { VariableOption } from "../model/graph";
import { nodeTitle } from "./node-title";

/** The variables of the nodes upstream of the node being edited (set by the property panel). */
export const VariablesContext = createContext<VariableOption[]>([]);

/** "开始 · city": the node as the canvas names it (with its id when two share a name) and the field. */
function useLabels() {
  const vars = useContext(VariablesContext);
  const { t } = useTranslation();
  const titles = new Map(vars.map((v) => [v.nodeId, nodeTitle(t, v.type, v.title)]));
  const shared = (title: string) => new Set([...titles].filter(([, x]) => x === title).map(([id]) => id)).size > 1;
  const label = (v: VariableOption) => {
    const title = titles.get(v.nodeId) ?? v.nodeId;
    return `${shared(title) ? `${title} (${v.nodeId})` : title} · ${v.field}`;
  };
  return { vars, label };
}

function useVariableItems() {
  const { vars, label } = useLabels();
  const { t } = useTranslation();
  return {
    vars,
    items: vars.length
      ? vars.map((v) => ({ key: v.ref, label: label(v) }))
      : [{ key: "", label: t("workflows.props.noVariables"), disabled: true }],
  };
}

/** A text field (one line or several) with a button that inserts `{{nodeId.field}}` at the cursor. */
export function VarInput({
  value,
  onChange,
  multiline,
  testId,
  placeholder,
}: {
  value: string;
  onChange: (v: string) => void;
  multiline?: boolean;
  testId?: string;
  placeholder?: string;
}) {
  const { t } = useTranslation();
  const { items } = useVariableItems();
  const caret = useRef<number | null>(null);
  const remember = (e: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => {
    caret.current = e.currentTarget.selectionStart;
  };
  const insert = (ref: string) => {
    const at = caret.current ?? value.length;
    onChange(`${value.slice(0, at)}${ref}${value.slice(at)}`);
    caret.current = at + ref.length;
  };
  const picker = (
    <Dropdown menu={{ items, onClick: ({ key }) => key && insert(key) }} trigger={["click"]}>
      <Tooltip title={t("workflows.props.insertVariable")}>
        <Button size="small" data-testid={testId ? `${testId}-var` : undefined}>
          {"{x}"}
        </Button>
      </Tooltip>
    </Dropdown>
  );
  const common = {
    value,
    placeholder,
    "data-testid": testId,
    onChange: (e: { target: { value: string } }) => onChange(e.target.value),
    onSelect: remember,
    onKeyUp: remember,
    onClick: remember,
  };
  return multiline ? (
    <div>
      <div style={{ textAlign: "right", marginBottom: 4 }}>{picker}</div>
      <Input.TextArea {...common} autoSize={{ minRows: 3, maxRows: 12 }} />
    </div>
  ) : (
    <Input {...common} suffix={picker} />
  );
}

/** One upstream variable, or typed text (a constant). */
export function VarSelect({ value, onChange, testId }: { value: string; onChange: (v: string) => void; testId?: string }) {
  const { t } = useTranslation();
  const { vars, label } = useLabels();
  return (
    <Select
      value={value || undefined}
      onChange={(v) => onChange(v ?? "")}
      allowClear
      showSearch
      style={{ width: "100%" }}
      placeholder={t("workflows.props.insertVariable")}
      notFoundContent={t("workflows.props.noVariables")}
      options={vars.map((v) => ({ value: v.ref, label: label(v) }))}
      data-testid={testId}
    />
  );
}
