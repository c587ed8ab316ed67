import { Spin } from "antd";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { ChatPanel } from "../../../components/chat/chat-panel";
import { fromServer } from "../../../components/chat/use-chat";
import { getToken } from "../../../lib/storage";
import { useSharedSession } from "../api/shared-session";
import { ExecuteHeader } from "../components/execute-header";
import { NotFoundResult } from "../components/not-found-result";
import "./execute.css";

/** A shared session, read-only: no input, no retry, no share, no back. */
export function SharedView({ shareToken }: { shareToken: string }) {
  const { t } = useTranslation();
  const shared = useSharedSession(shareToken);
  const history = useMemo(() => shared.data?.session.messages.map((m) => fromServer(m)) ?? [], [shared.data]);
  if (shared.isLoading) return <Spin fullscreen />;
  if (!shared.data) return <NotFoundResult title={t("chat.shareInvalid")} />;
  const { agent, session } = shared.data;
  return (
    <div className="exec-page" data-testid="share-view">
      <ExecuteHeader agent={agent} sessionId={session.session_id} share />
      <div className="exec-body">
        <div className="exec-main">
          <ChatPanel agentId={agent.id} release agent={agent} sessionId={session.session_id} history={history} share />
        </div>
      </div>
    </div>
  );
}

/** /share-page#/?id=&sessionId=&shareToken=: visitors without a user sign in first and come back. */
export function SharePage() {
  const location = useLocation();
  const navigate = useNavigate();
  const hashQuery = new URLSearchParams(location.hash.replace(/^#\/?\??/, ""));
  const shareToken = hashQuery.get("shareToken") ?? "";
  const signedIn = !!getToken();
  useEffect(() => {
    if (!signedIn) navigate(`/login?redirect=${encodeURIComponent(location.pathname + location.hash)}`, { replace: true });
  }, [signedIn]);
  if (!signedIn) return null;
  return <SharedView shareToken={shareToken} />;
}
