import {
  envelope,
  rule,
  ruleAiExpressionRequest,
  ruleAiExpressionResult,
  ruleAiSqlRequest,
  ruleAiSqlResult,
  ruleDirInput,
  ruleDirUpdate,
  ruleForm,
  ruleFunction,
  ruleProjectInput,
  ruleProjectUpdate,
  ruleSaveRequest,
  ruleStateRequest,
  ruleTestRequest,
  ruleTestResult,
  ruleTreeProject,
} from "@agentfair/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../platform/auth.ts";
import { badRequest } from "../../platform/errors.ts";
import { ok } from "../../platform/http.ts";
import { requestLanguage, translate } from "../../platform/messages.ts";
import type { RulesService } from "./rules.service.ts";

const tags = ["rules"];
const idParams = z.object({ id: z.string().min(1).max(64) });
const idResult = envelope(z.object({ id: z.string() }));

/** Reads the editor's encoded form (encodeURIComponent of the text and of the params' JSON). */
function decodeTest(body: z.infer<typeof ruleTestRequest>) {
  let expression = body.expression;
  if (expression === undefined && body.exp !== undefined) {
    try {
      expression = decodeURIComponent(body.exp);
    } catch {
      throw badRequest("ruleParamsEncoding");
    }
  }
  let params: Record<string, unknown> = {};
  if (typeof body.params === "string") {
    try {
      const parsed = JSON.parse(decodeURIComponent(body.params));
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
      params = parsed;
    } catch {
      throw badRequest("ruleParamsEncoding");
    }
  } else if (body.params) params = body.params;
  return { expression: expression ?? "", params };
}

/** The rule engine library under /aiagent_api/rule (doc 2 §7 "Rule calls"; the paths are ours). */
export const rulesRoutes: FastifyPluginAsyncZod<{ rules: RulesService }> = async (app, { rules }) => {
  app.get(
    "/rule/tree",
    {
      schema: {
        tags,
        summary: "The ruleTree: the caller's projects with ruleDirs with rules, plus the tenant's public rules; search by name or key",
        querystring: z.object({ search: z.string().max(100).optional() }),
        response: { 200: envelope(z.array(ruleTreeProject)) },
      },
    },
    async (req) => ok(await rules.tree(requireUser(req), req.query.search)),
  );
  app.get(
    "/rule/functions",
    { schema: { tags, summary: "The rule function list, from the evaluator itself", response: { 200: envelope(z.array(ruleFunction)) } } },
    async (req) => ok(rules.functions(requestLanguage(req.headers))),
  );
  app.get(
    "/rule/forms",
    {
      schema: {
        tags,
        summary: "The form list by projectId: the data tables a rule may read",
        querystring: z.object({ projectId: z.string().max(64).optional() }),
        response: { 200: envelope(z.array(ruleForm)) },
      },
    },
    async (req) => ok(await rules.forms(requireUser(req), req.query.projectId)),
  );
  app.post(
    "/rule/test",
    {
      schema: {
        tags,
        summary:
          "Evaluate an expression: {expression, params: {name: value}} or the encoded {exp, params} (encodeURIComponent of the expression and of the params' JSON); data {value, trace}",
        body: ruleTestRequest,
        response: { 200: envelope(ruleTestResult) },
      },
    },
    async (req) => {
      const caller = requireUser(req);
      const { expression, params } = decodeTest(req.body);
      const result = await rules.evaluate(caller, expression, params, req.body.ruleParams ?? []);
      return ok(result, translate("ruleTested", requestLanguage(req.headers)));
    },
  );
  app.post(
    "/rule/save",
    { schema: { tags, summary: "Save a rule (no id: add; with id: edit)", body: ruleSaveRequest, response: { 200: envelope(rule) } } },
    async (req) => ok(await rules.save(requireUser(req), req.body), translate("ruleSaved", requestLanguage(req.headers))),
  );
  app.post(
    "/rule/state",
    {
      schema: {
        tags,
        summary: "Enable or disable (useData 1 or 0), make public or private",
        body: ruleStateRequest,
        response: { 200: envelope(rule) },
      },
    },
    async (req) => ok(await rules.setState(requireUser(req), req.body.id, req.body), translate("ruleSaved", requestLanguage(req.headers))),
  );
  app.post(
    "/rule/ai/expression",
    {
      schema: {
        tags,
        summary:
          "AI expression generation from the remark with the configured model; the expression is parsed and checked before it is offered",
        body: ruleAiExpressionRequest,
        response: { 200: envelope(ruleAiExpressionResult) },
      },
    },
    async (req) => ok(await rules.aiExpression(requireUser(req), req.body)),
  );
  app.post(
    "/rule/ai/sql",
    {
      schema: {
        tags,
        summary:
          "AI SQL generation for an SQL field (projectId, question, name, tableNames); the SQL passes the read-only guard before it is offered",
        body: ruleAiSqlRequest,
        response: { 200: envelope(ruleAiSqlResult) },
      },
    },
    async (req) => ok(await rules.aiSql(requireUser(req), req.body)),
  );
  app.post(
    "/rule/project",
    { schema: { tags, summary: "Create a rule project", body: ruleProjectInput, response: { 200: idResult } } },
    async (req) => ok(await rules.createProject(requireUser(req), req.body), translate("ruleSaved", requestLanguage(req.headers))),
  );
  app.put(
    "/rule/project",
    {
      schema: {
        tags,
        summary: "Change a rule project (name, field config input1..N)",
        body: ruleProjectUpdate,
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await rules.updateProject(requireUser(req), req.body);
      return ok(null, translate("ruleSaved", requestLanguage(req.headers)));
    },
  );
  app.delete(
    "/rule/project/:id",
    {
      schema: { tags, summary: "Delete a project with its directories and rules", params: idParams, response: { 200: envelope(z.null()) } },
    },
    async (req) => {
      await rules.deleteProject(requireUser(req), req.params.id);
      return ok(null, translate("deleteSuccess", requestLanguage(req.headers)));
    },
  );
  app.post(
    "/rule/dir",
    { schema: { tags, summary: "Create a rule directory in a project", body: ruleDirInput, response: { 200: idResult } } },
    async (req) => ok(await rules.createDir(requireUser(req), req.body), translate("ruleSaved", requestLanguage(req.headers))),
  );
  app.put(
    "/rule/dir",
    { schema: { tags, summary: "Rename a rule directory", body: ruleDirUpdate, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await rules.renameDir(requireUser(req), req.body.id, req.body.name);
      return ok(null, translate("ruleSaved", requestLanguage(req.headers)));
    },
  );
  app.delete(
    "/rule/dir/:id",
    { schema: { tags, summary: "Delete a rule directory with its rules", params: idParams, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await rules.deleteDir(requireUser(req), req.params.id);
      return ok(null, translate("deleteSuccess", requestLanguage(req.headers)));
    },
  );
  app.get(
    "/rule/:id",
    { schema: { tags, summary: "Get a rule by id", params: idParams, response: { 200: envelope(rule) } } },
    async (req) => ok(await rules.get(requireUser(req), req.params.id)),
  );
  app.delete(
    "/rule/:id",
    { schema: { tags, summary: "Delete a rule", params: idParams, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await rules.remove(requireUser(req), req.params.id);
      return ok(null, translate("deleteSuccess", requestLanguage(req.headers)));
    },
  );
};
