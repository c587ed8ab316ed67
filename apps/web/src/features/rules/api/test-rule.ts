import type { RuleParam } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

export interface RuleTestResult {
  value: unknown;
  trace: { expression: string; value: unknown }[];
}
/** Test (doc 2 §7): the expression and the params' JSON, each encoded with encodeURIComponent. */
export const testRule = (expression: string, params: Record<string, unknown>, ruleParams: RuleParam[]) =>
  http.post<RuleTestResult>(
    `${API.builder}/rule/test`,
    { exp: encodeURIComponent(expression), params: encodeURIComponent(JSON.stringify(params)), ruleParams },
    { silent: true },
  );
