import type { AgentCard } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

export type IntroBody = { agentName: string; agentDescription?: string; agentIcon?: string; agentIconBackground?: string; price?: number };

/** PUT /api/agent/intro/{id}: rename and edit the card's info. */
export const updateIntro = (id: string, body: IntroBody) => http.put<AgentCard>(`${API.agent}/api/agent/intro/${id}`, body);
