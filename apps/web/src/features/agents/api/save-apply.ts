import { API, http } from "../../../lib/http";

/**
 * POST /api/agentApply/saveInfo: submit the released agent, its card and price for listing ('审核中').
 * `copyable`: the owner lets hirers copy it (a copy includes the persona).
 */
export const saveApply = (agentId: string, copyable: boolean) =>
  http.post<{ status: "PENDING" }>(`${API.agent}/api/agentApply/saveInfo`, { agentId, copyable });
