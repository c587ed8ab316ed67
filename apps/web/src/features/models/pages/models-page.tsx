import { ApiOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import { type ModelInfo, type ModelInput, modelModes, modelTypes } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import {
  App,
  Button,
  Card,
  Checkbox,
  Col,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Result,
  Row,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Tooltip,
  Typography,
} from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PageTitle } from "../../../components/page-title";
import { useUserInfo } from "../../auth/api/user-info";
import { deleteModel } from "../api/delete-model";
import { modelsKey, useModels } from "../api/models";
import { saveModel } from "../api/save-model";
import { testModel } from "../api/test-model";
import { validated } from "../../../lib/form";

type FormValues = ModelInput & { apiKey?: string };

/**
 * Model management: platform administrators manage every model, a tenant administrator its own
 * tenant's models; others see 403 and no model list is requested.
 */
export function ModelsPage() {
  const { t } = useTranslation();
  const user = useUserInfo();
  if (!user.data) return null;
  if (!user.data.isAdmin && !user.data.isTenantAdmin) return <Result status="403" title="403" subTitle={t("http.unauthorized")} />;
  return <ModelsAdmin platform={user.data.isAdmin} />;
}

/**
 * Name, type, base URL, ApiKey (never shown), limits, test connection. Private addresses are
 * for platform administrators only: a tenant administrator has no such switch.
 */
