import type { KnowledgeBase } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** GET /wendao_api/wendao/knowledge/{id}: one base (another user's is not found). */
export const useKnowledgeBase = (id: string) =>
  useQuery({
    queryKey: ["knowledge", "base", id],
    queryFn: () => http.get<KnowledgeBase>(`${API.knowledge}/wendao/knowledge/${id}`, undefined, { silent: true }),
    enabled: !!id,
    retry: false,
  });
