import { CHARGE_IDLE_MS } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { ExclamationCircleFilled } from "@ant-design/icons";
import { App, Button, Spin } from "antd";
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { ChatPanel } from "../../../components/chat/chat-panel";
import { copyText } from "../../../components/chat/chat-view";
import type { UiMessage } from "../../../components/chat/use-chat";
import { useAgentInfo } from "../api/agent-info";
import { clearSession } from "../api/clear-session";
import { useHeartbeat } from "../api/heartbeat";
import { sessionKey, useStoredSession } from "../../../components/chat/api/session";
import { type SessionPages, sessionListKey, useSessionList, withNewSession } from "../api/session-list";
import { getShareToken } from "../api/share-token";
import { ExecuteHeader, shareLinkOf } from "../components/execute-header";
import { LivePanels } from "../components/live-panels";
import { MemoryButton } from "../../../components/chat/memory-button";
import { NotFoundResult } from "../components/not-found-result";
import "./execute.css";

/** A shared session (read-only) is the rarer visit: its view loads when asked for. */
const SharedView = lazy(() => import("./share-page").then((m) => ({ default: m.SharedView })));
/** The session list (Conversations with its item menus) comes just after the chat it sits beside. */
const SessionSidebar = lazy(() => import("../components/session-sidebar").then((m) => ({ default: m.SessionSidebar })));

const NO_MESSAGES: UiMessage[] = [];

/**
 * /agent-execute?id&share&shareToken&xat&source&sessionId: chat with an agent, or a shared session
 * read-only. The open session is kept in the address, so a reload (or a copied address) reopens it and
 * follows a reply that is still being written.
 */
export function ExecutePage() {
  const [params] = useSearchParams();
  const id = params.get("id") ?? "";
  const shareToken = params.get("shareToken") ?? "";
  if (params.get("share") && shareToken)
    return (
      <Suspense fallback={<Spin fullscreen />}>
        <SharedView shareToken={shareToken} />
      </Suspense>
    );
  return <ExecuteChat key={id} agentId={id} backTo={params.get("source") === "1" ? "/home" : "/index"} />;
}

