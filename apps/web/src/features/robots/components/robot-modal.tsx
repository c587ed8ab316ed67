import { CopyOutlined } from "@ant-design/icons";
import {
  type ChatRobot,
  type ChatRobotType,
  ROBOT_DEFAULT_BASE_URL,
  ROBOT_FIELDS,
  ROBOT_NAME_MAX,
  type RobotInput,
  chatRobotTypes,
} from "@agentfair/contracts";
import { Alert, App, Button, Form, Input, Modal, Select, Space, Switch, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { validated } from "../../../lib/form";

/** The address a platform calls: this site's origin and the robot's callback path. */
export const callbackUrlOf = (robot: Pick<ChatRobot, "callbackPath">) => `${window.location.origin}${robot.callbackPath}`;

/** Copies a text and says whether it worked (the spec's two copy messages). */
export function useCopy() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      message.success(t("common.copySuccess"));
    } catch {
      message.warning(t("common.copyManual"));
    }
  };
}

export function CallbackUrl({ robot }: { robot: ChatRobot }) {
  const { t } = useTranslation();
  const copy = useCopy();
  const url = callbackUrlOf(robot);
  return (
    <Space.Compact style={{ width: "100%" }}>
      <Input value={url} readOnly aria-label={t("robots.callbackUrl")} />
      <Button icon={<CopyOutlined />} onClick={() => copy(url)}>
        {t("robots.copy")}
      </Button>
    </Space.Compact>
  );
}

interface Props {
  open: boolean;
  /** null: a new robot. */
  robot: ChatRobot | null;
  agents: { agentId: string; agentName: string }[];
  onSave(id: string | null, body: RobotInput): Promise<void>;
  onClose(): void;
}

type Values = {
  name: string;
  type: ChatRobotType;
  agentId: string;
  enabled: boolean;
  settings: Record<string, string>;
  secrets: Record<string, string>;
};

/** Add or edit a chat robot: the fields each platform needs; stored secrets are kept when left empty. */
export function RobotModal({ open, robot, agents, onSave, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const type = (Form.useWatch("type", form) ?? robot?.type ?? "wecom") as ChatRobotType;
  const fields = ROBOT_FIELDS[type];
  const storedSecret = (key: string) => !!robot && robot.type === type && robot.secretsSet.includes(key);

  // Filled when the modal opens, not when the agent list arrives (that would wipe what was typed).
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      robot
        ? { name: robot.name, type: robot.type, agentId: robot.agentId, enabled: robot.enabled, settings: robot.settings, secrets: {} }
        : { name: "", type: "wecom", enabled: true, settings: {}, secrets: {} },
    );
  }, [open, robot, form]);
  const firstAgent = agents[0]?.agentId;
  useEffect(() => {
    if (open && !robot && firstAgent && !form.getFieldValue("agentId")) form.setFieldValue("agentId", firstAgent);
  }, [open, robot, firstAgent, form]);

  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    const clean = (o: Record<string, string | undefined> = {}) =>
      Object.fromEntries(Object.entries(o).filter((e): e is [string, string] => typeof e[1] === "string" && e[1].trim() !== ""));
    setSaving(true);
    try {
      await onSave(robot?.id ?? null, {
        ...values,
        settings: clean(Object.fromEntries(fields.settings.map((k) => [k, values.settings?.[k]]))),
        secrets: clean(Object.fromEntries(fields.secrets.map((k) => [k, values.secrets?.[k]]))),
      });
    } finally {
      setSaving(false);
    }
  };

  const label = (key: string) => t(`robots.fields.${key}`);
  const requiredRule = (key: string) => ({ required: true, whitespace: true, message: t("robots.required", { field: label(key) }) });

  return (
    <Modal
      open={open}
      title={robot ? t("robots.edit") : t("robots.add")}
      onOk={save}
      okText={t("common.confirm")}
      cancelText={t("common.cancel")}
      okButtonProps={{ loading: saving }}
      onCancel={onClose}
      width={620}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item
          name="name"
          label={t("robots.name")}
          rules={[{ required: true, whitespace: true, message: t("robots.required", { field: t("robots.name") }) }]}
        >
          <Input maxLength={ROBOT_NAME_MAX} />
        </Form.Item>
        <Space size="middle" style={{ display: "flex" }} align="start">
          <Form.Item name="type" label={t("robots.type")} style={{ width: 160 }}>
            <Select options={chatRobotTypes.map((v) => ({ value: v, label: t(`robots.types.${v}`) }))} />
          </Form.Item>
          <Form.Item
            name="agentId"
            label={t("robots.agent")}
            style={{ width: 250 }}
            rules={[{ required: true, message: t("robots.required", { field: t("robots.agent") }) }]}
          >
            <Select
              placeholder={t("robots.agentPlaceholder")}
              notFoundContent={t("robots.noReleasedAgents")}
              options={agents.map((a) => ({ value: a.agentId, label: a.agentName }))}
              showSearch={{ optionFilterProp: "label" }}
            />
          </Form.Item>
          <Form.Item name="enabled" label={t("robots.status")} valuePropName="checked">
            <Switch checkedChildren={t("robots.enabled")} unCheckedChildren={t("robots.disabled")} />
          </Form.Item>
        </Space>
        <Alert type="info" showIcon message={t(`robots.hints.${type}`)} style={{ marginBottom: 16 }} />
        {fields.settings.map((key) => (
          <Form.Item
            key={`${type}-${key}`}
            name={["settings", key]}
            label={label(key)}
            rules={[
              ...(fields.required.includes(key) ? [requiredRule(key)] : []),
              ...(key === "baseUrl" || key === "replyUrl" ? [{ type: "url" as const }] : []),
            ]}
            extra={key === "baseUrl" ? t("robots.baseUrlHelp", { url: ROBOT_DEFAULT_BASE_URL[type] }) : undefined}
          >
            <Input placeholder={key === "baseUrl" ? ROBOT_DEFAULT_BASE_URL[type] : undefined} maxLength={500} />
          </Form.Item>
        ))}
        {fields.secrets.map((key) => (
          <Form.Item
            key={`${type}-${key}`}
            name={["secrets", key]}
            label={label(key)}
            rules={fields.required.includes(key) && !storedSecret(key) ? [requiredRule(key)] : []}
          >
            <Input.Password
              autoComplete="new-password"
              maxLength={500}
              placeholder={storedSecret(key) ? t("robots.secretKeep") : undefined}
            />
          </Form.Item>
        ))}
        {robot && (
          <Form.Item label={t("robots.callbackUrl")} extra={t("robots.callbackHelp")}>
            <CallbackUrl robot={robot} />
          </Form.Item>
        )}
        {!robot && <Typography.Text type="secondary">{t("robots.callbackHelp")}</Typography.Text>}
      </Form>
    </Modal>
  );
}
