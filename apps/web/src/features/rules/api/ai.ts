import type { RuleParam } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

// silent: the rule dialog shows the one message of a failure (rule-dialog.tsx).

export const aiExpression = (body: { projectId?: string; remark: string; params: RuleParam[] }) =>
  http.post<{ expression: string; showExpression: string; expressionCn: string; aiRemark: string }>(
    `${API.builder}/rule/ai/expression`,
    body,
    { silent: true },
  );
export const aiSql = (body: { projectId: string; question: string; name: string; tableNames: string[] }) =>
  http.post<{ sql: string }>(`${API.builder}/rule/ai/sql`, body, { silent: true });
