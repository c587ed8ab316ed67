import type { AgentDraft, DraftResponse } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

/** PUT /aiagent_api/agent/draft/{id}. */
export const saveDraft = (id: string, draft: AgentDraft) => http.put<DraftResponse>(`${API.builder}/agent/draft/${id}`, draft);
