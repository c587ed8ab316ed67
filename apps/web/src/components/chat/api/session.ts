import type { SessionDetail } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export const sessionKey = (id: string) => ["chat", "session", id] as const;
export const fetchSession = (id: string) => http.get<SessionDetail>(`${API.runtime}/session/${encodeURIComponent(id)}`);
export const useSession = (id: string | null) =>
  useQuery({ queryKey: sessionKey(id ?? ""), queryFn: () => fetchSession(id!), enabled: !!id, staleTime: Number.POSITIVE_INFINITY });
