import type { Segment } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

/** POST …/{id}/segments: a segment added by hand (marked edited, kept on re-parse). */
export const addSegment = (baseId: string, body: { content: string; fileId?: string }) =>
  http.post<Segment>(`${API.knowledge}/wendao/knowledge/${baseId}/segments`, body);

/** DELETE …/{id}/segments/{segmentId}: a segment, with its vectors; a Q&A pair too. */
export const deleteSegment = (baseId: string, segmentId: string) =>
  http.delete<null>(`${API.knowledge}/wendao/knowledge/${baseId}/segments/${segmentId}`);
