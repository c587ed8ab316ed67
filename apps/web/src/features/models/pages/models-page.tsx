import { ApiOutlined, PlusOutlined, QuestionCircleOutlined } from "@ant-design/icons";
import { type ModelInfo, type ModelInput, modelModes, modelTypes } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Checkbox, Col, Form, Input, InputNumber, Result, Row, Select, Space, Switch, Tag, Tooltip, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AdminTable, EditDialog, RowAction, RowDelete, useEditDialog } from "../../../components/admin-table";
import { useUserInfo } from "../../auth/api/user-info";
import { deleteModel } from "../api/delete-model";
import { modelsKey, useModels } from "../api/models";
import { saveModel } from "../api/save-model";
import { testModel } from "../api/test-model";

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
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const models = useModels();
  const [testing, setTesting] = useState<string | null>(null);
  const [form] = Form.useForm<FormValues>();
  const type = Form.useWatch("type", form);
  const dialog = useEditDialog<ModelInfo, FormValues>(form, (m) => ({ ...m, apiKey: "" }));
  const editing = dialog.editing;
  const refresh = () => queryClient.invalidateQueries({ queryKey: modelsKey });

  const save = async (m: ModelInfo | null, values: FormValues) => {
    await saveModel(m?.id ?? null, values);
    message.success(t("models.saved"));
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
  const locale = i18n.language === "en" ? "en" : "zh-CN";
  const compactNumber = new Intl.NumberFormat(locale, { notation: "compact" });
  const compact = (n: number) => (n ? compactNumber.format(n) : t("models.unlimited"));
  const full = (n: number) => (n ? n.toLocaleString(locale) : t("models.unlimited"));

  return (
    <AdminTable<ModelInfo>
      title={t("models.title")}
      subtitle={t(platform ? "models.subtitle" : "models.tenantSubtitle")}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => dialog.open("new")}>
          {t("models.add")}
        </Button>
      }
      loading={models.isLoading}
      rows={models.data}
      empty={t(platform ? "models.empty" : "models.tenantEmpty")}
      // Every cell on one line: the table is as wide as its content and scrolls when the window is not.
      nowrap
      columns={[
        {
          title: t("models.name"),
          dataIndex: "name",
          render: (v: string, m) => (
            <Space size={4}>
              <Typography.Text strong ellipsis={{ tooltip: v }} style={{ maxWidth: 200 }}>
                {v}
              </Typography.Text>
              {m.isDefault && <Tag color="blue">{t("models.default")}</Tag>}
            </Space>
          ),
        },
        {
          title: t("models.type"),
          dataIndex: "type",
          render: (v: ModelInfo["type"]) => <Tag>{t(`models.types.${v}`)}</Tag>,
        },
        {
          title: t("models.modelId"),
          dataIndex: "modelId",
          render: (v: string) => (
            <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 180 }}>
              {v}
            </Typography.Text>
          ),
        },
        {
          title: t("models.baseUrl"),
          dataIndex: "baseUrl",
          render: (v: string) => (
            <Typography.Text type="secondary" ellipsis={{ tooltip: v }} style={{ maxWidth: 220 }}>
              {v}
            </Typography.Text>
          ),
        },
        {
          title: t("models.apiKey"),
          dataIndex: "hasApiKey",
          render: (v: boolean) => (v ? t("models.apiKeyStored") : t("models.apiKeyNone")),
        },
        {
          title: (
            <Tooltip title={t("models.limitsShort")}>
              {t("models.limitsHead")} <QuestionCircleOutlined style={{ color: "#8c8c8c" }} />
            </Tooltip>
          ),
          render: (_, m) => (
            <Tooltip title={`${t("models.limitsShort")}: ${full(m.rpmLimit)} / ${full(m.inputTpmLimit)} / ${full(m.outputTpmLimit)}`}>
              {`${compact(m.rpmLimit)} / ${compact(m.inputTpmLimit)} / ${compact(m.outputTpmLimit)}`}
            </Tooltip>
          ),
        },
        {
          title: t("models.status"),
          dataIndex: "enabled",
          render: (v: boolean) => (v ? <Tag color="green">{t("models.on")}</Tag> : <Tag>{t("models.off")}</Tag>),
        },
      ]}
      actionsTitle={t("models.actions")}
      actions={(m) => (
        <>
          <RowAction label={t("models.test")} icon={<ApiOutlined />} loading={testing === m.id} onClick={() => test(m.id)} />
          <RowAction label={t("models.edit")} onClick={() => dialog.open(m)} />
          <RowDelete
            label={t("models.remove")}
            confirm={t("models.removeConfirm")}
            onConfirm={async () => {
              await deleteModel(m.id);
              message.success(t("models.removed"));
              void refresh();
            }}
          />
        </>
      )}
    >
      <EditDialog dialog={dialog} form={form} addTitle={t("models.add")} editTitle={t("models.edit")} onSave={save} width={640}>
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
              { pattern: /^(https?:\/\/\S+|local:\/\/offline)$/i, message: t("models.urlInvalid") },
            ]}
            extra={
              type === "RERANK" || platform ? (
                <>
                  {type === "RERANK" && <div>{t("models.rerankHint")}</div>}
                  {platform && <div>{t("models.baseUrlLocalHint")}</div>}
                </>
              ) : undefined
            }
          >
            <Input placeholder={type === "RERANK" ? "https://api.jina.ai/v1" : "https://api.deepseek.com/v1"} />
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
      </EditDialog>
    </AdminTable>
  );
}
