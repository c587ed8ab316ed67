import type { SessionDetail } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { API, http } from "../../../lib/http";
import { fromServer } from "../use-chat";

export const sessionKey = (id: string) => ["chat", "session", id] as const;
export const fetchSession = (id: string) => http.get<SessionDetail>(`${API.runtime}/session/${encodeURIComponent(id)}`);
export const useSession = (id: string | null) =>
  useQuery({ queryKey: sessionKey(id ?? ""), queryFn: () => fetchSession(id!), enabled: !!id, staleTime: Number.POSITIVE_INFINITY });

/**
 * A stored session as a chat panel shows it: its messages (undefined while they load) and the reply the
 * server is still writing (a reopened or reloaded page follows it).
 */
export function useStoredSession(id: string | null) {
  const session = useSession(id);
  const history = useMemo(() => (id ? session.data?.messages.map((m) => fromServer(m, id)) : undefined), [id, session.data]);
  return { session, history, replying: id ? session.data?.replying?.uuid : undefined };
}
