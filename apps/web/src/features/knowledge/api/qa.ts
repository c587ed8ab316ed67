import type { Segment, segmentPage } from "@agentfair/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { API, http } from "../../../lib/http";

export const QA_PAGE_SIZE = 10;
const url = (baseId: string) => `${API.knowledge}/wendao/knowledge/${baseId}`;

/** GET …/{id}/segments?qa=true: the base's Q&A pairs (added, imported or from a Q&A file). */
export const useQaPairs = (baseId: string, page: number) =>
  useQuery({
    queryKey: ["knowledge", "segments", baseId, "qa", page],
    queryFn: () => http.get<z.infer<typeof segmentPage>>(`${url(baseId)}/segments`, { qa: true, page, limit: QA_PAGE_SIZE }),
    enabled: !!baseId,
    placeholderData: keepPreviousData,
  });

/** POST …/{id}/qa: a pair (question and answer not empty). */
export const addQaPair = (baseId: string, body: { question: string; answer: string }) => http.post<Segment>(`${url(baseId)}/qa`, body);

/** PUT …/{id}/qa/{segmentId}: edit a pair. */
export const updateQaPair = (baseId: string, id: string, body: { question: string; answer: string }) =>
  http.put<Segment>(`${url(baseId)}/qa/${id}`, body);

/** POST …/{id}/qa/import (multipart `file`): pairs from a two-column CSV. */
export const importQaCsv = (baseId: string, file: File) => {
  const form = new FormData();
  form.append("file", file);
  return http.post<{ imported: number }>(`${url(baseId)}/qa/import`, form);
};
