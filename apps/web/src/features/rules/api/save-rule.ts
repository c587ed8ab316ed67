import type { Rule, RuleSaveRequest } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

/** Save (doc 2 §7): without an id a new rule, with one an edit. */
export const saveRule = (body: RuleSaveRequest) => http.post<Rule>(`${API.builder}/rule/save`, body, { silent: true });
