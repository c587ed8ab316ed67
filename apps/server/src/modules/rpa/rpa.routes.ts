import { Readable } from "node:stream";
import {
  envelope,
  playInfoAnswer,
  playInfoQuery,
  liveRecord,
  rpaLiveList,
  rpaLiveListQuery,
  rpaRobot,
  rpaRobotInput,
  rpaTaskInput,
  rpaTicket,
} from "@agentfair/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../platform/auth.ts";
import { ok } from "../../platform/http.ts";
import { createSafeFetch } from "../../platform/net.ts";
import type { RpaService } from "./rpa.service.ts";

const tags = ["rpa"];
const idParams = z.object({ id: z.string().min(1).max(64) });

/** /agent_api/api/rpa: robot management (beyond the spec), the live list, tickets and streams. */
export const rpaRoutes: FastifyPluginAsyncZod<{ rpa: RpaService; allowHosts: string[] }> = async (app, { rpa, allowHosts }) => {
  app.get(
    "/api/rpa/robots",
    {
      schema: { tags, summary: "Robots the caller manages (passwords are never returned)", response: { 200: envelope(z.array(rpaRobot)) } },
    },
    async (req) => ok(await rpa.list(requireUser(req))),
  );
  app.post(
    "/api/rpa/robots",
    { schema: { tags, summary: "Add a robot", body: rpaRobotInput, response: { 200: envelope(rpaRobot) } } },
    async (req) => ok(await rpa.create(requireUser(req), req.body)),
  );
  app.put(
    "/api/rpa/robots/:id",
    {
      schema: {
        tags,
        summary: "Edit a robot; an empty vncPassword keeps the stored one",
        params: idParams,
        body: rpaRobotInput,
        response: { 200: envelope(rpaRobot) },
      },
    },
    async (req) => ok(await rpa.update(requireUser(req), req.params.id, req.body)),
  );
  app.delete(
    "/api/rpa/robots/:id",
    { schema: { tags, summary: "Delete a robot", params: idParams, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await rpa.remove(requireUser(req), req.params.id);
      return ok(null);
    },
  );
  app.post(
    "/api/rpa/robots/:id/ticket",
    {
      schema: {
        tags,
        summary: "A single-use ticket (valid seconds) to watch the robot's screen through the VNC bridge",
        params: idParams,
        response: { 200: envelope(rpaTicket) },
      },
    },
    async (req) => ok(await rpa.ticket(requireUser(req), req.params.id)),
  );
  app.get(
    "/api/rpa/live/list",
    {
      schema: {
        tags,
        summary: "RPA live list (doc 2 §7): pageNo, pageSize 15, livePolicy not 1, sorted by playInfo",
        querystring: rpaLiveListQuery,
        response: { 200: envelope(rpaLiveList) },
      },
    },
    async (req) => ok(await rpa.liveList(requireUser(req), req.query.pageNo, req.query.pageSize)),
  );
  app.post(
    "/api/rpa/tasks",
    {
      schema: {
        tags,
        summary: "Start a robot task for a chat session and attach its panel",
        body: rpaTaskInput,
        response: { 200: envelope(liveRecord) },
      },
    },
    async (req) => ok(await rpa.startTask(requireUser(req), req.body)),
  );
  // The signed address is the permission: a <video> fetch carries no bearer header.
  app.get(
    "/api/rpa/stream/:file",
    {
      schema: {
        tags,
        summary: "A robot's FLV stream through a short-lived signed address",
        params: z.object({ file: z.string().regex(/^[A-Za-z0-9-]{1,64}\.flv$/) }),
        querystring: z.object({ exp: z.coerce.number().int(), sig: z.string().max(100) }),
      },
    },
    async (req, reply) => {
      const robot = await rpa.streamTarget(req.params.file.replace(/\.flv$/, ""), req.query.exp, req.query.sig);
      if (!robot) return reply.status(404).send();
      const abort = new AbortController();
      req.raw.on("close", () => abort.abort());
      const fetcher = createSafeFetch({ allowPrivate: robot.allowPrivate, allowHosts, maxRedirects: 2 });
      let upstream: Response;
      try {
        upstream = await fetcher(robot.streamUrl, { signal: abort.signal });
      } catch {
        return reply.status(502).send();
      }
      if (!upstream.ok || !upstream.body) {
        abort.abort();
        return reply.status(502).send();
      }
      const body = Readable.fromWeb(upstream.body as import("node:stream/web").ReadableStream<Uint8Array>);
      body.on("error", () => {});
      return reply.header("content-type", "video/x-flv").header("cache-control", "no-store").send(body);
    },
  );
};

/** /agent/agent_runtime: the session's live record the chat polls every 3 s (doc 2 §7). */
export const rpaRuntimeRoutes: FastifyPluginAsyncZod<{ rpa: RpaService }> = async (app, { rpa }) => {
  app.get(
    "/rpa/play_info",
    {
      schema: {
        tags,
        summary: "Live or RPA playInfo of a chat session (null without a robot task)",
        querystring: playInfoQuery,
        response: { 200: envelope(playInfoAnswer) },
      },
    },
    async (req) => ok(await rpa.playInfo(requireUser(req), req.query.session_id)),
  );
};
