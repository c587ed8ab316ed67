import { ArrowLeftOutlined, PlusOutlined } from "@ant-design/icons";
import type { CreatedMcpKey, McpKeyItem } from "@agentfair/contracts";
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Descriptions,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Result,
  Space,
  Spin,
  Table,
  Tabs,
  Typography,
} from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { PageTitle } from "../../../components/page-title";
import { useChannelAgent } from "../api/agent";
import { useCreateMcpKey, useMcpKeys, useRevokeMcpKey, useUpdateMcpKey } from "../api/mcp-keys";
import { clientSnippets, serverName } from "../components/snippets";
import { validated } from "../../../lib/form";

interface KeyForm {
  name: string;
  searchKnowledge: boolean;
  requestsPerMinute: number;
  inputTokensPerMinute: number;
  outputTokensPerMinute: number;
}

const code = (text: string) => (
  <Typography.Paragraph copyable={{ text }} style={{ margin: 0 }}>
    <pre style={{ margin: 0, padding: 12, background: "rgba(0,0,0,0.04)", borderRadius: 6, overflowX: "auto", fontSize: 12 }}>{text}</pre>
  </Typography.Paragraph>
);

/** /mcp-access?id=: the agent as an MCP server: endpoints, keys (shown once) and client settings. */
export function McpAccessPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get("id");
  const agent = useChannelAgent(id);
  const keys = useMcpKeys(id);
  const create = useCreateMcpKey(id ?? "");
  const revoke = useRevokeMcpKey(id ?? "");
  const update = useUpdateMcpKey(id ?? "");
  /** The key being edited, or "new" while one is being created. */
  const [editing, setEditing] = useState<McpKeyItem | "new" | null>(null);
  const [shown, setShown] = useState<CreatedMcpKey | null>(null);
  const [form] = Form.useForm<KeyForm>();

  const back = (
    <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => navigate(-1)} style={{ marginBottom: 12 }}>
      {t("channels.mcp.back")}
    </Button>
  );
  if (!id || keys.isError)
    return (
      <div style={{ maxWidth: 1080, margin: "0 auto" }}>
        {back}
        <Result status="warning" title={t("channels.mcp.noAgent")} subTitle={keys.error?.message} />
      </div>
    );
  if (!keys.data) return <Spin style={{ display: "block", padding: 64 }} />;

  const origin = window.location.origin;
  const httpUrl = origin + keys.data.endpoints.streamableHttp;
  const sseUrl = origin + keys.data.endpoints.sse;
  const placeholder = t("channels.mcp.keyPlaceholder");
  const snippets = clientSnippets({ name: serverName(agent.data?.agent.agentName ?? ""), httpUrl, sseUrl, key: shown?.key ?? placeholder });
  const limit = (n: number) => (n > 0 ? String(n) : t("channels.mcp.unlimited"));

  const submit = async () => {
    const values = await validated(form);
    if (!values) return;
    try {
      if (editing && editing !== "new") {
        await update.mutateAsync({ keyId: editing.id, body: values });
        setEditing(null);
        message.success(t("channels.mcp.saved"));
        return;
      }
      const created = await create.mutateAsync(values);
      setEditing(null);
      form.resetFields();
      setShown(created);
    } catch {
      // the http client has shown the server's message
    }
  };

  return (
    <div style={{ maxWidth: 1080, margin: "0 auto" }} data-testid="mcp-access-page">
      {back}
      <Card
        title={
          <PageTitle title={`${t("channels.mcp.title")} · ${agent.data?.agent.agentName ?? ""}`} subtitle={t("channels.mcp.subtitle")} />
        }
      >
        <Space direction="vertical" size={24} style={{ width: "100%" }}>
          <Descriptions title={t("channels.mcp.endpoints")} column={1} bordered size="small">
            <Descriptions.Item label={t("channels.mcp.streamableHttp")}>
              <Typography.Text copyable data-testid="mcp-http-url">
                {httpUrl}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t("channels.mcp.sse")}>
              <Typography.Text copyable>{sseUrl}</Typography.Text>
            </Descriptions.Item>
          </Descriptions>
          <Typography.Text type="secondary">{t("channels.mcp.tools")}</Typography.Text>

          <div>
            <Space style={{ width: "100%", justifyContent: "space-between", marginBottom: 12 }}>
              <Typography.Title level={5} style={{ margin: 0 }}>
                {t("channels.mcp.keys")}
              </Typography.Title>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing("new")} data-testid="mcp-create-key">
                {t("channels.mcp.createKey")}
              </Button>
            </Space>
            <Alert type="info" showIcon message={t("channels.mcp.keysHint")} style={{ marginBottom: 12 }} />
            <Table<McpKeyItem>
              rowKey="id"
              size="middle"
              pagination={false}
              dataSource={keys.data.list}
              locale={{ emptyText: <Empty description={t("channels.mcp.noKeys")} /> }}
              columns={[
                { title: t("channels.mcp.name"), dataIndex: "name" },
                {
                  title: t("channels.mcp.prefix"),
                  dataIndex: "prefix",
                  render: (p: string) => <Typography.Text code>{p}…</Typography.Text>,
                },
                {
                  title: t("channels.mcp.limitsColumn"),
                  render: (_, k) => `${limit(k.requestsPerMinute)} / ${limit(k.inputTokensPerMinute)} / ${limit(k.outputTokensPerMinute)}`,
                },
                { title: t("channels.mcp.createdAt"), dataIndex: "createdAt", render: (v: string) => dayjs(v).format("YYYY-MM-DD HH:mm") },
                {
                  title: t("channels.mcp.lastUsedAt"),
                  dataIndex: "lastUsedAt",
                  render: (v: string | null) => (v ? dayjs(v).format("YYYY-MM-DD HH:mm") : t("channels.mcp.never")),
                },
                {
                  title: t("channels.mcp.actions"),
                  render: (_, k) => (
                    <Space size={0}>
                      <Button type="link" size="small" onClick={() => setEditing(k)} data-testid="mcp-edit-key">
                        {t("channels.mcp.edit")}
                      </Button>
                      <Popconfirm
                        title={t("channels.mcp.confirmRevoke")}
                        okText={t("common.confirm")}
                        cancelText={t("common.cancel")}
                        onConfirm={async () => {
                          await revoke.mutateAsync(k.id);
                          message.success(t("channels.mcp.revoked"));
                        }}
                      >
                        <Button type="link" danger size="small" data-testid="mcp-revoke-key">
                          {t("channels.mcp.revoke")}
                        </Button>
                      </Popconfirm>
                    </Space>
                  ),
                },
              ]}
            />
          </div>

          <div>
            <Typography.Title level={5}>{t("channels.mcp.snippets")}</Typography.Title>
            <Typography.Paragraph type="secondary">{t("channels.mcp.snippetsHint", { placeholder })}</Typography.Paragraph>
            <Tabs
              items={[
                { key: "claude", label: t("channels.mcp.claude"), children: code(snippets.claude) },
                { key: "cursor", label: t("channels.mcp.cursor"), children: code(snippets.cursor) },
                { key: "cherry", label: t("channels.mcp.cherry"), children: code(snippets.cherry) },
                { key: "sse", label: t("channels.mcp.sseClient"), children: code(snippets.sse) },
              ]}
            />
          </div>
        </Space>
      </Card>

      <Modal
        open={!!editing}
        title={editing === "new" ? t("channels.mcp.createKey") : t("channels.mcp.editKey")}
        onCancel={() => setEditing(null)}
        onOk={submit}
        confirmLoading={create.isPending || update.isPending}
        okText={t("common.confirm")}
        cancelText={t("common.cancel")}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          preserve={false}
          initialValues={
            editing && editing !== "new"
              ? editing
              : { searchKnowledge: false, requestsPerMinute: 60, inputTokensPerMinute: 0, outputTokensPerMinute: 0 }
          }
        >
          <Form.Item
            name="name"
            label={t("channels.mcp.keyName")}
            rules={[{ required: true, whitespace: true, message: t("channels.mcp.keyNameRequired") }]}
          >
            <Input maxLength={50} placeholder={t("channels.mcp.keyNamePlaceholder")} data-testid="mcp-key-name" />
          </Form.Item>
          <Form.Item name="searchKnowledge" valuePropName="checked">
            <Checkbox>{t("channels.mcp.searchKnowledge")}</Checkbox>
          </Form.Item>
          <Typography.Text strong>{t("channels.mcp.limits")}</Typography.Text>
          <Space wrap style={{ marginTop: 8 }}>
            {(["requestsPerMinute", "inputTokensPerMinute", "outputTokensPerMinute"] as const).map((f) => (
              <Form.Item key={f} name={f} label={t(`channels.mcp.${f}`)} style={{ marginBottom: 0 }}>
                <InputNumber min={0} max={1_000_000_000} precision={0} style={{ width: 140 }} />
              </Form.Item>
            ))}
          </Space>
        </Form>
      </Modal>

      <Modal
        open={!!shown}
        title={t("channels.mcp.created")}
        closable={false}
        maskClosable={false}
        footer={
          <Button type="primary" onClick={() => setShown(null)} data-testid="mcp-key-close">
            {t("channels.mcp.close")}
          </Button>
        }
        width={680}
      >
        <Alert type="warning" showIcon message={t("channels.mcp.shownOnce")} style={{ marginBottom: 12 }} />
        <Typography.Paragraph copyable={{ text: shown?.key ?? "" }} data-testid="mcp-new-key">
          <Typography.Text code>{shown?.key}</Typography.Text>
        </Typography.Paragraph>
        <Tabs
          size="small"
          items={[
            { key: "claude", label: t("channels.mcp.claude"), children: code(snippets.claude) },
            { key: "cursor", label: t("channels.mcp.cursor"), children: code(snippets.cursor) },
            { key: "cherry", label: t("channels.mcp.cherry"), children: code(snippets.cherry) },
          ]}
        />
      </Modal>
    </div>
  );
}
