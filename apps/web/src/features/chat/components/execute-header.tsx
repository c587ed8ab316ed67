import { ArrowLeftOutlined, AppstoreOutlined, InfoCircleOutlined, ShareAltOutlined } from "@ant-design/icons";
import type { ChatAgentInfo } from "@agentfair/contracts";
import { App, Button, Popover, Space, Spin } from "antd";
import { lazy, type ReactNode, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { AgentAvatar } from "../../../components/chat/agent-avatar";
import { copyText } from "../../../components/chat/chat-view";
import { getShareToken, revokeShare } from "../api/share-token";

/** The share link and the details drawer load when first opened, not with the chat. */
const ShareLinkPanel = lazy(() => import("./execute-header-parts").then((m) => ({ default: m.ShareLinkPanel })));
const AgentDetailsDrawer = lazy(() => import("./execute-header-parts").then((m) => ({ default: m.AgentDetailsDrawer })));

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
  // The link of the session it was made for: after moving to another session it is not shown.
  const [shared, setShared] = useState({ sessionId: "", link: "" });
  const link = shared.sessionId === props.sessionId ? shared.link : "";
  // Undefined until first opened: the drawer's code loads then.
  const [details, setDetails] = useState<boolean>();
  const { agent } = props;

  const openShare = async (open: boolean) => {
    if (!open || !props.sessionId) return;
    // The session's live link (the server reuses it); a refusal was already shown by the http client.
    const share = await getShareToken(props.sessionId).catch(() => null);
    if (share) setShared({ sessionId: props.sessionId, link: shareLinkOf(agent.id, props.sessionId, share.shareToken) });
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
        <strong className="exec-agent-name">{agent.agentName}</strong>
        {props.share && <span className="exec-tag exec-tag-blue">{t("chat.readOnly")}</span>}
        {!props.share && !!agent.price && (
          <span className="exec-tag exec-tag-orange" data-testid="price-per-use">
            {t("chat.pricePerUse", { price: agent.price.toFixed(2) })}
          </span>
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
              <Suspense fallback={<Spin size="small" />}>
                <ShareLinkPanel
                  sessionId={props.sessionId}
                  link={link}
                  onCopy={copy}
                  onRevoke={async () => {
                    await revokeShare(props.sessionId!);
                    setShared({ sessionId: "", link: "" });
                    message.success(t("chat.revoked"));
                  }}
                />
              </Suspense>
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
      {details !== undefined && (
        <Suspense fallback={null}>
          <AgentDetailsDrawer agent={agent} details={details} setDetails={setDetails} />
        </Suspense>
      )}
    </div>
  );
}
