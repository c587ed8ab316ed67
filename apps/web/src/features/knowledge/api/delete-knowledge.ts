import { API, http } from "../../../lib/http";

/** DELETE /wendao_api/wendao/knowledge with a list of ids (doc 2 §7). */
export const deleteKnowledge = (ids: string[]) => http.delete<null>(`${API.knowledge}/wendao/knowledge`, ids);
