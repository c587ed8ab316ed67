import {
  envelope,
  task,
  taskApiKey,
  taskCronPreview,
  taskInput,
  taskNotices,
  taskPage,
  taskPageRequest,
  taskRun,
  taskRobot,
  taskRunPage,
  taskTarget,
  taskTriggerRequest,
} from "@agentfair/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../platform/auth.ts";
import { ok } from "../../platform/http.ts";
import type { TasksService } from "./tasks.service.ts";

const tags = ["tasks"];
const idParams = z.object({ id: z.string().min(1).max(64) });
const bearer = (req: FastifyRequest) => req.headers.authorization?.match(/^bearer\s+(\S+)\s*$/i)?.[1];

/** Task schedule and task management under /aiagent_api/task (beyond the spec: doc 2 names the area only). */
export const tasksRoutes: FastifyPluginAsyncZod<{ tasks: TasksService }> = async (app, { tasks }) => {
  app.post(
    "/task/page",
    {
      schema: { tags, summary: "The caller's scheduled tasks, newest first", body: taskPageRequest, response: { 200: envelope(taskPage) } },
    },
    async (req) => ok(await tasks.page(requireUser(req), req.body)),
  );
  app.get(
    "/task/robots",
    {
      schema: {
        tags,
        summary: "Where a task may deliver by robot: the caller's chat robots",
        response: { 200: envelope(z.array(taskRobot)) },
      },
    },
    async (req) => ok(await tasks.robots(requireUser(req))),
  );
  app.get(
    "/task/targets",
    {
      schema: {
        tags,
        summary: "What a task may run: the caller's released agents and workflows",
        response: { 200: envelope(z.array(taskTarget)) },
      },
    },
    async (req) => ok(await tasks.targets(requireUser(req))),
  );
  app.get(
    "/task/cron-preview",
    {
      schema: {
        tags,
        summary: "The next five times of a cron expression (Asia/Shanghai)",
        querystring: z.object({ expr: z.string().max(120) }),
        response: { 200: envelope(taskCronPreview) },
      },
    },
    async (req) => {
      requireUser(req);
      return ok(tasks.preview(req.query.expr));
    },
  );
  app.get(
    "/task/notices",
    {
      schema: {
        tags,
        summary: "The caller's task notices (finished and failed runs), newest first",
        response: { 200: envelope(taskNotices) },
      },
    },
    async (req) => ok(await tasks.notices(requireUser(req))),
  );
  app.post(
    "/task/notices/read",
    { schema: { tags, summary: "Marks the caller's task notices read", response: { 200: envelope(z.null()) } } },
    async (req) => {
      await tasks.readNotices(requireUser(req));
      return ok(null);
    },
  );
  app.post(
    "/task",
    { schema: { tags, summary: "Creates a scheduled task", body: taskInput, response: { 200: envelope(task) } } },
    async (req) => ok(await tasks.create(requireUser(req), req.body)),
  );
  app.get("/task/:id", { schema: { tags, summary: "One task", params: idParams, response: { 200: envelope(task) } } }, async (req) =>
    ok(await tasks.get(requireUser(req), req.params.id)),
  );
  app.put(
    "/task/:id",
    {
      schema: {
        tags,
        summary: "Changes a task (its next time is counted again)",
        params: idParams,
        body: taskInput,
        response: { 200: envelope(task) },
      },
    },
    async (req) => ok(await tasks.update(requireUser(req), req.params.id, req.body)),
  );
  app.delete(
    "/task/:id",
    { schema: { tags, summary: "Deletes a task and its history", params: idParams, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await tasks.remove(requireUser(req), req.params.id);
      return ok(null);
    },
  );
  for (const [action, enabled] of [
    ["pause", false],
    ["resume", true],
  ] as const) {
    app.post(
      `/task/:id/${action}`,
      {
        schema: {
          tags,
          summary: enabled ? "Resumes a task from now" : "Pauses a task",
          params: idParams,
          response: { 200: envelope(task) },
        },
      },
      async (req) => ok(await tasks.setEnabled(requireUser(req), req.params.id, enabled)),
    );
  }
  app.post(
    "/task/:id/run",
    { schema: { tags, summary: "Runs a task now (a manual run in its history)", params: idParams, response: { 200: envelope(taskRun) } } },
    async (req) => ok(await tasks.runNow(requireUser(req), req.params.id)),
  );
  app.post(
    "/task/:id/api-key",
    {
      schema: {
        tags,
        summary: "A new apikey for an API-triggered task (shown this once; the old key stops working)",
        params: idParams,
        response: { 200: envelope(taskApiKey) },
      },
    },
    async (req) => ok(await tasks.regenerateApiKey(requireUser(req), req.params.id)),
  );
  // The API trigger: no user session, the task's apikey as a bearer token.
  app.post(
    "/task/:id/trigger",
    {
      schema: {
        tags,
        summary: "Starts a run of an API-triggered task (bearer: the task's apikey); the input is added to the prompt",
        params: idParams,
        body: taskTriggerRequest.nullish(),
        response: { 200: envelope(taskRun) },
      },
    },
    async (req) => ok(await tasks.trigger(req.params.id, bearer(req), req.body?.input ?? "")),
  );
  app.get(
    "/task/:id/trigger/:runId",
    {
      schema: {
        tags,
        summary: "A run started over the API, polled for its answer (bearer: the task's apikey)",
        params: idParams.extend({ runId: z.string().min(1).max(64) }),
        response: { 200: envelope(taskRun) },
      },
    },
    async (req) => ok(await tasks.triggeredRun(req.params.id, req.params.runId, bearer(req))),
  );
  app.get(
    "/task/:id/runs",
    {
      schema: {
        tags,
        summary: "A task's run history, newest first",
        params: idParams,
        querystring: z.object({ pageNo: z.coerce.number().int().min(1).default(1) }),
        response: { 200: envelope(taskRunPage) },
      },
    },
    async (req) => ok(await tasks.runs(requireUser(req), req.params.id, req.query.pageNo)),
  );
};
