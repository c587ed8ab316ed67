import { API, http } from "../../../lib/http";

/** POST /api/agent/quick/copy-from-launch/{id} (or the share variant). */
export const copyAgent = (id: string, opts: { share?: boolean } = {}) =>
  http.post<{ agentId: string }>(`${API.agent}/api/agent/quick/${opts.share ? "copy-from-launch_share" : "copy-from-launch"}/${id}`);
