import type { KnowledgeFileState, SegmentOptionsInput } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

/** POST …/{id}/files/{fileId}/commit: segments, indexes and embeds the file in a background job. */
export const commitFile = (baseId: string, fileId: string, options: SegmentOptionsInput) =>
  http.post<{ fileId: string; state: KnowledgeFileState; progress: number }>(
    `${API.knowledge}/wendao/knowledge/${baseId}/files/${fileId}/commit`,
    options,
  );
