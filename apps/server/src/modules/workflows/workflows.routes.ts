import {
  envelope,
  humanInputAnswer,
  releaseResult,
  runPage,
  runPageRequest,
  runRequest,
  runStarted,
  workflow,
  workflowCallableNameRequest,
  workflowGraph,
  workflowInput,
  workflowPage,
  workflowPageRequest,
  workflowRun,
} from "@agentfair/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../platform/auth.ts";
import { ok } from "../../platform/http.ts";
import { requestLanguage, translate } from "../../platform/messages.ts";
import type { WorkflowsService } from "./workflows.service.ts";

const tags = ["workflows"];
const idParams = z.object({ id: z.string().min(1).max(64) });
const runParams = z.object({ runId: z.string().min(1).max(64) });

/** Workflows under /aiagent_api (doc 2 §7: create and list; the rest is this platform's own). */
export const workflowsRoutes: FastifyPluginAsyncZod<{ workflows: WorkflowsService }> = async (app, { workflows }) => {
  app.post(
    "/workflow",
    {
      schema: {
        tags,
        summary: "Create a workflow (also a tool of pluginType WORKFLOW); its draft starts as start → end",
        body: workflowInput,
        response: { 200: envelope(z.object({ id: z.string() })) },
      },
    },
    async (req) => ok({ id: await workflows.create(requireUser(req), req.body) }, translate("pluginCreated", requestLanguage(req.headers))),
  );
  app.get(
    "/workflow/list",
    {
      schema: {
        tags,
        summary: "List the caller's workflows (newest change first; page size 20)",
        querystring: workflowPageRequest,
        response: { 200: envelope(workflowPage) },
      },
    },
    async (req) => ok(await workflows.page(requireUser(req), req.query)),
  );
  app.post(
    "/workflow/callable-name",
    {
      schema: {
        tags,
        summary: "Generate a callable name from the workflow name and description (data is the name)",
        body: workflowCallableNameRequest,
        response: { 200: envelope(z.string()) },
      },
    },
    async (req) => ok(await workflows.callableName(requireUser(req), req.body.workflowName, req.body.workflowDescription)),
  );
  app.get(
    "/workflow/runs/:runId",
    { schema: { tags, summary: "A run with each node's trace", params: runParams, response: { 200: envelope(workflowRun) } } },
    async (req) => ok(await workflows.getRun(requireUser(req), req.params.runId)),
  );
  app.post(
    "/workflow/runs/:runId/resume",
    {
      schema: {
        tags,
        summary: "Resume a FAILED run from its failed node (finished nodes are not run again)",
        params: runParams,
        response: { 200: envelope(runStarted) },
      },
    },
    async (req) => ok({ runId: await workflows.resume(requireUser(req), req.params.runId) }),
  );
  app.post(
    "/workflow/runs/:runId/human-input",
    {
      schema: {
        tags,
        summary: "Answer the human-input node a PAUSED run waits for; the run continues",
        params: runParams,
        body: humanInputAnswer,
        response: { 200: envelope(runStarted) },
      },
    },
    async (req) => ok({ runId: await workflows.answer(requireUser(req), req.params.runId, req.body) }),
  );
  app.get(
    "/workflow/runs/:runId/events",
    {
      schema: {
        tags,
        summary:
          "Server-sent events of a run: a snapshot, then node and run changes; ends when the run finishes or pauses. Closing it does not stop the run",
        params: runParams,
      },
    },
    async (req, reply) => {
      const caller = requireUser(req);
      const first = await workflows.getRun(caller, req.params.runId);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        connection: "keep-alive",
        "x-accel-buffering": "no",
      });
      const abort = new AbortController();
      req.raw.on("close", () => abort.abort());
      try {
        for await (const event of workflows.events(first, abort.signal)) {
          res.write(`data: ${JSON.stringify(event)}\n\n`);
        }
      } catch (error) {
        req.log.warn({ err: error }, "workflow events ended");
      }
      res.end();
    },
  );
  app.get(
    "/workflow/:id",
    {
      schema: { tags, summary: "A workflow with its draft and released graphs", params: idParams, response: { 200: envelope(workflow) } },
    },
    async (req) => ok(await workflows.get(requireUser(req), req.params.id)),
  );
  app.put(
    "/workflow/:id",
    {
      schema: {
        tags,
        summary: "Update the workflow's create fields",
        params: idParams,
        body: workflowInput,
        response: { 200: envelope(workflow) },
      },
    },
    async (req) => ok(await workflows.update(requireUser(req), req.params.id, req.body)),
  );
  app.put(
    "/workflow/:id/graph",
    {
      schema: {
        tags,
        summary:
          "Validate and save the draft graph: one start node, an end reachable, no dangling edges, unique typed variables, no cycle (loops use loop nodes)",
        params: idParams,
        body: workflowGraph,
        response: { 200: envelope(workflow) },
      },
    },
    async (req) => ok(await workflows.saveGraph(requireUser(req), req.params.id, req.body)),
  );
  app.post(
    "/workflow/:id/release",
    {
      schema: {
        tags,
        summary: "Release the draft as a new version (agents and callers run the latest released version)",
        params: idParams,
        response: { 200: envelope(releaseResult) },
      },
    },
    async (req) => ok(await workflows.release(requireUser(req), req.params.id)),
  );
  app.delete(
    "/workflow/:id",
    { schema: { tags, summary: "Delete a workflow with its versions and runs", params: idParams, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await workflows.remove(requireUser(req), req.params.id);
      return ok(null, translate("pluginDeleted", requestLanguage(req.headers)));
    },
  );
  app.post(
    "/workflow/:id/run",
    {
      schema: {
        tags,
        summary: "Start a run (a background job: it goes on when the caller disconnects and survives a restart)",
        params: idParams,
        body: runRequest,
        response: { 200: envelope(runStarted) },
      },
    },
    async (req) => ok({ runId: await workflows.start(requireUser(req), req.params.id, req.body) }),
  );
  app.get(
    "/workflow/:id/runs",
    {
      schema: {
        tags,
        summary: "Run history of a workflow (newest first; page size 20)",
        params: idParams,
        querystring: runPageRequest,
        response: { 200: envelope(runPage) },
      },
    },
    async (req) => ok(await workflows.runs(requireUser(req), req.params.id, req.query)),
  );
};
