import {
  createdMcpKey,
  createMcpKeyRequest,
  envelope,
  mcpEndpointPaths,
  mcpKeyItem,
  mcpKeyList,
  updateMcpKeyRequest,
} from "@agentfair/contracts";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isJSONRPCRequest, type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../platform/auth.ts";
import { AppError } from "../../platform/errors.ts";
import { ok } from "../../platform/http.ts";
import type { Lease } from "../../platform/rate-limit.ts";
import { requestLanguage, translate } from "../../platform/messages.ts";
import type { ChannelsService, McpContext } from "./channels.service.ts";
import type { SseHub } from "./sse-hub.ts";

const tags = ["channels"];
const agentParams = z.object({ id: z.string().min(1).max(64) });
const keyParams = agentParams.extend({ keyId: z.string().min(1).max(64) });

/** Key management: /aiagent_api/agent/{id}/mcp-keys (paths beyond the spec). */
export const channelsRoutes: FastifyPluginAsyncZod<{ channels: ChannelsService }> = async (app, { channels }) => {
  app.post(
    "/agent/:id/mcp-keys",
    {
      schema: {
        tags,
        summary: "Create an MCP key for a released agent (beyond the spec): data.key is shown this once",
        params: agentParams,
        body: createMcpKeyRequest,
        response: { 200: envelope(createdMcpKey) },
      },
    },
    async (req) => ok(await channels.createKey(requireUser(req), req.params.id, req.body)),
  );
  app.get(
    "/agent/:id/mcp-keys",
    {
      schema: {
        tags,
        summary: "The agent's live MCP keys (prefix only) and its endpoint paths (beyond the spec)",
        params: agentParams,
        response: { 200: envelope(mcpKeyList) },
      },
    },
    async (req) => ok({ list: await channels.listKeys(requireUser(req), req.params.id), endpoints: mcpEndpointPaths(req.params.id) }),
  );
  app.put(
    "/agent/:id/mcp-keys/:keyId",
    {
      schema: {
        tags,
        summary: "Rename a key or change its limits per minute (0 disables one) (beyond the spec)",
        params: keyParams,
        body: updateMcpKeyRequest,
        response: { 200: envelope(mcpKeyItem) },
      },
    },
    async (req) => ok(await channels.updateKey(requireUser(req), req.params.id, req.params.keyId, req.body)),
  );
  app.delete(
    "/agent/:id/mcp-keys/:keyId",
    {
      schema: {
        tags,
        summary: "Revoke a key: its sessions end at once (beyond the spec)",
        params: keyParams,
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await channels.revokeKey(requireUser(req), req.params.id, req.params.keyId);
      return ok(null);
    },
  );
};

const SESSION_HEADER = "mcp-session-id";
/** The most JSON-RPC messages one streamable HTTP request may carry. */
const MAX_BATCH = 50;

function bearer(req: FastifyRequest) {
  return req.headers.authorization?.match(/^bearer\s+(\S+)\s*$/i)?.[1];
}

/** MCP clients read JSON-RPC errors, not the envelope. */
function rpcError(reply: FastifyReply, status: number, message: string, code = -32000) {
  return reply.status(status).type("application/json").send({ jsonrpc: "2.0", error: { code, message }, id: null });
}

/** The JSON-RPC messages a body carries (a batch is as many requests as it holds; larger ones are refused unread). */
const messageCount = (body: unknown) => (Array.isArray(body) ? Math.min(Math.max(body.length, 1), MAX_BATCH) : 1);

async function authenticated(channels: ChannelsService, req: FastifyRequest, reply: FastifyReply, agentId: string) {
  const lang = requestLanguage(req.headers);
  try {
    return await channels.authenticate(agentId, bearer(req), req.ip, lang, `${req.protocol}://${req.host}`, messageCount(req.body));
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.status === 401) reply.header("www-authenticate", 'Bearer realm="agentfair-mcp"');
    rpcError(reply, err.status, translate(err.key, lang, err.params));
    return null;
  }
}

/**
 * The MCP endpoints. Streamable HTTP runs a fresh stateless server per request; the session id is
 * ours and lives in the database, so any process answers any request of a session. SSE keeps its
 * stream on one process; the messages of its session may reach any process, which answers them and
 * leaves the replies in the outbox for the stream's process (see SseHub).
 */
