import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import type { ParameterRow } from "@agentfair/contracts";
import { Button, Checkbox, Input, Select, Table } from "antd";
import { useTranslation } from "react-i18next";

const blank = (): ParameterRow => ({ name: "", fixedValue: "", description: "", required: false, options: [], type: "text-input" });

/** An editable table of parameter rows (doc 2 §3): headers, parameters, body fields and path variables. */
export function RowsTable({
  value,
  onChange,
  disabled,
  testId,
}: {
  value: ParameterRow[];
  onChange: (rows: ParameterRow[]) => void;
  disabled?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  const set = (i: number, patch: Partial<ParameterRow>) => onChange(value.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <div data-testid={testId}>
      <Table<ParameterRow & { key: number }>
        size="small"
        pagination={false}
        scroll={{ x: "max-content" }}
        dataSource={value.map((r, key) => ({ ...r, key }))}
        columns={[
          {
            title: t("tools.editor.row.name"),
            width: 160,
            render: (_v, r) => <Input value={r.name} disabled={disabled} onChange={(e) => set(r.key, { name: e.target.value })} />,
          },
          {
            title: t("tools.editor.row.type"),
            width: 100,
            render: (_v, r) => (
              <Select
                value={r.type}
                disabled={disabled}
                style={{ width: "100%" }}
                onChange={(type) => set(r.key, { type })}
                options={[
                  { value: "text-input", label: t("tools.editor.row.text") },
                  { value: "number", label: t("tools.editor.row.number") },
                ]}
              />
            ),
          },
          {
            title: t("tools.editor.row.required"),
            width: 60,
            render: (_v, r) => (
              <Checkbox checked={r.required} disabled={disabled} onChange={(e) => set(r.key, { required: e.target.checked })} />
            ),
          },
          {
            title: t("tools.editor.row.fixedValue"),
            width: 140,
            render: (_v, r) => (
              <Input value={r.fixedValue} disabled={disabled} onChange={(e) => set(r.key, { fixedValue: e.target.value })} />
            ),
          },
          {
            title: t("tools.editor.row.options"),
            width: 160,
            render: (_v, r) => (
              <Select
                mode="tags"
                value={r.options}
                disabled={disabled}
                style={{ width: "100%" }}
                open={false}
                onChange={(options) => set(r.key, { options })}
              />
            ),
          },
          {
            title: t("tools.editor.row.description"),
            width: 200,
            render: (_v, r) => (
              <Input value={r.description} disabled={disabled} onChange={(e) => set(r.key, { description: e.target.value })} />
            ),
          },
          {
            width: 44,
            // Kept in sight when the table scrolls sideways (the editor's column is narrower than the table).
            fixed: "right",
            render: (_v, r) => (
              <Button
                type="text"
                danger
                disabled={disabled}
                icon={<DeleteOutlined />}
                onClick={() => onChange(value.filter((_x, j) => j !== r.key))}
              />
            ),
          },
        ]}
      />
      {!disabled && (
        <Button type="dashed" size="small" icon={<PlusOutlined />} style={{ marginTop: 8 }} onClick={() => onChange([...value, blank()])}>
          {t("tools.editor.row.add")}
        </Button>
      )}
    </div>
  );
}
