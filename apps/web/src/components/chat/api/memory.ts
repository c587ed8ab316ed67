import type { MemoryItem } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** Beyond the spec: the agent's memory variables with the caller's values (GET /memory). */
export const memoryKey = (agentId: string, release: boolean, sessionId: string | null) =>
  ["chat", "memory", agentId, sessionId ?? "", release] as const;
export const useMemory = (agentId: string, release: boolean, sessionId: string | null) =>
  useQuery({
    queryKey: memoryKey(agentId, release, sessionId),
    queryFn: () =>
      http.get<{ list: MemoryItem[] }>(`${API.runtime}/memory`, {
        schema_id: agentId,
        release: String(release),
        ...(sessionId ? { session_id: sessionId } : {}),
      }),
  });

interface Target {
  schema_id: string;
  release: boolean;
  session_id: string | null;
}
export const setMemory = (body: Target & { name: string; value: string }) =>
  http.post<{ list: MemoryItem[] }>(`${API.runtime}/memory`, body);
/** Without a name: every variable back to its default. */
export const resetMemory = (body: Target & { name?: string }) => http.post<{ list: MemoryItem[] }>(`${API.runtime}/memory/reset`, body);
