import { chatRobot, envelope, robotBindCode, robotEnabledInput, robotInput } from "@agentfair/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../platform/auth.ts";
import { ok } from "../../platform/http.ts";
import type { RobotsService } from "./robots.service.ts";

const tags = ["robots"];
const idParams = z.object({ id: z.string().min(1).max(64) });

/** /aiagent_api/robots: Robot management (dictionary area; paths beyond the spec). */
export const robotsRoutes: FastifyPluginAsyncZod<{ robots: RobotsService }> = async (app, { robots }) => {
  app.get(
    "/robots",
    { schema: { tags, summary: "The caller's chat robots (secrets are never returned)", response: { 200: envelope(z.array(chatRobot)) } } },
    async (req) => ok(await robots.list(requireUser(req))),
  );
  app.post(
    "/robots",
    {
      schema: {
        tags,
        summary: "Connect a released agent to a WeCom, DingTalk, Feishu or webhook robot",
        body: robotInput,
        response: { 200: envelope(chatRobot) },
      },
    },
    async (req) => ok(await robots.create(requireUser(req), req.body)),
  );
  app.post(
    "/robots/bind-code",
    {
      schema: {
        tags,
        summary:
          "A one-time code (10 minutes) to send in a robot chat of the caller's tenant as '绑定 CODE': that chat's messages become the caller's",
        response: { 200: envelope(robotBindCode) },
      },
    },
    async (req) => ok(await robots.bindCode(requireUser(req))),
  );
  app.put(
    "/robots/:id",
    {
      schema: {
        tags,
        summary: "Edit a robot; an empty secret keeps the stored one",
        params: idParams,
        body: robotInput,
        response: { 200: envelope(chatRobot) },
      },
    },
    async (req) => ok(await robots.update(requireUser(req), req.params.id, req.body)),
  );
  app.post(
    "/robots/:id/enabled",
    {
      schema: {
        tags,
        summary: "Enable or disable a robot",
        params: idParams,
        body: robotEnabledInput,
        response: { 200: envelope(chatRobot) },
      },
    },
    async (req) => ok(await robots.setEnabled(requireUser(req), req.params.id, req.body.enabled)),
  );
  app.delete(
    "/robots/:id",
    { schema: { tags, summary: "Delete a robot", params: idParams, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await robots.remove(requireUser(req), req.params.id);
      return ok(null);
    },
  );

  // The platforms' callbacks: no session; the robot's own secrets prove the caller. The raw body is
  // kept as sent, because the signatures are over its exact bytes (WeCom sends XML).
  await app.register(async (callbacks) => {
    callbacks.removeAllContentTypeParsers();
    callbacks.addContentTypeParser("*", { parseAs: "string", bodyLimit: 256 * 1024 }, (_req, body, done) => done(null, body));
    const handler = async (
      req: {
        params: unknown;
        query: unknown;
        headers: Record<string, string | string[] | undefined>;
        body: unknown;
        method: string;
        protocol: string;
        host: string;
      },
      reply: { status(n: number): { type(t: string): { send(b: string): unknown } } },
    ) => {
      const { id } = req.params as { id: string };
      const query = Object.fromEntries(
        Object.entries((req.query ?? {}) as Record<string, unknown>).map(([k, v]) => [k, typeof v === "string" ? v : ""]),
      );
      const body = typeof req.body === "string" ? req.body : "";
      const answer = await robots.callback(id, req.method, query, req.headers, body, `${req.protocol}://${req.host}`);
      return reply.status(answer.status).type(answer.contentType).send(answer.body);
    };
    callbacks.get("/robots/callback/:id", { schema: { tags, summary: "A platform's callback URL verification (WeCom echostr)" } }, handler);
    callbacks.post(
      "/robots/callback/:id",
      { schema: { tags, summary: "A platform's message callback: verified, recorded once, answered asynchronously" } },
      handler,
    );
  });
};
