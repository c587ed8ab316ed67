import { API, http } from "../../../lib/http";

/** DELETE /aiagent_api/plugin/{id}. */
export const deletePlugin = (id: string) => http.delete<null>(`${API.builder}/plugin/${id}`);
