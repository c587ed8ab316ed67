import { HEARTBEAT_SECONDS } from "@agentfair/contracts";
import { useEffect } from "react";
import { API, http } from "../../../lib/http";

export const sendHeartbeat = (body: { sessionId: string | null; agentId: string; types?: string; tags?: string; categorys?: string }) =>
  http.post<{ seconds: number }>(`${API.runtime}/usage_heartbeat`, body, { silent: true });

/** The usage heartbeat every 10 s while the page is open. */
export function useHeartbeat(agentId: string, sessionId: string | null, enabled: boolean) {
  useEffect(() => {
    if (!enabled || !agentId) return;
    const beat = () => void sendHeartbeat({ sessionId, agentId, types: "", tags: "", categorys: "" }).catch(() => undefined);
    beat();
    const timer = window.setInterval(beat, HEARTBEAT_SECONDS * 1000);
    return () => window.clearInterval(timer);
  }, [agentId, sessionId, enabled]);
}
