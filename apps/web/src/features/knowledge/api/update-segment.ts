import type { Segment, segmentUpdateRequest } from "@agentfair/contracts";
import type { z } from "zod";
import { API, http } from "../../../lib/http";

/** PUT …/{id}/segments/{segmentId}: edit the content (marked edited, kept on re-parse) or enable/disable. */
export const updateSegment = (baseId: string, segmentId: string, body: z.input<typeof segmentUpdateRequest>) =>
  http.put<Segment>(`${API.knowledge}/wendao/knowledge/${baseId}/segments/${segmentId}`, body);
