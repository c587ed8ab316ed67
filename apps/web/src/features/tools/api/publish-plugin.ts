import type { Plugin } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

/** POST /aiagent_api/plugin/{id}/publish: refused until a passed test of the current definition. */
export const publishPlugin = (id: string) => http.post<Plugin>(`${API.builder}/plugin/${id}/publish`);
