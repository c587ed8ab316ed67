import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Form, Input, Modal, Popconfirm, Result, Space, Spin, Table } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import { PageTitle } from "../../../components/page-title";
import { createDesign, deleteDesign, designsKey, useDesign, useDesigns } from "../api/designs";
import { DesignEditor } from "../components/design-editor";
import { validated } from "../../../lib/form";

function DesignList() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [form] = Form.useForm<{ name: string }>();
  const list = useDesigns({ page, limit: 20 });

  const create = async () => {
    const values = await validated(form);
    if (!values) return;
    try {
      const created = await createDesign({ name: values.name.trim(), widgetList: [], sampleResult: "" });
      void queryClient.invalidateQueries({ queryKey: designsKey });
      setCreating(false);
      form.resetFields();
      navigate(`/designer?id=${created.id}`);
    } catch {
      // the http client has shown the server's message
    }
  };

  return (
    <Card
      title={<PageTitle title={t("designer.title")} subtitle={t("designer.subtitle")} />}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="design-create">
          {t("designer.create")}
        </Button>
      }
    >
      <Table
        rowKey="id"
        loading={list.isLoading}
        dataSource={list.data?.list ?? []}
        locale={{ emptyText: t("designer.listEmpty") }}
        pagination={{ current: page, pageSize: 20, total: list.data?.total ?? 0, onChange: setPage, hideOnSinglePage: true }}
        onRow={(row) => ({ onDoubleClick: () => navigate(`/designer?id=${row.id}`) })}
        columns={[
          {
            title: t("designer.columns.name"),
            dataIndex: "name",
            render: (name: string, row) => <Link to={`/designer?id=${row.id}`}>{name}</Link>,
          },
          { title: t("designer.columns.widgets"), dataIndex: "widgetCount", width: 120 },
          {
            title: t("designer.columns.updated"),
            dataIndex: "updatedTime",
            width: 200,
            render: (v: string) => dayjs(v).format("YYYY-MM-DD HH:mm:ss"),
          },
          {
            title: t("designer.columns.actions"),
            width: 160,
            render: (_, row) => (
              <Space>
                <Link to={`/designer?id=${row.id}`}>{t("designer.open")}</Link>
                <Popconfirm
                  title={t("designer.confirmDelete")}
                  onConfirm={async () => {
                    await deleteDesign(row.id);
                    message.success(t("designer.deleted"));
                    await queryClient.invalidateQueries({ queryKey: designsKey });
                    if ((list.data?.list.length ?? 0) === 1 && page > 1) setPage(page - 1);
                  }}
                >
                  <Button type="link" danger size="small" icon={<DeleteOutlined />}>
                    {t("designer.delete")}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Modal title={t("designer.create")} open={creating} onOk={create} onCancel={() => setCreating(false)} destroyOnHidden>
        <Form form={form} layout="vertical">
          <Form.Item
            name="name"
            label={t("designer.name")}
            rules={[{ required: true, whitespace: true, message: t("designer.nameRequired") }]}
          >
            <Input maxLength={100} data-testid="design-create-name" />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}

function DesignEdit({ id }: { id: string }) {
  const { t } = useTranslation();
  const design = useDesign(id);
  if (design.isLoading) return <Spin style={{ display: "block", margin: "80px auto" }} />;
  if (!design.data)
    return (
      <Result
        status="404"
        title={t("designer.notFound")}
        extra={
          <Link to="/designer">
            <Button>{t("designer.back")}</Button>
          </Link>
        }
      />
    );
  return <DesignEditor key={design.data.id} design={design.data} />;
}

/** /designer lists the caller's designs; /designer?id= edits one. */
export function DesignerPage() {
  const [params] = useSearchParams();
  const id = params.get("id");
  return id ? <DesignEdit id={id} /> : <DesignList />;
}
