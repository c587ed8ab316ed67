import { API, http } from "../../../lib/http";

/** DELETE …/{id}/files/{fileId}: the file with its segments and vectors. */
export const deleteKnowledgeFile = (baseId: string, fileId: string) =>
  http.delete<null>(`${API.knowledge}/wendao/knowledge/${baseId}/files/${fileId}`);
