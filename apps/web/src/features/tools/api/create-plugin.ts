import type { PluginInput } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

/** POST /aiagent_api/plugin. */
export const createPlugin = (input: Partial<PluginInput>) => http.post<{ id: string }>(`${API.builder}/plugin`, input);