function ExecuteChat({ agentId, backTo }: { agentId: string; backTo: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message, modal } = App.useApp();
  const info = useAgentInfo(agentId, true);
  const [search, setSearch] = useState("");
  const sessions = useSessionList(agentId, search, info.isSuccess);
  // The one session state: what the chat area shows, what the sidebar highlights, where a send goes.
  const [activeId, setActiveId] = useOpenSession();
  const latestActive = useRef(activeId);
  latestActive.current = activeId;
  // Sessions whose first reply is still creating them: the server writes the row a moment after
  // the stream starts, so they are neither fetched nor named in heartbeats until that reply ends.
  const [creating, setCreating] = useState<string[]>([]);
  const storedId = activeId && !creating.includes(activeId) ? activeId : null;
  const stored = useStoredSession(storedId);
  const session = stored.session;
  const history = activeId ? stored.history : NO_MESSAGES;
  useHeartbeat(agentId, storedId, info.isSuccess);
  // An address naming a session this caller cannot open (deleted, another's: the http client has
  // said why) or one of another agent: a new chat instead.
  const foreign = stored.session.isError || (!!session.data && session.data.schema_id !== agentId);
  useEffect(() => {
    if (foreign) setActiveId(null);
  }, [foreign, setActiveId]);
  /** When each session last had a send from this page (the server's charging flag idles out after 5 minutes). */
  const lastSend = useRef(new Map<string, number>());

  if (info.isLoading) return <Spin fullscreen />;
  if (!info.data)
    return (
      <NotFoundResult
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
        // antd's warning Alert in look, without its code on every chat's first load.
        notice: (
          <div className="exec-notice" role="alert">
            <ExclamationCircleFilled className="exec-notice-icon" />
            <span className="exec-notice-text">{t("chat.membershipRequired")}</span>
            <Button type="primary" size="small" onClick={() => navigate("/recharge")}>
              {t("chat.openMembership")}
            </Button>
          </div>
        ),
        onBlocked: () => message.warning(t("chat.membershipRequired")),
      }
    : undefined;
  const refreshList = () => queryClient.invalidateQueries({ queryKey: sessionListKey(agentId) });

  /** The first send of a charging period (a new session, or 5 idle minutes) asks once before paying. */
  const confirmCharge = async () => {
    if (!agent.chargesPerUse) return true;
    const key = activeId ?? "";
    const lastMessage = activeId ? session.data?.messages.at(-1)?.time : undefined;
    const last = Math.max(lastSend.current.get(key) ?? 0, lastMessage ? Date.parse(lastMessage) : 0);
    const charged = !activeId || Date.now() - last >= CHARGE_IDLE_MS;
    if (charged) {
      const ok = await modal.confirm({
        title: t("chat.chargeConfirmTitle"),
        content: t("chat.chargeConfirm", { price: agent.price.toFixed(2), minutes: CHARGE_IDLE_MS / 60_000 }),
        okText: t("chat.chargeOk"),
      });
      if (!ok) return false;
    }
    if (activeId) lastSend.current.set(activeId, Date.now());
    return true;
  };

  return (
    <div className="exec-page">
      <ExecuteHeader
        agent={agent}
        sessionId={activeId}
        share={false}
        backTo={backTo}
        extra={<MemoryButton agentId={agentId} release sessionId={storedId} />}
      />
      <div className="exec-body">
        <Suspense fallback={<div className="exec-sidebar" />}>
          <SessionSidebar
            sessions={sessions.data?.pages.flatMap((p) => p.list) ?? []}
            hasMore={!!sessions.hasNextPage}
            loadingMore={sessions.isFetchingNextPage}
            onLoadMore={() => void sessions.fetchNextPage()}
            onSearch={setSearch}
            activeId={activeId}
            onSelect={setActiveId}
            onNew={() => setActiveId(null)}
            onChanged={(deleted) => {
              if (deleted && deleted === activeId) setActiveId(null);
              void refreshList();
            }}
          />
        </Suspense>
        <div className="exec-main">
          <LivePanels sessionId={storedId} />
          <ChatPanel
            agentId={agentId}
            release
            agent={{ ...agent, prologue: agent.chatOption.prologue, presetQuestions: agent.chatOption.presetQuestions }}
            sessionId={activeId}
            history={history}
            replying={stored.replying}
            blocked={blocked}
            footnote={agent.ownerReadsConversations ? t("chat.ownerReads") : undefined}
            beforeSend={confirmCharge}
            onShare={async () => {
              if (!activeId) return;
              const share = await getShareToken(activeId).catch(() => null);
              if (!share) return;
              if (await copyText(shareLinkOf(agentId, activeId, share.shareToken))) message.success(t("chat.copyLinkOk"));
              else message.warning(t("chat.copyLinkManual"));
            }}
            onSession={(sid, title, created) => {
              if (!created) return;
              lastSend.current.set(sid, Date.now());
              setCreating((list) => [...list, sid]);
              // Still on the new chat: the view follows its session (the user may have moved on).
              if (!latestActive.current) setActiveId(sid);
              // Shown in the list at once; the row is saved a moment later.
              const now = new Date().toISOString();
              queryClient.setQueryData<SessionPages>(sessionListKey(agentId, ""), (data) =>
                withNewSession(data, { session_id: sid, title, create_time: now, update_time: now, schema_id: agentId }),
              );
            }}
            onFinish={(_status, sid) => {
              if (sid) setCreating((list) => list.filter((x) => x !== sid));
              void refreshList();
              if (sid) void queryClient.invalidateQueries({ queryKey: sessionKey(sid) });
              void queryClient.invalidateQueries({ queryKey: ["chat", "agentInfo", agentId] });
              // The model may have remembered something (update_memory).
              void queryClient.invalidateQueries({ queryKey: ["chat", "memory", agentId] });
            }}
            onClear={
              activeId
                ? () => {
                    // A refusal was already shown by the http client.
                    clearSession(activeId).then(
                      () => {
                        message.success(t("chat.cleared"));
                        void queryClient.invalidateQueries({ queryKey: sessionKey(activeId) });
                      },
                      () => undefined,
                    );
                  }
                : undefined
            }
          />
        </div>
      </div>
    </div>
  );
}

/** The open session as the address's `sessionId`; changing it replaces the history entry (back leaves the chat). */
function useOpenSession(): [string | null, (id: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const set = useCallback(
    (id: string | null) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (id) next.set("sessionId", id);
          else next.delete("sessionId");
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [params.get("sessionId") || null, set];
}
