import { CALLABLE_NAME, PLUGIN_KINDS, type PluginType } from "@agentfair/contracts";
import { PlusOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Form, Input, Modal, Radio, Select, Space } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { AgentIcon } from "../../../components/icon-picker/agent-icon";
import { IconPickerModal, type IconValue } from "../../../components/icon-picker/icon-picker";
import { generateCallableName } from "../api/callable-name";
import { addMcpServer } from "../api/add-mcp-server";
import { createPlugin } from "../api/create-plugin";
import { createWorkflow, generateWorkflowCallableName } from "../api/create-workflow";
import { useGroups } from "../api/groups";
import { toolsKey } from "../api/plugin-page";
import { editorPath } from "../editor-path";
import { validated } from "../../../lib/form";

/** Plugin types the form creates; MCP adds a server, whose tools become MCP tools (names from the server). */
const FORM_PLUGIN_TYPES = ["HTTP", "JAVASCRIPT", "PYTHON3", "MCP"] as const;

/** A new code plugin starts from a `main(params)` the sandbox can run at once. */
export const STARTER_CODE: Partial<Record<PluginType, string>> = {
  JAVASCRIPT: "function main(params) {\n  return { echo: params };\n}\n",
  PYTHON3: "def main(params):\n    return {'echo': params}\n",
};

type Values = {
  toolType: 1 | 2;
  pluginName: string;
  pluginTags: string[];
  pluginDescription: string;
  pluginKind: (typeof PLUGIN_KINDS)[number];
  pluginCallableName: string;
  pluginType?: PluginType;
  url?: string;
  serverUrl?: string;
  icon: IconValue;
};

