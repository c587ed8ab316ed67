import type { KnowledgeFile, knowledgeContents } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { API, http } from "../../../lib/http";

type Contents = z.infer<typeof knowledgeContents>;

/** A committed file the worker has not finished yet: its state and progress still move. */
export const isProcessing = (f: KnowledgeFile) => f.committed && f.state !== "DONE" && f.state !== "FAILED";

/** How often the list asks again while a file is processing (ms). */
const POLL_MS = 1500;

/**
 * GET /wendao_api/wendao/knowledge/{id}/contents: folders and files with state and progress,
 * polled while any file is processing so the progress bars move.
 */
export const useKnowledgeContents = (id: string) =>
  useQuery({
    queryKey: ["knowledge", "contents", id],
    queryFn: () => http.get<Contents>(`${API.knowledge}/wendao/knowledge/${id}/contents`),
    enabled: !!id,
    refetchInterval: (q) => (q.state.data?.files.some(isProcessing) ? POLL_MS : false),
  });
