import type { uploadResult } from "@agentfair/contracts";
import type { z } from "zod";
import { API, http } from "../../../lib/http";

/** POST /wendao_api/wendao/knowledge/{id}/files (multipart `file`): stored, not yet segmented; a zip gives several. */
export const uploadKnowledgeFile = (baseId: string, file: File, folderId?: string) => {
  const form = new FormData();
  form.append("file", file);
  const query = folderId ? `?folderId=${encodeURIComponent(folderId)}` : "";
  return http.post<z.infer<typeof uploadResult>>(`${API.knowledge}/wendao/knowledge/${baseId}/files${query}`, form);
};
