import type { ChatAgentInfo } from "@agentfair/contracts";
import { Button, Drawer, Input, Space, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { AgentAvatar } from "../../../components/chat/agent-avatar";
import { shownToolName } from "../../../components/chat/tool-name";

/** The share popover's content: the link, copy and revoke (loaded when the popover first opens). */
export function ShareLinkPanel(props: { sessionId: string | null; link: string; onCopy: () => void; onRevoke: () => void }) {
  const { t } = useTranslation();
  return props.sessionId ? (
    <div style={{ width: 380 }}>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t("chat.shareHint")}
      </Typography.Paragraph>
      <Space.Compact style={{ width: "100%" }}>
        <Input value={props.link} readOnly data-testid="share-link" />
        <Button type="primary" onClick={props.onCopy} disabled={!props.link}>
          {t("chat.copyLink")}
        </Button>
      </Space.Compact>
      <Button type="link" size="small" style={{ paddingInline: 0, marginTop: 8 }} onClick={props.onRevoke}>
        {t("chat.revokeShare")}
      </Button>
    </div>
  ) : (
    <Typography.Text type="secondary">{t("chat.needInput")}</Typography.Text>
  );
}

/** The agent's details drawer (loaded when first opened). */
export function AgentDetailsDrawer({
  agent,
  details,
  setDetails,
}: {
  agent: Pick<ChatAgentInfo, "agentName" | "agentIcon" | "agentIconBackground"> & Partial<ChatAgentInfo>;
  details: boolean;
  setDetails: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Drawer open={details} onClose={() => setDetails(false)} title={t("chat.agentDetails")} width={360} mask={false}>
      <Space direction="vertical" size={16} style={{ width: "100%" }}>
        <Space>
          <AgentAvatar icon={agent.agentIcon} background={agent.agentIconBackground} name={agent.agentName} size={48} />
          <div>
            <Typography.Text strong>{agent.agentName}</Typography.Text>
            <br />
            <Typography.Text type="secondary">{agent.agentDescription}</Typography.Text>
          </div>
        </Space>
        <div>
          <Typography.Title level={5}>{t("chat.usageGuide")}</Typography.Title>
          <Typography.Paragraph style={{ whiteSpace: "pre-wrap" }}>{agent.usageGuide || "-"}</Typography.Paragraph>
        </div>
        <div>
          <Typography.Title level={5}>{t("chat.skills")}</Typography.Title>
          {agent.skills?.length ? (
            agent.skills.map((s) => <Tag key={s}>{shownToolName(t, s)}</Tag>)
          ) : (
            <Typography.Text type="secondary">{t("chat.noSkills")}</Typography.Text>
          )}
        </div>
        <div>
          <Typography.Title level={5}>{t("chat.chatCount")}</Typography.Title>
          <Typography.Text data-testid="chat-count">{agent.chatCount ?? 0}</Typography.Text>
        </div>
      </Space>
    </Drawer>
  );
}
