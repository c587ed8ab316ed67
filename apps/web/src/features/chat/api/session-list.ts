import { SESSION_PAGE_SIZE, type SessionItem } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export const sessionListKey = (agentId: string) => ["chat", "sessions", agentId] as const;
export const fetchSessionList = (agentId: string, search?: string) =>
  http.get<{ list: SessionItem[]; total: number }>(`${API.runtime}/session_list`, {
    page_number: 1,
    page_size: SESSION_PAGE_SIZE,
    schema_id: agentId,
    search: search || undefined,
  });
export const useSessionList = (agentId: string, enabled = true) =>
  useQuery({ queryKey: sessionListKey(agentId), queryFn: () => fetchSessionList(agentId), enabled: !!agentId && enabled });
