import { API, http } from "../../../lib/http";

/** GET /api/agent/was-copied/{id}. */
export const wasCopied = (id: string) => http.get<{ copied: boolean }>(`${API.agent}/api/agent/was-copied/${id}`);
