import { API, http } from "../../../lib/http";

/** POST /aiagent_api/agent/quick/add: a new, Unreleased agent. */
export const quickAdd = (body: { agentName?: string; agentDescription?: string; agentIcon?: string; agentIconBackground?: string } = {}) =>
  http.post<{ agentId: string }>(`${API.builder}/agent/quick/add`, body);
