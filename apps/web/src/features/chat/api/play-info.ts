import { type LiveRecord, PLAY_INFO_POLL_MS, type RpaTicket } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** The session's live record (a robot task's live video, remote desktop or page), polled every 3 s (doc 2 §7). */
export const usePlayInfo = (sessionId: string | null) =>
  useQuery({
    queryKey: ["chat", "playInfo", sessionId],
    queryFn: () => http.get<LiveRecord | null>(`${API.runtime}/rpa/play_info`, { session_id: sessionId }, { silent: true }),
    enabled: !!sessionId,
    refetchInterval: PLAY_INFO_POLL_MS,
  });

/** A new single-use bridge address for each remote-desktop connection. */
export const remoteTicket = (ticketPath: string) =>
  http.post<RpaTicket>(ticketPath, undefined, { silent: true, keepOnNavigate: true }).then((t) => t.url);