/** Create tool modal (doc 2 §2, §5): every field with the form's messages, then on to the editor. */
export function CreateToolModal({ open, onClose, onMcpAdded }: { open: boolean; onClose: () => void; onMcpAdded?: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const [generating, setGenerating] = useState(false);
  const groups = useGroups(open);
  const toolType = Form.useWatch("toolType", form) ?? 1;
  const pluginType = Form.useWatch("pluginType", form);
  const workflow = toolType === 2;
  const mcp = !workflow && pluginType === "MCP";

  const generate = async () => {
    const { pluginName = "", pluginDescription = "" } = form.getFieldsValue(["pluginName", "pluginDescription"]);
    if (!pluginName.trim() && !pluginDescription.trim()) {
      message.warning(t(workflow ? "tools.create.needWorkflowSource" : "tools.create.needPluginSource"));
      return;
    }
    setGenerating(true);
    try {
      form.setFieldValue(
        "pluginCallableName",
        await (workflow ? generateWorkflowCallableName : generateCallableName)(pluginName, pluginDescription),
      );
      await form.validateFields(["pluginCallableName"]);
    } catch {
      // the http client has shown the server's message
    } finally {
      setGenerating(false);
    }
  };

  const submit = async () => {
    const v = await validated(form);
    if (!v) return;
    const type: PluginType = workflow ? "WORKFLOW" : (v.pluginType as PluginType);
    setSaving(true);
    if (type === "MCP") return addServer(v);
    try {
      const { id } = workflow
        ? await createWorkflow({
            workflowName: v.pluginName,
            workflowDescription: v.pluginDescription,
            workflowIcon: v.icon.icon,
            workflowIconBackground: v.icon.background,
            workflowCallableName: v.pluginCallableName,
            workflowTags: v.pluginTags,
          })
        : await createPlugin({
            pluginName: v.pluginName,
            pluginDescription: v.pluginDescription,
            pluginTags: v.pluginTags,
            pluginKind: v.pluginKind,
            pluginCallableName: v.pluginCallableName,
            pluginType: type,
            pluginIcon: v.icon.icon,
            pluginIconBackground: v.icon.background,
            url: v.url ?? "",
            code: STARTER_CODE[type] ?? "",
          });
      message.success(t("tools.create.created"));
      await queryClient.invalidateQueries({ queryKey: toolsKey });
      form.resetFields();
      onClose();
      navigate(editorPath({ id, pluginType: type }));
    } catch {
      // the http client has shown the server's message
    } finally {
      setSaving(false);
    }
  };

  /** An MCP server: its tools are listed as MCP tools, which open no editor, so the list shows them. */
  const addServer = async (v: Values) => {
    try {
      const { ids } = await addMcpServer({
        serverUrl: v.serverUrl ?? "",
        pluginTags: v.pluginTags,
        pluginIcon: v.icon.icon,
        pluginIconBackground: v.icon.background,
      });
      message.success(t("tools.create.created"));
      if (!ids.length) message.info(t("tools.create.mcpNoTools"));
      await queryClient.invalidateQueries({ queryKey: toolsKey });
      form.resetFields();
      onClose();
      onMcpAdded?.();
    } catch {
      // the http client has shown the server's message
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t("tools.create.title")}
      width={640}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={saving}
      okText={t("common.confirm")}
      cancelText={t("common.cancel")}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ toolType: 1, pluginKind: "BACKEND", pluginTags: [], icon: { icon: "", background: "#e8f3ff" } }}
        data-testid="create-tool-form"
      >
        <Form.Item name="toolType" label={t("tools.create.toolType")}>
          <Radio.Group
            options={[
              { value: 1, label: t("tools.create.plugin") },
              { value: 2, label: t("tools.create.workflow") },
            ]}
          />
        </Form.Item>
        {!mcp && (
          <Form.Item
            name="pluginName"
            label={t(workflow ? "tools.create.workflowName" : "tools.create.pluginName")}
            rules={[
              {
                required: true,
                whitespace: true,
                message: t(workflow ? "tools.create.workflowNameRequired" : "tools.create.pluginNameRequired"),
              },
            ]}
          >
            <Input maxLength={100} showCount />
          </Form.Item>
        )}
        <Form.Item
          name="pluginTags"
          label={t("tools.create.group")}
          rules={[{ required: true, type: "array", min: 1, message: t("tools.create.groupRequired") }]}
        >
          <Select
            mode="tags"
            maxCount={10}
            placeholder={t("tools.create.groupPlaceholder")}
            options={(groups.data ?? []).map((g) => ({ value: g, label: g }))}
          />
        </Form.Item>
        {!mcp && (
          <>
            <Form.Item
              name="pluginDescription"
              label={t("tools.create.description")}
              rules={[{ required: true, whitespace: true, message: t("tools.create.descriptionRequired") }]}
            >
              <Input.TextArea rows={3} maxLength={2000} showCount />
            </Form.Item>
            <Form.Item name="pluginKind" label={t("tools.create.attribute")}>
              <Radio.Group optionType="button" options={PLUGIN_KINDS.map((k) => ({ value: k, label: t(`tools.create.kinds.${k}`) }))} />
            </Form.Item>
            <Form.Item label={t("tools.create.callableName")} htmlFor="pluginCallableName" required>
              <Space.Compact style={{ width: "100%" }}>
                <Form.Item
                  name="pluginCallableName"
                  noStyle
                  rules={[
                    { required: true, whitespace: true, message: t("tools.create.callableNameRequired") },
                    { pattern: CALLABLE_NAME, message: t("tools.create.callableNameInvalid") },
                  ]}
                >
                  <Input maxLength={64} />
                </Form.Item>
                <Button onClick={generate} loading={generating}>
                  {t("tools.create.generate")}
                </Button>
              </Space.Compact>
            </Form.Item>
          </>
        )}
        {!workflow && (
          <Form.Item
            name="pluginType"
            label={t("tools.create.pluginType")}
            rules={[{ required: true, message: t("tools.create.pluginTypeRequired") }]}
          >
            <Select options={FORM_PLUGIN_TYPES.map((p) => ({ value: p, label: t(`tools.types.${p}`) }))} />
          </Form.Item>
        )}
        {!workflow && pluginType === "HTTP" && (
          <Form.Item
            name="url"
            label={t("tools.create.url")}
            rules={[{ required: true, type: "url", message: t("tools.create.urlRequired") }]}
          >
            <Input placeholder="https://" />
          </Form.Item>
        )}
        {mcp && (
          <Form.Item
            name="serverUrl"
            label={t("tools.create.mcpServerUrl")}
            extra={t("tools.create.mcpHint")}
            rules={[
              {
                required: true,
                // http(s), or an administrator's `stdio:NAME` from the platform's list (the server decides who may).
                pattern: /^(https?:\/\/\S+|stdio:[\w.-]+)$/i,
                message: t("tools.create.urlRequired"),
              },
            ]}
          >
            <Input placeholder="https://example.com/mcp" />
          </Form.Item>
        )}
        <Form.Item
          name="icon"
          label={t("tools.create.icon")}
          required
          rules={[
            { validator: (_r, v: IconValue) => (v?.icon ? Promise.resolve() : Promise.reject(new Error(t("tools.create.iconRequired")))) },
          ]}
        >
          <IconField />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The picker as a form control (value and onChange come from Form.Item); empty until one is chosen. */
function IconField({ value, onChange }: { value?: IconValue; onChange?: (v: IconValue) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const current = value ?? { icon: "", background: "#e8f3ff" };
  return (
    <>
      <button
        type="button"
        data-testid="icon-picker-button"
        title={t("tools.create.icon")}
        onClick={() => setOpen(true)}
        style={{ border: "none", padding: 0, background: "none", cursor: "pointer" }}
      >
        {current.icon ? (
          <AgentIcon icon={current.icon} background={current.background} size={56} />
        ) : (
          <span
            style={{
              width: 56,
              height: 56,
              borderRadius: 14,
              border: "1px dashed #d9d9d9",
              display: "inline-flex",
              alignItems: "center",
              justifyContent: "center",
              color: "#8c8c8c",
            }}
          >
            <PlusOutlined />
          </span>
        )}
      </button>
      <IconPickerModal
        open={open}
        value={current}
        onCancel={() => setOpen(false)}
        onOk={(v) => {
          onChange?.(v);
          setOpen(false);
        }}
      />
    </>
  );
}
