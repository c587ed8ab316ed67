import { CHAT_INSIGHT_PAGE_SIZE, type ChatInsightItem } from "@agentfair/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** GET /agent/agent_runtime/chat_insight_list: the analyses of the caller's agent's conversations (owner only). */
export const useChatInsights = (agentId: string | undefined, page: number) =>
  useQuery({
    queryKey: ["insight", "chat", agentId, page],
    queryFn: () =>
      http.get<{ list: ChatInsightItem[]; total: number }>(`${API.runtime}/chat_insight_list`, {
        agent_id: agentId,
        page_number: page,
        page_size: CHAT_INSIGHT_PAGE_SIZE,
      }),
    enabled: !!agentId,
    placeholderData: keepPreviousData,
    // Analyses still queued or running are asked for again until they settle.
    refetchInterval: (q) => (q.state.data?.list.some((i) => i.status === "PENDING" || i.status === "RUNNING") ? 3000 : false),
  });
