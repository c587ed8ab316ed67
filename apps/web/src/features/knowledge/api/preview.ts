import type { previewResult, SegmentOptionsInput } from "@agentfair/contracts";
import type { z } from "zod";
import { API, http } from "../../../lib/http";

export type PreviewSegment = z.infer<typeof previewResult>["segments"][number];

/** POST …/{id}/files/{fileId}/preview: exactly the segments a commit with the same options stores. */
export const previewSegments = (baseId: string, fileId: string, options: SegmentOptionsInput) =>
  http.post<z.infer<typeof previewResult>>(`${API.knowledge}/wendao/knowledge/${baseId}/files/${fileId}/preview`, options);
