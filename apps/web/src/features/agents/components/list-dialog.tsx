import type { AgentCard } from "@agentfair/contracts";
import { Alert, App, Checkbox, Modal, Space, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { saveApply } from "../api/save-apply";

/**
 * 'confirm list' (doc 1 §5) with the owner's choice whether hirers may copy the agent; a copy
 * includes the persona, so the dialog says so and the default is no. The dialog closes either way:
 * a refusal (e.g. 智能体未发布) is shown as a message and nothing in the dialog could fix it.
 */
export function ListDialog({ agent, onClose, onListed }: { agent: AgentCard | null; onClose: () => void; onListed: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [copyable, setCopyable] = useState(false);
  const [busy, setBusy] = useState(false);
  // The choice starts from the listing's setting once per opened agent (adjusted during render, so a
  // re-render with the same agent never resets what the owner just ticked).
  const [shownFor, setShownFor] = useState<string | null>(null);
  if ((agent?.id ?? null) !== shownFor) {
    setShownFor(agent?.id ?? null);
    if (agent) setCopyable(agent.copyable);
  }

  const submit = async () => {
    if (!agent) return;
    setBusy(true);
    try {
      await saveApply(agent.id, copyable);
      message.success(t("agents.mine.pending"));
      onListed();
    } catch {
      // the http client has shown the server's message
    } finally {
      setBusy(false);
      onClose();
    }
  };

  return (
    <Modal
      open={!!agent}
      title={t("agents.mine.confirmList")}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={busy}
      okText={t("common.confirm")}
      cancelText={t("common.cancel")}
      destroyOnHidden
    >
      <Space direction="vertical" size={12} style={{ width: "100%" }}>
        <Typography.Text>{t("agents.mine.confirmListHint")}</Typography.Text>
        <Checkbox checked={copyable} onChange={(e) => setCopyable(e.target.checked)} data-testid="list-copyable">
          {t("agents.list.copyable")}
        </Checkbox>
        <Alert
          type={copyable ? "warning" : "info"}
          showIcon
          title={t(copyable ? "agents.list.copyableHint" : "agents.list.notCopyableHint")}
        />
      </Space>
    </Modal>
  );
}
