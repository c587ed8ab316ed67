import type { DraftResponse } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export const draftKey = (id: string | null) => ["agents", "draft", id] as const;

/** GET /aiagent_api/agent/draft/{id}. */
export const fetchDraft = (id: string) => http.get<DraftResponse>(`${API.builder}/agent/draft/${id}`);
export const useDraft = (id: string | null) =>
  useQuery({ queryKey: draftKey(id), queryFn: () => fetchDraft(id!), enabled: !!id, retry: false });
