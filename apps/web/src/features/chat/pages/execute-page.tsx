import type { ReplyStatus } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Result, Spin } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { ChatPanel } from "../../../components/chat/chat-panel";
import { copyText } from "../../../components/chat/chat-view";
import { fromServer } from "../../../components/chat/use-chat";
import { useAgentInfo } from "../api/agent-info";
import { clearSession } from "../api/clear-session";
import { useHeartbeat } from "../api/heartbeat";
import { sessionKey, useSession } from "../api/session";
import { sessionListKey, useSessionList } from "../api/session-list";
import { getShareToken } from "../api/share-token";
import { ExecuteHeader, shareLinkOf } from "../components/execute-header";
import { SessionSidebar } from "../components/session-sidebar";
import { SharedView } from "./share-page";
import "./execute.css";

/** /agent-execute?id&share&shareToken&xat&source: chat with an agent, or a shared session read-only. */
export function ExecutePage() {
  const [params] = useSearchParams();
  const id = params.get("id") ?? "";
  const shareToken = params.get("shareToken") ?? "";
  if (params.get("share") && shareToken) return <SharedView shareToken={shareToken} />;
  return <ExecuteChat key={id} agentId={id} />;
}

function ExecuteChat({ agentId }: { agentId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const info = useAgentInfo(agentId, true);
  const sessions = useSessionList(agentId, info.isSuccess);
  const [activeId, setActiveId] = useState<string | null>(null);
  // A session the first reply is still creating: the server writes its row a moment after the
  // stream starts, so it is neither fetched nor named in heartbeats until that reply ends (no 404s).
  const [creatingId, setCreatingId] = useState<string | null>(null);
  const storedId = activeId && activeId !== creatingId ? activeId : null;
  const session = useSession(storedId);
  const history = useMemo(() => (activeId ? (session.data?.messages.map(fromServer) ?? undefined) : []), [activeId, session.data]);
  useHeartbeat(agentId, storedId, info.isSuccess);

  if (info.isLoading) return <Spin fullscreen />;
  if (!info.data)
    return (
      <Result
        status="404"
        title={t("chat.notFound")}
        extra={
          <Button type="primary" onClick={() => navigate("/index")}>
            {t("chat.back")}
          </Button>
        }
      />
    );
  const agent = info.data;
  // Refused before anything is sent: a priced agent needs a membership this caller lacks.
  const blocked = agent.membershipRequired
    ? {
        notice: (
          <Alert
            type="warning"
            showIcon
            title={t("chat.membershipRequired")}
            action={
              <Button type="primary" size="small" onClick={() => navigate("/recharge")}>
                {t("chat.openMembership")}
              </Button>
            }
          />
        ),
        onBlocked: () => message.warning(t("chat.membershipRequired")),
      }
    : undefined;
  const refreshList = () => queryClient.invalidateQueries({ queryKey: sessionListKey(agentId) });

  return (
    <div className="exec-page">
      <ExecuteHeader agent={agent} sessionId={activeId} share={false} />
      <div className="exec-body">
        <SessionSidebar
          sessions={sessions.data?.list ?? []}
          activeId={activeId}
          onSelect={(sid) => {
            setCreatingId(null);
            setActiveId(sid);
          }}
          onNew={() => setActiveId(null)}
          onChanged={(deleted) => {
            if (deleted && deleted === activeId) setActiveId(null);
            void refreshList();
          }}
        />
        <div className="exec-main">
          <ChatPanel
            agentId={agentId}
            release
            agent={{ ...agent, prologue: agent.chatOption.prologue, presetQuestions: agent.chatOption.presetQuestions }}
            sessionId={activeId}
            history={history}
            blocked={blocked}
            onShare={async () => {
              if (!activeId) return;
              const { shareToken } = await getShareToken(activeId);
              if (await copyText(shareLinkOf(agentId, activeId, shareToken))) message.success(t("chat.copyLinkOk"));
              else message.warning(t("chat.copyLinkManual"));
            }}
            onSession={(sid) => {
              if (sid !== activeId) {
                setCreatingId(sid);
                setActiveId(sid);
              }
              void refreshList();
            }}
            onFinish={(_status: ReplyStatus) => {
              setCreatingId(null);
              void refreshList();
              if (activeId) void queryClient.invalidateQueries({ queryKey: sessionKey(activeId) });
              void queryClient.invalidateQueries({ queryKey: ["chat", "agentInfo", agentId] });
            }}
            onClear={
              activeId
                ? () => {
                    void clearSession(activeId).then(() => queryClient.invalidateQueries({ queryKey: sessionKey(activeId) }));
                  }
                : undefined
            }
          />
        </div>
      </div>
    </div>
  );
}
