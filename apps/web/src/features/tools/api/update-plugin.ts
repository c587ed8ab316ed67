import type { Plugin, PluginInput } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

/** PUT /aiagent_api/plugin/{id}: a changed definition is unpublished until it passes a new test. */
export const updatePlugin = (id: string, input: Partial<PluginInput>) => http.put<Plugin>(`${API.builder}/plugin/${id}`, input);
