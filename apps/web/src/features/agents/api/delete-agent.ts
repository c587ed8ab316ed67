import { API, http } from "../../../lib/http";

/** DELETE /api/agent/{id}. */
export const deleteAgent = (id: string) => http.delete<null>(`${API.agent}/api/agent/${id}`);
