import type { knowledgePage } from "@agentfair/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { API, http } from "../../../lib/http";
import { getToken } from "../../../lib/storage";

export type KnowledgePageRequest = {
  name?: string;
  page: number;
  limit: number;
};
type KnowledgePage = z.infer<typeof knowledgePage>;

/** GET /wendao_api/wendao/knowledge/page (doc 2 §7): administrators see all bases, others their own. */
export const knowledgePageCall = (req: KnowledgePageRequest) => http.get<KnowledgePage>(`${API.knowledge}/wendao/knowledge/page`, req);

/** Logged-out visitors see an empty list without asking. */
export const useKnowledgePage = (req: KnowledgePageRequest) =>
  useQuery({
    queryKey: ["knowledge", "page", req],
    queryFn: () => (getToken() ? knowledgePageCall(req) : Promise.resolve({ list: [], total: 0 })),
    placeholderData: keepPreviousData,
  });
