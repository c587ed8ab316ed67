import { API, http } from "../../../lib/http";

/** POST /api/agentApply/approve/{id} and /reject/{id} (administrators). */
export const approveApply = (id: string) => http.post<null>(`${API.agent}/api/agentApply/approve/${id}`);
export const rejectApply = (id: string, reason: string) => http.post<null>(`${API.agent}/api/agentApply/reject/${id}`, { reason });
