import { ArrowLeftOutlined, AppstoreOutlined, InfoCircleOutlined, ShareAltOutlined } from "@ant-design/icons";
import type { ChatAgentInfo } from "@agentfair/contracts";
import { App, Button, Drawer, Input, Popover, Space, Tag, Typography } from "antd";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { AgentAvatar } from "../../../components/chat/agent-avatar";
import { copyText } from "../../../components/chat/chat-view";
import { getShareToken, revokeShare } from "../api/share-token";

/** The share link: current origin and path plus the hash route, carrying the share token. */
export function shareLinkOf(agentId: string, sessionId: string, shareToken: string) {
  const base = window.location.pathname.replace(/\/agent-execute\/?$/, "");
  return `${window.location.origin}${base}/share-page#/?id=${encodeURIComponent(agentId)}&sessionId=${encodeURIComponent(sessionId)}&shareToken=${encodeURIComponent(shareToken)}`;
}

/** True when this page was the first one opened in the tab: going back would leave the app. */
const openedFirst = () => !((window.history.state as { idx?: number } | null)?.idx ?? 0);

/**
 * Header: back (hidden in share mode; to `backTo` when the chat was opened first), the price per
 * use, share popover (hidden in share mode), agent details. A share view links to the marketplace.
 */
export function ExecuteHeader(props: {
  agent: Pick<ChatAgentInfo, "id" | "agentName" | "agentIcon" | "agentIconBackground"> & Partial<ChatAgentInfo>;
  sessionId: string | null;
  share: boolean;
  /** Where back goes when there is no page of this app to go back to. */
  backTo?: string;
  /** More buttons before the share button (the memory button). */
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [link, setLink] = useState("");
  const [details, setDetails] = useState(false);
  const { agent } = props;

  const openShare = async (open: boolean) => {
    if (!open || !props.sessionId) return;
    // The session's live link (the server reuses it); a refusal was already shown by the http client.
    const share = await getShareToken(props.sessionId).catch(() => null);
    if (share) setLink(shareLinkOf(agent.id, props.sessionId, share.shareToken));
  };
  const copy = async () => {
    if (await copyText(link)) message.success(t("chat.copyLinkOk"));
    else message.warning(t("chat.copyLinkManual"));
  };

  return (
    <div className="exec-header">
      <Space size={12}>
        {!props.share && (
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            onClick={() => (openedFirst() ? navigate(props.backTo ?? "/index", { replace: true }) : navigate(-1))}
            aria-label={t("chat.back")}
          />
        )}
        <AgentAvatar icon={agent.agentIcon} background={agent.agentIconBackground} name={agent.agentName} size={32} />
        <Typography.Text strong style={{ fontSize: 16 }}>
          {agent.agentName}
        </Typography.Text>
        {props.share && <Tag color="blue">{t("chat.readOnly")}</Tag>}
        {!props.share && !!agent.price && (
          <Tag color="orange" data-testid="price-per-use">
            {t("chat.pricePerUse", { price: agent.price.toFixed(2) })}
          </Tag>
        )}
      </Space>
      <Space>
        {props.extra}
        {props.share && (
          <Button type="primary" icon={<AppstoreOutlined />} onClick={() => navigate("/index")} data-testid="share-to-market">
            {t("chat.toMarketplace")}
          </Button>
        )}
        {!props.share && (
          <Popover
            trigger="click"
            placement="bottomRight"
            onOpenChange={openShare}
            title={t("chat.shareLink")}
            content={
              props.sessionId ? (
                <div style={{ width: 380 }}>
                  <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
                    {t("chat.shareHint")}
                  </Typography.Paragraph>
                  <Space.Compact style={{ width: "100%" }}>
                    <Input value={link} readOnly data-testid="share-link" />
                    <Button type="primary" onClick={copy} disabled={!link}>
                      {t("chat.copyLink")}
                    </Button>
                  </Space.Compact>
                  <Button
                    type="link"
                    size="small"
                    style={{ paddingInline: 0, marginTop: 8 }}
                    onClick={async () => {
                      await revokeShare(props.sessionId!);
                      setLink("");
                      message.success(t("chat.revoked"));
                    }}
                  >
                    {t("chat.revokeShare")}
                  </Button>
                </div>
              ) : (
                <Typography.Text type="secondary">{t("chat.needInput")}</Typography.Text>
              )
            }
          >
            <Button icon={<ShareAltOutlined />} disabled={!props.sessionId}>
              {t("chat.share")}
            </Button>
          </Popover>
        )}
        {!props.share && (
          <Button icon={<InfoCircleOutlined />} onClick={() => setDetails((v) => !v)}>
            {t("chat.agentDetails")}
          </Button>
        )}
      </Space>
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
              agent.skills.map((s) => <Tag key={s}>{s}</Tag>)
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
    </div>
  );
}
