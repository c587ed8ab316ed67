import { App as AntApp, Button, Form, Modal, Popconfirm, Space, Table } from "antd";
import type { ColumnsType } from "antd/es/table";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useQuery } from "@tanstack/react-query";
import { validated } from "../../../lib/form";

/** A list with add / edit / delete through a modal form: plans, durations and top-up options. */
export function CrudTab<T extends { id: string }>({
  queryKey,
  load,
  save,
  remove,
  columns,
  fields,
  defaults,
  testId,
}: {
  queryKey: string;
  load: () => Promise<T[]>;
  save: (id: string | null, values: Record<string, unknown>) => Promise<unknown>;
  remove: (id: string) => Promise<unknown>;
  columns: ColumnsType<T>;
  fields: ReactNode;
  defaults: Record<string, unknown>;
  testId: string;
}) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const list = useQuery({ queryKey: ["billing", "admin", queryKey], queryFn: load });
  const [editing, setEditing] = useState<T | "new" | null>(null);
  const [form] = Form.useForm();
  const open = (row: T | "new") => {
    setEditing(row);
    form.resetFields();
    form.setFieldsValue(row === "new" ? defaults : row);
  };
  const submit = async () => {
    const values = await validated(form);
    if (!values) return;
    await save(editing === "new" || !editing ? null : editing.id, values);
    message.success(t("billing.admin.saved"));
    setEditing(null);
    list.refetch();
  };
  return (
    <>
      <Button type="primary" style={{ marginBottom: 12 }} onClick={() => open("new")} data-testid={`${testId}-add`}>
        {t("billing.admin.add")}
      </Button>
      <Table<T>
        rowKey="id"
        size="middle"
        loading={list.isLoading}
        dataSource={list.data ?? []}
        locale={{ emptyText: t("common.noData") }}
        pagination={false}
        scroll={{ x: "max-content" }}
        columns={[
          ...columns,
          {
            title: t("billing.order.actions"),
            fixed: "right",
            render: (_, row) => (
              <Space>
                <Button size="small" type="link" onClick={() => open(row)}>
                  {t("billing.admin.edit")}
                </Button>
                <Popconfirm
                  title={t("billing.admin.confirmDelete")}
                  onConfirm={async () => {
                    await remove(row.id);
                    message.success(t("billing.admin.deleted"));
                    list.refetch();
                  }}
                >
                  <Button size="small" type="link" danger>
                    {t("billing.admin.delete")}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={!!editing}
        title={editing === "new" ? t("billing.admin.add") : t("billing.admin.edit")}
        onCancel={() => setEditing(null)}
        onOk={submit}
        width={640}
        destroyOnHidden
        forceRender
      >
        <Form form={form} layout="vertical">
          {fields}
        </Form>
      </Modal>
    </>
  );
}
