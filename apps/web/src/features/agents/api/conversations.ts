import type { ConversationItem, ConversationMessage, TuningRecord } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import i18n from "../../../i18n";
import { API, http } from "../../../lib/http";
import { getToken } from "../../../lib/storage";

export const conversationsKey = (agentId: string) => ["agents", "conversations", agentId] as const;
const A = (agentId: string) => `${API.builder}/agent/${agentId}`;

/** GET /aiagent_api/agent/{id}/conversations: every session of my agent in the range. */
export const useConversations = (agentId: string | null, days: number, pageNo: number) =>
  useQuery({
    queryKey: [...conversationsKey(agentId ?? ""), "page", days, pageNo],
    queryFn: () => http.get<{ list: ConversationItem[]; total: number }>(`${A(agentId!)}/conversations`, { days, pageNo }),
    enabled: !!agentId,
  });

/** GET /aiagent_api/agent/{id}/conversations/{sessionId}: one session's messages. */
export const useConversation = (agentId: string, sessionId: string | null) =>
  useQuery({
    queryKey: [...conversationsKey(agentId), "session", sessionId],
    queryFn: () => http.get<ConversationItem & { list: ConversationMessage[] }>(`${A(agentId)}/conversations/${sessionId}`),
    enabled: !!sessionId,
  });

/** GET /aiagent_api/agent/{id}/tuning: my agent's tuning records. */
export const useTuning = (agentId: string | null) =>
  useQuery({
    queryKey: [...conversationsKey(agentId ?? ""), "tuning"],
    queryFn: () => http.get<TuningRecord[]>(`${A(agentId!)}/tuning`),
    enabled: !!agentId,
  });

export const saveTuning = (agentId: string, input: { messageId: string; note: string; correctedAnswer: string }) =>
  http.post<TuningRecord>(`${A(agentId)}/tuning`, input);
export const deleteTuning = (agentId: string, id: string) => http.delete<null>(`${A(agentId)}/tuning/${id}`);
export const pushTuning = (agentId: string, id: string, knowledgeId: string) =>
  http.post<TuningRecord>(`${A(agentId)}/tuning/${id}/knowledge`, { knowledgeId });

/** GET /aiagent_api/agent/{id}/conversations/export: downloads the range as CSV or xlsx. */
export async function exportConversations(agentId: string, days: number, format: "csv" | "xlsx") {
  const res = await fetch(`${A(agentId)}/conversations/export?days=${days}&format=${format}`, {
    headers: { authorization: `Bearer ${getToken() ?? ""}`, lang: i18n.language === "en" ? "en" : "zh" },
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { msg?: string } | null;
    throw new Error(body?.msg ?? String(res.status));
  }
  const a = document.createElement("a");
  a.href = URL.createObjectURL(await res.blob());
  a.download = `conversations-${days}d.${format}`;
  a.click();
  URL.revokeObjectURL(a.href);
}
