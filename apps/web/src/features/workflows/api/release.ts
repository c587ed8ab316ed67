import { API, http } from "../../../lib/http";

/** POST /aiagent_api/workflow/{id}/release: the saved draft becomes the version agents call. */
export const releaseWorkflow = (id: string) => http.post<{ version: number }>(`${API.builder}/workflow/${id}/release`, {});
