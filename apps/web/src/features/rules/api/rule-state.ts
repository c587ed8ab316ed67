import type { Rule } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

export const setRuleState = (id: string, state: { useData?: 0 | 1; isPublic?: boolean }) =>
  http.post<Rule>(`${API.builder}/rule/state`, { id, ...state });
