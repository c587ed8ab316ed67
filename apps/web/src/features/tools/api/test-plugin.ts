import type { PluginTestResult } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

/** POST /aiagent_api/plugin/{id}/test: a passed test of the current definition unlocks publishing. */
export const testPlugin = (id: string, params: Record<string, unknown>) =>
  http.post<PluginTestResult>(`${API.builder}/plugin/${id}/test`, { params });
