import { DeleteOutlined, EditOutlined, PlusOutlined, UploadOutlined } from "@ant-design/icons";
import {
  DATA_TYPES,
  type DataImportResult,
  type DataQueryResult,
  type DataRow,
  type DataTable,
  type DataTableInput,
} from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import {
  App,
  Button,
  type ButtonProps,
  Card,
  Checkbox,
  Col,
  DatePicker,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Row,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
  Upload,
} from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PageTitle } from "../../../components/page-title";
import { validated } from "../../../lib/form";
import { deleteRow } from "../api/delete-row";
import { deleteTable } from "../api/delete-table";
import { importRows } from "../api/import-rows";
import { runQuery } from "../api/query";
import { rowsKey, useRows } from "../api/rows";
import { saveRow } from "../api/save-row";
import { saveTable } from "../api/save-table";
import { tablesKey, useTables } from "../api/tables";

const fmt = (iso: string) => dayjs(iso).format("YYYY-MM-DD HH:mm:ss");

/** Data tables: the list, the table editor (name, introduction, query mode, fields), rows and the SQL box. */
export function DatatablesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const tables = useTables(search);
  const [editing, setEditing] = useState<DataTable | "new" | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const open = tables.data?.list.find((x) => x.id === openId) ?? null;
  const refresh = () => queryClient.invalidateQueries({ queryKey: tablesKey });

  return (
    <div style={{ maxWidth: 1200, margin: "0 auto", padding: 16 }}>
      <Card
        title={<PageTitle title={t("datatables.title")} subtitle={t("datatables.subtitle")} />}
        extra={
          <Space>
            <Input.Search allowClear placeholder={t("datatables.name")} onSearch={setSearch} style={{ width: 200 }} />
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing("new")} data-testid="datatable-create">
              {t("datatables.create")}
            </Button>
          </Space>
        }
      >
        <Table<DataTable>
          rowKey="id"
          size="middle"
          loading={tables.isLoading}
          dataSource={tables.data?.list ?? []}
          pagination={false}
          locale={{ emptyText: <Empty description={t("datatables.empty")} /> }}
          onRow={(r) => ({ onClick: () => setOpenId(r.id), style: { cursor: "pointer" } })}
          rowClassName={(r) => (r.id === openId ? "ant-table-row-selected" : "")}
          columns={[
            { title: t("datatables.name"), dataIndex: "name", render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
            { title: t("datatables.introduction"), dataIndex: "introduction", ellipsis: true },
            { title: t("datatables.queryMode"), dataIndex: "queryMode", render: (v: "sql" | "exact") => t(`datatables.queryModes.${v}`) },
            { title: t("datatables.fields"), render: (_, r) => r.fields.length, width: 80 },
            { title: t("datatables.rowCount"), dataIndex: "rowCount", width: 80 },
            { title: t("datatables.editTime"), dataIndex: "updatedTime", render: fmt, width: 180 },
            {
              title: t("datatables.actions"),
              width: 110,
              render: (_, r) => (
                <Space onClick={(e) => e.stopPropagation()}>
                  <Button type="text" icon={<EditOutlined />} onClick={() => setEditing(r)} aria-label={t("datatables.edit")} />
                  <Popconfirm
                    title={t("datatables.deleteConfirm")}
                    onConfirm={async () => {
                      await deleteTable(r.id);
                      message.success(t("datatables.deleted"));
                      if (openId === r.id) setOpenId(null);
                      void refresh();
                    }}
                  >
                    <Button type="text" danger icon={<DeleteOutlined />} aria-label="delete" />
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      {open && <RowsCard key={open.id} table={open} onChanged={refresh} />}
      <QueryCard />
      {editing && (
        <TableEditor
          table={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            setOpenId(saved.id);
            void refresh();
          }}
        />
      )}
    </div>
  );
}

function TableEditor({ table, onClose, onSaved }: { table: DataTable | null; onClose: () => void; onSaved: (t: DataTable) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<DataTableInput>();
  const [saving, setSaving] = useState(false);
  const initial: DataTableInput = table
    ? { name: table.name, introduction: table.introduction, queryMode: table.queryMode, fields: table.fields }
    : { name: "", introduction: "", queryMode: "sql", fields: [{ name: "", label: "", type: "text", required: false }] };
  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      const saved = await saveTable(table?.id ?? null, values);
      message.success(t("datatables.saved"));
      onSaved(saved);
    } finally {
      setSaving(false);
    }
  };
  const identRule = { pattern: /^[a-z][a-z0-9_]{0,62}$/, message: t("datatables.nameHint") };
  return (
    <Modal
      open
      width={760}
      title={table ? t("datatables.edit") : t("datatables.create")}
      onCancel={onClose}
      onOk={save}
      confirmLoading={saving}
      okButtonProps={{ "data-testid": "datatable-save" } as ButtonProps}
    >
      <Form form={form} layout="vertical" initialValues={initial}>
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item
              name="name"
              label={t("datatables.name")}
              extra={t("datatables.nameHint")}
              rules={[{ required: true, message: t("datatables.pleaseEnter", { field: t("datatables.name") }) }, identRule]}
            >
              <Input data-testid="datatable-name" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="queryMode" label={t("datatables.queryMode")}>
              <Select options={(["sql", "exact"] as const).map((v) => ({ value: v, label: t(`datatables.queryModes.${v}`) }))} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="introduction" label={t("datatables.introduction")}>
          <Input.TextArea rows={2} maxLength={2000} />
        </Form.Item>
        <Typography.Text strong>{t("datatables.fields")}</Typography.Text>
        <Form.List name="fields">
          {(fields, { add, remove }) => (
            <div style={{ marginTop: 8 }}>
              <Row gutter={8} style={{ color: "#888", fontSize: 12, marginBottom: 4 }}>
                <Col span={7}>{t("datatables.fieldName")}</Col>
                <Col span={7}>{t("datatables.fieldLabel")}</Col>
                <Col span={5}>{t("datatables.fieldType")}</Col>
                <Col span={3}>{t("datatables.necessity")}</Col>
              </Row>
              {fields.map((f) => (
                <Row gutter={8} key={f.key}>
                  <Col span={7}>
                    <Form.Item
                      name={[f.name, "name"]}
                      rules={[{ required: true, message: t("datatables.pleaseEnter", { field: t("datatables.fieldName") }) }, identRule]}
                    >
                      <Input placeholder="amount" data-testid="field-name" />
                    </Form.Item>
                  </Col>
                  <Col span={7}>
                    <Form.Item name={[f.name, "label"]}>
                      <Input placeholder={t("datatables.fieldLabel")} data-testid="field-label" />
                    </Form.Item>
                  </Col>
                  <Col span={5}>
                    <Form.Item name={[f.name, "type"]}>
                      <Select data-testid="field-type" options={DATA_TYPES.map((v) => ({ value: v, label: t(`datatables.types.${v}`) }))} />
                    </Form.Item>
                  </Col>
                  <Col span={3}>
                    <Form.Item name={[f.name, "required"]} valuePropName="checked">
                      <Checkbox>{t("datatables.required")}</Checkbox>
                    </Form.Item>
                  </Col>
                  <Col span={2}>
                    <Button
                      type="text"
                      icon={<DeleteOutlined />}
                      onClick={() => remove(f.name)}
                      disabled={fields.length <= 1}
                      aria-label={t("common.remove")}
                    />
                  </Col>
                </Row>
              ))}
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                onClick={() => add({ name: "", label: "", type: "text", required: false })}
                data-testid="field-add"
              >
                {t("datatables.addField")}
              </Button>
            </div>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}

function cellText(v: unknown, t: (k: string) => string) {
  if (v === null || v === undefined) return "";
  if (typeof v === "boolean") return v ? t("datatables.yes") : t("datatables.no");
  return String(v);
}

function RowsCard({ table, onChanged }: { table: DataTable; onChanged: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const rows = useRows(table.id, page, pageSize);
  const [editing, setEditing] = useState<DataRow | "new" | null>(null);
  const [result, setResult] = useState<DataImportResult | null>(null);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: rowsKey(table.id) });
    onChanged();
  };
  return (
    <Card
      style={{ marginTop: 16 }}
      title={
        <Space>
          <Typography.Text code>{table.name}</Typography.Text>
          <span>{t("datatables.rows")}</span>
        </Space>
      }
      data-testid="datatable-rows"
      extra={
        <Space>
          <Upload
            accept=".xlsx,.csv"
            showUploadList={false}
            customRequest={async ({ file, onSuccess, onError }) => {
              try {
                const r = await importRows(table.id, file as File);
                setResult(r);
                refresh();
                onSuccess?.(r);
              } catch (e) {
                onError?.(e as Error);
              }
            }}
          >
            <Button icon={<UploadOutlined />} data-testid="datatable-import" title={t("datatables.importHint")}>
              {t("datatables.import")}
            </Button>
          </Upload>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing("new")} data-testid="row-add">
            {t("datatables.addRow")}
          </Button>
        </Space>
      }
    >
      <Table<DataRow>
        rowKey={(r) => String(r._id)}
        size="small"
        loading={rows.isLoading}
        dataSource={rows.data?.list ?? []}
        scroll={{ x: true }}
        locale={{ emptyText: <Empty description={t("datatables.emptyRows")} /> }}
        pagination={{
          current: page,
          pageSize,
          total: rows.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 30, 40, 50],
          onChange: (p, s) => {
            setPage(p);
            setPageSize(s);
          },
        }}
        columns={[
          ...table.fields.map((f) => ({
            title: (
              <span>
                {f.label || f.name}
                {f.label && (
                  <Typography.Text type="secondary" style={{ fontSize: 11, marginLeft: 4 }}>
                    {f.name}
                  </Typography.Text>
                )}
              </span>
            ),
            dataIndex: f.name,
            render: (v: unknown) => cellText(v, t),
          })),
          {
            title: t("datatables.actions"),
            width: 100,
            fixed: "right" as const,
            render: (_: unknown, r: DataRow) => (
              <Space>
                <Button type="text" size="small" icon={<EditOutlined />} onClick={() => setEditing(r)} aria-label="edit" />
                <Popconfirm
                  title={t("datatables.deleteRowConfirm")}
                  onConfirm={async () => {
                    await deleteRow(table.id, Number(r._id));
                    message.success(t("datatables.deleted"));
                    refresh();
                  }}
                >
                  <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label="delete" />
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing && (
        <RowEditor
          table={table}
          row={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            refresh();
          }}
        />
      )}
      <Modal open={!!result} title={t("datatables.importResult")} onCancel={() => setResult(null)} footer={null} width={640}>
        {result && (
          <div data-testid="import-result">
            <Space style={{ marginBottom: 12 }}>
              <Tag color="green">{t("datatables.imported", { count: result.imported })}</Tag>
              <Tag color={result.rejected.length ? "red" : "default"}>{t("datatables.rejected", { count: result.rejected.length })}</Tag>
            </Space>
            {result.rejected.length > 0 && (
              <Table
                size="small"
                rowKey="row"
                pagination={{ pageSize: 10 }}
                dataSource={result.rejected}
                columns={[
                  { title: t("datatables.rejectedRow"), dataIndex: "row", width: 80 },
                  { title: t("datatables.rejectedReason"), dataIndex: "reason" },
                ]}
              />
            )}
          </div>
        )}
      </Modal>
    </Card>
  );
}

function RowEditor({ table, row, onClose, onSaved }: { table: DataTable; row: DataRow | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Record<string, unknown>>();
  const initial = Object.fromEntries(
    table.fields.map((f) => {
      const v = row?.[f.name] ?? null;
      if (v === null) return [f.name, f.type === "boolean" ? false : undefined];
      if (f.type === "date" || f.type === "datetime") return [f.name, dayjs(String(v))];
      return [f.name, v];
    }),
  );
  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    const out: Record<string, string | number | boolean | null> = {};
    for (const f of table.fields) {
      const v = values[f.name];
      if (v === undefined || v === null || v === "") out[f.name] = null;
      else if (f.type === "date") out[f.name] = (v as dayjs.Dayjs).format("YYYY-MM-DD");
      else if (f.type === "datetime") out[f.name] = (v as dayjs.Dayjs).toISOString();
      else out[f.name] = v as string | number | boolean;
    }
    await saveRow(table.id, row ? Number(row._id) : null, out);
    message.success(t("datatables.saved"));
    onSaved();
  };
  return (
    <Modal
      open
      title={row ? t("datatables.editRow") : t("datatables.addRow")}
      onCancel={onClose}
      onOk={save}
      okButtonProps={{ "data-testid": "row-save" } as ButtonProps}
    >
      <Form form={form} layout="vertical" initialValues={initial}>
        {table.fields.map((f) => (
          <Form.Item
            key={f.name}
            name={f.name}
            label={f.label || f.name}
            valuePropName={f.type === "boolean" ? "checked" : "value"}
            rules={
              f.required && f.type !== "boolean"
                ? [{ required: true, message: t("datatables.pleaseEnter", { field: f.label || f.name }) }]
                : []
            }
          >
            {f.type === "number" ? (
              <InputNumber style={{ width: "100%" }} />
            ) : f.type === "integer" ? (
              <InputNumber precision={0} style={{ width: "100%" }} />
            ) : f.type === "date" ? (
              <DatePicker style={{ width: "100%" }} />
            ) : f.type === "datetime" ? (
              <DatePicker showTime style={{ width: "100%" }} />
            ) : f.type === "boolean" ? (
              <Switch />
            ) : (
              <Input data-testid={`row-${f.name}`} />
            )}
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}

function QueryCard() {
  const { t } = useTranslation();
  const [sql, setSql] = useState("");
  const [result, setResult] = useState<DataQueryResult | null>(null);
  const [running, setRunning] = useState(false);
  const run = async () => {
    setRunning(true);
    try {
      setResult(await runQuery(sql));
    } catch {
      setResult(null);
    } finally {
      setRunning(false);
    }
  };
  return (
    <Card style={{ marginTop: 16 }} title={t("datatables.query")}>
      {/* In the body, not the header's extra: beside the title a long hint squeezed it to "SQL …" on narrow screens. */}
      <Typography.Paragraph type="secondary">{t("datatables.queryHint")}</Typography.Paragraph>
      <Space.Compact style={{ width: "100%" }}>
        <Input.TextArea
          value={sql}
          onChange={(e) => setSql(e.target.value)}
          rows={2}
          placeholder="SELECT customer, sum(amount) FROM orders GROUP BY customer"
          style={{ fontFamily: "monospace" }}
          data-testid="query-sql"
        />
        <Button type="primary" onClick={run} loading={running} disabled={!sql.trim()} style={{ height: "auto" }} data-testid="query-run">
          {t("datatables.run")}
        </Button>
      </Space.Compact>
      {result && (
        <div style={{ marginTop: 12 }}>
          {result.truncated && <Typography.Text type="warning">{t("datatables.truncated")}</Typography.Text>}
          <Table
            size="small"
            scroll={{ x: true }}
            rowKey={(_, i) => String(i)}
            pagination={{ pageSize: 10 }}
            dataSource={result.rows.map((r) => Object.fromEntries(r.map((v, i) => [String(i), v])))}
            columns={result.columns.map((c, i) => ({ title: c, dataIndex: String(i), render: (v: unknown) => cellText(v, t) }))}
          />
        </div>
      )}
    </Card>
  );
}
