import { type AgentCard, AGENT_NAME_MAX, isListed, renameError } from "@agentfair/contracts";
import { Alert, App, Form, Input, InputNumber, Modal } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { IconPickerButton, type IconValue } from "../../../components/icon-picker/icon-picker";
import { updateIntro } from "../api/update-intro";
import { validated } from "../../../lib/form";

type Values = { agentName: string; agentDescription: string; price: number };

/** Rename (name only) or settings (name, description, icon, price): PUT /api/agent/intro/{id}. */
export function IntroModal({
  agent,
  mode,
  onClose,
  onSaved,
}: {
  agent: AgentCard | null;
  mode: "rename" | "settings";
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [icon, setIcon] = useState<IconValue>({ icon: "1", background: "#e8f3ff" });
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!agent) return;
    form.setFieldsValue({ agentName: agent.agentName, agentDescription: agent.agentDescription, price: agent.price });
    setIcon({ icon: agent.agentIcon, background: agent.agentIconBackground });
  }, [agent]);

  const submit = async () => {
    if (!agent) return;
    const v = await validated(form);
    if (!v) return;
    setBusy(true);
    try {
      const card = await updateIntro(
        agent.id,
        mode === "rename"
          ? { agentName: v.agentName }
          : {
              agentName: v.agentName,
              agentDescription: v.agentDescription ?? "",
              agentIcon: icon.icon,
              agentIconBackground: icon.background,
              price: v.price ?? 0,
            },
      );
      // A listed agent's new card or price waits for review; hirers keep the approved one until then.
      message.success(t(isListed(agent) && card.applyStatus === "PENDING" ? "agents.rename.pendingReview" : "agents.rename.saved"));
      onSaved();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={!!agent}
      title={mode === "rename" ? t("agents.mine.rename") : t("agents.rename.title")}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={busy}
      destroyOnHidden
      okText={t("common.confirm")}
      cancelText={t("common.cancel")}
    >
      {agent && isListed(agent) && <Alert type="info" showIcon title={t("agents.rename.listedHint")} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" preserve={false}>
        {mode === "settings" && (
          <Form.Item label={t("agents.rename.icon")}>
            <IconPickerButton value={icon} onChange={setIcon} />
          </Form.Item>
        )}
        <Form.Item
          name="agentName"
          label={t("agents.rename.name")}
          rules={[
            {
              validator: (_, value: string | undefined) => {
                const err = renameError(value ?? "");
                return err ? Promise.reject(new Error(t(`agents.rename.${err}`))) : Promise.resolve();
              },
            },
          ]}
        >
          <Input showCount={{ formatter: ({ count }) => `${count} / ${AGENT_NAME_MAX}` }} data-testid="intro-name" />
        </Form.Item>
        {mode === "settings" && (
          <>
            <Form.Item name="agentDescription" label={t("agents.rename.description")}>
              <Input.TextArea rows={3} maxLength={500} showCount />
            </Form.Item>
            <Form.Item name="price" label={t("agents.rename.price")}>
              <InputNumber min={0} max={100000} precision={2} style={{ width: 200 }} />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}
