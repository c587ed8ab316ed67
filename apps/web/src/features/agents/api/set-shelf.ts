import type { AgentCard } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

/** PUT /api/agent/launchVersionDisabled/{id}: take off (or, administrators, put back on) the shelf. */
export const setShelf = (id: string, disabled: boolean) =>
  http.put<AgentCard>(`${API.agent}/api/agent/launchVersionDisabled/${id}`, { disabled });
