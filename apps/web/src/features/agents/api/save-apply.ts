import { API, http } from "../../../lib/http";

/** POST /api/agentApply/saveInfo: submit the released agent for listing ('审核中'). */
export const saveApply = (agentId: string) => http.post<{ status: "PENDING" }>(`${API.agent}/api/agentApply/saveInfo`, { agentId });
