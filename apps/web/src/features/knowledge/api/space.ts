import type { KnowledgeSpaceUsage } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export const knowledgeSpaceKey = ["knowledge", "space"] as const;

/** GET /wendao_api/wendao/knowledge/space: the bytes the caller keeps in all their bases, and their plan's limit (null: none). */
export const useKnowledgeSpace = () =>
  useQuery({ queryKey: knowledgeSpaceKey, queryFn: () => http.get<KnowledgeSpaceUsage>(`${API.knowledge}/wendao/knowledge/space`) });