function ModelsAdmin({ platform }: { platform: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const models = useModels();
  const [editing, setEditing] = useState<ModelInfo | "new" | null>(null);
  const [testing, setTesting] = useState<string | null>(null);
  const [form] = Form.useForm<FormValues>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: modelsKey });

  const open = (m: ModelInfo | "new") => {
    setEditing(m);
    form.resetFields();
    if (m !== "new") form.setFieldsValue({ ...m, apiKey: "" });
  };
  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    await saveModel(editing === "new" || !editing ? null : editing.id, values);
    message.success(t("models.saved"));
    setEditing(null);
    void refresh();
  };
  const test = async (id: string) => {
    setTesting(id);
    try {
      const r = await testModel(id);
      if (r.ok) message.success(t("models.testOk", { ms: r.latencyMs }));
      else message.error(r.message);
    } finally {
      setTesting(null);
    }
  };
  const limit = (n: number) => (n ? n.toLocaleString() : t("models.unlimited"));

  return (
    <div style={{ maxWidth: 1200, margin: "0 auto", padding: 24 }}>
      <Card
        title={<PageTitle title={t("models.title")} subtitle={t(platform ? "models.subtitle" : "models.tenantSubtitle")} />}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => open("new")}>
            {t("models.add")}
          </Button>
        }
      >
        <Table<ModelInfo>
          rowKey="id"
          loading={models.isLoading}
          dataSource={models.data ?? []}
          pagination={false}
          scroll={{ x: 980 }}
          locale={{ emptyText: <Empty description={t("models.empty")} /> }}
          columns={[
            {
              title: t("models.name"),
              dataIndex: "name",
              width: 200,
              render: (v: string, m) => (
                <Space>
                  <Typography.Text strong>{v}</Typography.Text>
                  {m.isDefault && <Tag color="blue">{t("models.default")}</Tag>}
                </Space>
              ),
            },
            {
              title: t("models.type"),
              dataIndex: "type",
              width: 130,
              render: (v: ModelInfo["type"]) => <Tag>{t(`models.types.${v}`)}</Tag>,
            },
            { title: t("models.modelId"), dataIndex: "modelId" },
            { title: t("models.baseUrl"), dataIndex: "baseUrl", ellipsis: true, width: 220 },
            {
              title: t("models.apiKey"),
              dataIndex: "hasApiKey",
              render: (v: boolean) => (v ? t("models.apiKeyStored") : t("models.apiKeyNone")),
            },
            {
              title: t("models.limitsShort"),
              width: 200,
              render: (_, m) => `${limit(m.rpmLimit)} / ${limit(m.inputTpmLimit)} / ${limit(m.outputTpmLimit)}`,
            },
            {
              title: t("models.status"),
              dataIndex: "enabled",
              render: (v: boolean) => (v ? <Tag color="green">{t("models.on")}</Tag> : <Tag>{t("models.off")}</Tag>),
            },
            {
              title: t("models.actions"),
              fixed: "right",
              width: 150,
              render: (_, m) => (
                <Space size={0}>
                  <Tooltip title={t("models.test")}>
                    <Button
                      type="text"
                      icon={<ApiOutlined />}
                      loading={testing === m.id}
                      onClick={() => test(m.id)}
                      aria-label={t("models.test")}
                    />
                  </Tooltip>
                  <Tooltip title={t("models.edit")}>
                    <Button type="text" icon={<EditOutlined />} onClick={() => open(m)} aria-label={t("models.edit")} />
                  </Tooltip>
                  <Popconfirm
                    title={t("models.removeConfirm")}
                    onConfirm={async () => {
                      await deleteModel(m.id);
                      message.success(t("models.removed"));
                      void refresh();
                    }}
                  >
                    <Button type="text" danger icon={<DeleteOutlined />} aria-label={t("models.remove")} />
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <Modal
        open={!!editing}
        title={editing === "new" ? t("models.add") : t("models.edit")}
        onOk={save}
        onCancel={() => setEditing(null)}
        width={640}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          initialValues={{
            type: "LLM",
            defaultMode: "balanced",
            contextWindow: 32000,
            rpmLimit: 0,
            inputTpmLimit: 0,
            outputTpmLimit: 0,
            enabled: true,
            isDefault: false,
            allowPrivate: false,
          }}
        >
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item
                name="name"
                label={t("models.name")}
                rules={[{ required: true, whitespace: true, message: t("models.required", { field: t("models.name") }) }]}
              >
                <Input maxLength={64} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="type" label={t("models.type")} rules={[{ required: true }]}>
                <Select options={modelTypes.map((v) => ({ value: v, label: t(`models.types.${v}`) }))} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item
            name="baseUrl"
            label={t("models.baseUrl")}
            rules={[
              { required: true, message: t("models.required", { field: t("models.baseUrl") }) },
              { pattern: /^https?:\/\/\S+$/i, message: t("models.urlInvalid") },
            ]}
          >
            <Input placeholder="https://api.deepseek.com/v1" />
          </Form.Item>
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item name="apiKey" label={t("models.apiKey")}>
                <Input.Password
                  autoComplete="new-password"
                  placeholder={editing !== "new" && editing?.hasApiKey ? t("models.apiKeyKeep") : "sk-..."}
                />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="modelId"
                label={t("models.modelId")}
                rules={[{ required: true, whitespace: true, message: t("models.required", { field: t("models.modelId") }) }]}
              >
                <Input placeholder="deepseek-chat" />
              </Form.Item>
            </Col>
          </Row>
          {editing !== "new" && editing?.hasApiKey && (
            <Form.Item name="clearApiKey" valuePropName="checked" style={{ marginTop: -12 }}>
              <Checkbox>{t("models.clearApiKey")}</Checkbox>
            </Form.Item>
          )}
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item name="defaultMode" label={t("models.defaultMode")}>
                <Select options={modelModes.map((v) => ({ value: v, label: t(`models.modes.${v}`) }))} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="contextWindow" label={t("models.contextWindow")}>
                <InputNumber min={512} max={10_000_000} style={{ width: "100%" }} />
              </Form.Item>
            </Col>
          </Row>
          <Typography.Text type="secondary">{t("models.limits")}</Typography.Text>
          <Row gutter={16} style={{ marginTop: 8 }}>
            <Col span={8}>
              <Form.Item name="rpmLimit" label={t("models.rpm")}>
                <InputNumber min={0} style={{ width: "100%" }} />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="inputTpmLimit" label={t("models.inputTpm")}>
                <InputNumber min={0} style={{ width: "100%" }} />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="outputTpmLimit" label={t("models.outputTpm")}>
                <InputNumber min={0} style={{ width: "100%" }} />
              </Form.Item>
            </Col>
          </Row>
          <Space size={24} wrap>
            <Form.Item name="enabled" label={t("models.enabled")} valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item name="isDefault" label={t("models.isDefault")} valuePropName="checked">
              <Switch />
            </Form.Item>
            {platform && (
              <Form.Item
                name="allowPrivate"
                label={t("models.allowPrivate")}
                valuePropName="checked"
                tooltip={t("models.allowPrivateHint")}
              >
                <Switch />
              </Form.Item>
            )}
          </Space>
        </Form>
      </Modal>
    </div>
  );
}
