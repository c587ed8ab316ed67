import type { retrievalRequest, retrievalResult } from "@agentfair/contracts";
import type { z } from "zod";
import { API, http } from "../../../lib/http";

/** POST …/{id}/retrieval: hybrid search, each hit with its keyword, vector and fused scores, best first. */
export const retrievalTest = (baseId: string, body: z.input<typeof retrievalRequest>) =>
  http.post<z.infer<typeof retrievalResult>>(`${API.knowledge}/wendao/knowledge/${baseId}/retrieval`, body);
