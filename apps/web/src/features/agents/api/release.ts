import { API, http } from "../../../lib/http";

/** POST /aiagent_api/agent/release/{id}: a new immutable version (after a successful debug). */
export const releaseAgent = (id: string, notes: string) =>
  http.post<{ versionNo: number }>(`${API.builder}/agent/release/${id}`, { notes });
