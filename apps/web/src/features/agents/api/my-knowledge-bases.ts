import type { KnowledgeBase } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** The most bases one picker lists (the page call's limit). */
const PICKER_LIMIT = 100;

/** GET /wendao_api/wendao/knowledge/page with createdByMe: the caller's own bases, for the studio's knowledge picker. */
export const fetchMyKnowledgeBases = () =>
  http.get<{ list: KnowledgeBase[]; total: number }>(
    `${API.knowledge}/wendao/knowledge/page`,
    { page: 1, limit: PICKER_LIMIT, createdByMe: true },
    { silent: true },
  );

export const useMyKnowledgeBases = () =>
  useQuery({ queryKey: ["agents", "bindable", "knowledge"], queryFn: fetchMyKnowledgeBases, staleTime: 30_000 });