export const mcpRoutes: FastifyPluginAsyncZod<{ channels: ChannelsService; hub: SseHub }> = async (app, { channels, hub }) => {
  const params = z.object({ agentId: z.string().min(1).max(64) });

  app.post(
    "/mcp/:agentId",
    { schema: { tags, summary: "MCP over streamable HTTP (bearer: an MCP key)", params, hide: true } },
    async (req, reply) => {
      const ctx = await authenticated(channels, req, reply, req.params.agentId);
      if (!ctx) return reply;
      const parsed = z.union([JSONRPCMessageSchema, z.array(JSONRPCMessageSchema).min(1).max(MAX_BATCH)]).safeParse(req.body);
      if (!parsed.success) return rpcError(reply, 400, "Parse error: invalid JSON-RPC message", -32700);
      const messages: JSONRPCMessage[] = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
      const initializing = messages.some((m) => isJSONRPCRequest(m) && m.method === "initialize");
      let sessionId: string;
      if (initializing) {
        sessionId = (await channels.repo.createSession({ agentId: ctx.agentId, keyId: ctx.key.id, transport: "http" })).id;
      } else {
        const asked = req.headers[SESSION_HEADER];
        if (typeof asked !== "string" || !asked) return rpcError(reply, 400, "Bad Request: Mcp-Session-Id header is required");
        if (!(await channels.repo.seeSession(asked, ctx.agentId, ctx.key.id))) return rpcError(reply, 404, "Session not found", -32001);
        sessionId = asked;
      }
      return handleStateless(channels, ctx, req, reply, sessionId);
    },
  );

  app.get("/mcp/:agentId", { schema: { params, hide: true } }, async (req, reply) => {
    if (!(await authenticated(channels, req, reply, req.params.agentId))) return reply;
    // No standalone stream: the server sends nothing unasked (clients accept 405 here).
    return reply.status(405).header("allow", "POST, DELETE").send();
  });

  app.delete("/mcp/:agentId", { schema: { params, hide: true } }, async (req, reply) => {
    const ctx = await authenticated(channels, req, reply, req.params.agentId);
    if (!ctx) return reply;
    const asked = req.headers[SESSION_HEADER];
    if (typeof asked === "string" && (await channels.repo.seeSession(asked, ctx.agentId, ctx.key.id)))
      await channels.repo.deleteSession(asked);
    return reply.status(200).send();
  });

  app.get("/mcp/:agentId/sse", { schema: { params, hide: true } }, async (req, reply) => {
    const ctx = await authenticated(channels, req, reply, req.params.agentId);
    if (!ctx) return reply;
    let place: Lease;
    try {
      place = await channels.streamPlace(ctx.key);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return rpcError(reply, err.status, translate(err.key, ctx.lang, err.params));
    }
    const session = await channels.repo.createSession({ agentId: ctx.agentId, keyId: ctx.key.id, transport: "sse" }).catch(async (err) => {
      await place.release();
      throw err;
    });
    reply.hijack();
    const res = reply.raw;
    // A client gone while its place and session were taken: its 'close' has passed and would never
    // come, and the place (renewed while held) would be lost to the key until the process ends.
    if (res.destroyed) {
      await Promise.all([place.release(), channels.repo.deleteSession(session.id)]).catch(() => undefined);
      return;
    }
    // The place is the key's for as long as the stream is open (nothing is awaited from the check above to here).
    res.on("close", () => void place.release().catch(() => undefined));
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    res.write(`event: endpoint\ndata: /mcp/${ctx.agentId}/messages?sessionId=${session.id}\n\n`);
    hub.hold(session.id, res);
  });

  app.post(
    "/mcp/:agentId/messages",
    { schema: { params, querystring: z.object({ sessionId: z.string().min(1).max(64) }), hide: true } },
    async (req, reply) => {
      const ctx = await authenticated(channels, req, reply, req.params.agentId);
      if (!ctx) return reply;
      const parsed = JSONRPCMessageSchema.safeParse(req.body);
      if (!parsed.success) return rpcError(reply, 400, "Parse error: invalid JSON-RPC message", -32700);
      const sessionId = req.query.sessionId;
      if (!(await channels.repo.seeSession(sessionId, ctx.agentId, ctx.key.id))) return rpcError(reply, 404, "Session not found", -32001);
      // Accepted at once; the reply goes over the session's stream, wherever it is held.
      void answerOverSse(channels, hub, ctx, sessionId, parsed.data).catch((err) => req.log.error({ err }, "mcp sse message failed"));
      return reply.status(202).send("Accepted");
    },
  );
};

async function answerOverSse(channels: ChannelsService, hub: SseHub, ctx: McpContext, sessionId: string, message: JSONRPCMessage) {
  const replies = await channels.handleMessage(ctx, message);
  if (replies.length) await hub.deliver(sessionId, replies as unknown as Record<string, unknown>[]);
}

async function handleStateless(channels: ChannelsService, ctx: McpContext, req: FastifyRequest, reply: FastifyReply, sessionId: string) {
  const controller = new AbortController();
  reply.raw.on("close", () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  const server = await channels.mcpServer(ctx);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const request = new Request(`http://mcp.local${req.url}`, { method: "POST", headers, signal: controller.signal });
    const response = await transport.handleRequest(request, { parsedBody: req.body });
    reply.status(response.status);
    response.headers.forEach((value, key) => {
      reply.header(key, value);
    });
    reply.header(SESSION_HEADER, sessionId);
    return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
  } finally {
    await server.close().catch(() => undefined);
  }
}
