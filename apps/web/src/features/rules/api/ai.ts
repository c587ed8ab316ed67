import type { RuleParam } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

export const aiExpression = (body: { projectId?: string; remark: string; params: RuleParam[] }) =>
  http.post<{ expression: string; showExpression: string; expressionCn: string; aiRemark: string }>(
    `${API.builder}/rule/ai/expression`,
    body,
  );
export const aiSql = (body: { projectId: string; question: string; name: string; tableNames: string[] }) =>
  http.post<{ sql: string }>(`${API.builder}/rule/ai/sql`, body);
