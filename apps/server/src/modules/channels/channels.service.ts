import { createHmac, randomBytes } from "node:crypto";
import {
  type chatRequest,
  type CreatedMcpKey,
  type createMcpKeyRequest,
  type Language,
  MCP_KEY_PREFIX,
  MCP_KEYS_PER_AGENT,
  MCP_TOOL_ASK,
  MCP_TOOL_SEARCH,
  type McpKeyItem,
  type updateMcpKeyRequest,
} from "@agentfair/contracts";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { type Caller, callerOfUser, requireAccess } from "../../platform/auth.ts";
import { AppError, badRequest, notFound } from "../../platform/errors.ts";
import { insertWithinLimit } from "../../platform/count-limit.ts";
import { translate } from "../../platform/messages.ts";
import type { Platform } from "../../platform/platform.ts";
import type { AgentsForRuntime } from "../agents/runtime-agent.ts";
import type { ChatModule } from "../chat/chat.module.ts";
import { ChannelsRepository, type McpKeyRow } from "./channels.repository.ts";

/** What a verified MCP key lets a request do: run its agent as the agent's owner. */
export interface McpContext {
  key: McpKeyRow;
  owner: Caller;
  agentId: string;
  ip: string;
  lang: Language;
  /** The request's origin, for links in answers (PUBLIC_URL wins). */
  origin: string;
}

const toItem = (k: McpKeyRow): McpKeyItem => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  searchKnowledge: k.searchKnowledge,
  requestsPerMinute: k.requestsPerMinute,
  inputTokensPerMinute: k.inputTokensPerMinute,
  outputTokensPerMinute: k.outputTokensPerMinute,
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
});

/**
 * A report agent's answer waits this long for its report: under the 60 s an MCP client (the SDK's
 * default) waits for a tool call. A slower report is answered with its link.
 */
const MCP_REPORT_WAIT_MS = 45_000;

/**
 * SSE streams one key may hold open at once, over all processes: each is an open connection and a
 * timer, and a key's requests per minute are unlimited by default.
 */
export const MCP_SSE_STREAMS_PER_KEY = 10;

/** Only one update of "last used" per key and minute: every call would be a write otherwise. */
const LAST_USED_EVERY_MS = 60_000;

/**
 * Agents as MCP servers: per-agent keys and the MCP tools. A key is the owner's credential: its
 * calls run as the agent's owner, so the owner's membership, free-chat quota and limits apply, and
 * the conversations are the owner's sessions. (The owner pays no per-use fee on their own agent,
 * exactly as in the chat.)
 */
export class ChannelsService {
  readonly repo: ChannelsRepository;

  constructor(
    private readonly platform: Platform,
    private readonly deps: { agents: AgentsForRuntime; chat: ChatModule },
  ) {
    this.repo = new ChannelsRepository(platform.db);
  }

  private hash(key: string) {
    return createHmac("sha256", this.platform.secret).update(`mcp-key:${key}`).digest("hex");
  }

  /** The released agent, when the caller owns it (the agents module's one owner+tenant check). */
  private async ownReleasedAgent(caller: Caller, agentId: string) {
    const agent = await this.deps.agents.runtimeAgent(caller, agentId, { release: true });
    // Hirers may run a listed agent, but only its owner may expose it.
    requireAccess(caller, { ownerId: agent.ownerId, tenantId: agent.tenantId }, "write");
    // Administrators pass that check for everything, but a key spends its owner's quota: only the
    // owner makes, sees and revokes the keys of an agent.
    if (agent.ownerId !== caller.userId) throw notFound();
    return agent;
  }

  async createKey(caller: Caller, agentId: string, body: z.output<typeof createMcpKeyRequest>): Promise<CreatedMcpKey> {
    const agent = await this.ownReleasedAgent(caller, agentId);
    const key = `${MCP_KEY_PREFIX}${randomBytes(24).toString("base64url")}`;
    const row = await insertWithinLimit(this.platform.db, `mcp-keys:${agent.agentId}`, MCP_KEYS_PER_AGENT, {
      count: (tx) => this.repo.countLive(agent.agentId, tx),
      refuse: (max) => badRequest("mcpKeyLimit", { count: max }),
      insert: (tx) =>
        this.repo.insertKey(
          {
            agentId: agent.agentId,
            ownerId: agent.ownerId,
            tenantId: agent.tenantId,
            name: body.name,
            keyHash: this.hash(key),
            prefix: key.slice(0, MCP_KEY_PREFIX.length + 6),
            searchKnowledge: body.searchKnowledge,
            requestsPerMinute: body.requestsPerMinute,
            inputTokensPerMinute: body.inputTokensPerMinute,
            outputTokensPerMinute: body.outputTokensPerMinute,
          },
          tx,
        ),
    });
    return { ...toItem(row), key };
  }

  async listKeys(caller: Caller, agentId: string) {
    const agent = await this.ownReleasedAgent(caller, agentId);
    return (await this.repo.liveKeys(agent.agentId)).map(toItem);
  }

  async updateKey(caller: Caller, agentId: string, keyId: string, body: z.output<typeof updateMcpKeyRequest>) {
    const agent = await this.ownReleasedAgent(caller, agentId);
    const row = await this.repo.updateKey(agent.agentId, keyId, body);
    if (!row) throw notFound();
    return toItem(row);
  }

  async revokeKey(caller: Caller, agentId: string, keyId: string) {
    const agent = await this.ownReleasedAgent(caller, agentId);
    if (!(await this.repo.revokeKey(agent.agentId, keyId))) throw notFound();
  }

  // ---- the MCP side ---------------------------------------------------------------------------

  /**
   * The key of a bearer header, for this agent; anything else is refused alike (401). `messages`:
   * the JSON-RPC messages the request carries, each one a request against the key's limit (a batch
   * of them is not one request).
   */
  async authenticate(
    agentId: string,
    bearer: string | undefined,
    ip: string,
    lang: Language,
    origin: string,
    messages = 1,
  ): Promise<McpContext> {
    const refuse = () => new AppError("mcpKeyInvalid", 401);
    if (!bearer?.startsWith(MCP_KEY_PREFIX) || bearer.length > 200) throw refuse();
    const key = await this.repo.keyByHash(this.hash(bearer));
    if (!key || key.revokedAt || key.agentId !== agentId) throw refuse();
    const owner = await callerOfUser(this.platform.db, this.platform.config, key.ownerId);
    if (!owner || owner.tenantId !== key.tenantId) throw refuse();
    if (key.requestsPerMinute > 0)
      await this.platform.rateLimiter.take(
        `mcp:req:${key.id}`,
        key.requestsPerMinute,
        60,
        (seconds) => new AppError("mcpRequestsLimited", 429, { seconds, limit: key.requestsPerMinute }),
        Math.max(1, messages),
      );
    if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > LAST_USED_EVERY_MS)
      await this.repo.touchKey(key.id).catch(() => undefined);
    return { key, owner, agentId, ip, lang, origin };
  }

  /** A place for one more SSE stream of the key (released when the stream ends), or 429. */
  streamPlace(key: McpKeyRow) {
    return this.platform.rateLimiter.lease(
      `mcp:sse:${key.id}`,
      MCP_SSE_STREAMS_PER_KEY,
      60,
      () => new AppError("mcpStreamsLimited", 429, { count: MCP_SSE_STREAMS_PER_KEY }),
    );
  }

  /**
   * Token budgets are known only after a reply: a call is refused when the minute's budget is
   * already spent, and what it used is counted when it ends (a call may overrun the last bit).
   */
  private async checkTokenBudgets(key: McpKeyRow) {
    const limiter = this.platform.rateLimiter;
    const refuse = (seconds: number) => new AppError("mcpTokensLimited", 429, { seconds });
    for (const [kind, limit] of [
      ["in", key.inputTokensPerMinute],
      ["out", key.outputTokensPerMinute],
    ] as const) {
      if (limit <= 0) continue;
      const claim = await limiter.take(`mcp:${kind}:${key.id}`, limit, 60, refuse);
      await claim.release();
    }
  }

  private async countTokens(key: McpKeyRow, usage: { inputTokens: number; outputTokens: number }) {
    const limiter = this.platform.rateLimiter;
    const never = () => new AppError("tooMany", 429);
    if (key.inputTokensPerMinute > 0 && usage.inputTokens > 0)
      await limiter.take(`mcp:in:${key.id}`, Number.MAX_SAFE_INTEGER, 60, never, usage.inputTokens);
    if (key.outputTokensPerMinute > 0 && usage.outputTokens > 0)
      await limiter.take(`mcp:out:${key.id}`, Number.MAX_SAFE_INTEGER, 60, never, usage.outputTokens);
  }

  /** `ask`: one chat turn as the owner, through the chat runtime (billing, quotas, session history). */
  async ask(ctx: McpContext, question: string, sessionId: string | undefined, signal: AbortSignal) {
    await this.checkTokenBudgets(ctx.key);
    const chat = this.deps.chat.chat;
    const place = await chat.admit(ctx.owner, ctx.ip);
    try {
      const req: z.output<typeof chatRequest> = { query: question, schema_id: ctx.agentId, release: true, session_id: sessionId ?? null };
      const prepared = await chat.prepare(ctx.owner, req, signal);
      const reply = await chat.answer(prepared, ctx.lang, signal, { reportWaitMs: MCP_REPORT_WAIT_MS, origin: ctx.origin });
      await this.countTokens(ctx.key, reply.usage).catch((err) => this.platform.log.warn({ err }, "mcp token count failed"));
      return reply;
    } finally {
      await place.release();
    }
  }

  /** `search_knowledge`: the agent's own retrieval tool, when the key allows it. */
  private async searchTool(ctx: McpContext) {
    if (!ctx.key.searchKnowledge) return null;
    const agent = await this.deps.agents.runtimeAgent(ctx.owner, ctx.agentId, { release: true });
    const tools = await this.deps.chat.tools.toolsFor({ caller: ctx.owner, agent, sessionId: "" });
    return [...tools.values()].find((t) => t.name === "knowledge_search") ?? null;
  }

  /** A fresh MCP server for one request: everything it needs is in the database, none in the process. */
  async mcpServer(ctx: McpContext) {
    const agent = await this.deps.agents.runtimeAgent(ctx.owner, ctx.agentId, { release: true });
    const server = new McpServer({ name: `agentfair-${agent.agentId}`, version: "1.0.0" });
    server.registerTool(
      MCP_TOOL_ASK,
      {
        title: agent.agentName,
        description: `Ask the agent "${agent.agentName}". ${agent.agentDescription}`.slice(0, 1000),
        inputSchema: {
          question: z.string().min(1).max(20_000).describe("the question or task for the agent"),
          sessionId: z.string().max(64).optional().describe("continue this earlier conversation (sessionId of a previous answer)"),
        },
      },
      async ({ question, sessionId }, extra) => {
        try {
          const r = await this.ask(ctx, question, sessionId, extra.signal);
          return {
            content: [{ type: "text" as const, text: r.content || r.error || "" }],
            structuredContent: {
              answer: r.content,
              sessionId: r.sessionId,
              status: r.status,
              ...(r.reportUrl ? { reportUrl: r.reportUrl } : {}),
            },
            isError: r.status === "failed",
          };
        } catch (err) {
          if (err instanceof AppError)
            return { content: [{ type: "text" as const, text: translate(err.key, ctx.lang, err.params) }], isError: true };
          throw err;
        }
      },
    );
    const search = await this.searchTool(ctx);
    if (search)
      server.registerTool(
        MCP_TOOL_SEARCH,
        {
          description: `Search the knowledge bases of "${agent.agentName}" and return numbered passages.`,
          inputSchema: { query: z.string().min(1).max(2000).describe("what to look for") },
        },
        async ({ query }, extra) => {
          const result = await search.execute({ query }, { signal: extra.signal });
          return { content: [{ type: "text" as const, text: JSON.stringify(result) }] };
        },
      );
    return server;
  }

  /**
   * Handles one JSON-RPC message with a fresh server and returns what it answered (SSE sessions:
   * the reply then goes to whichever process holds the stream).
   */
  async handleMessage(ctx: McpContext, message: JSONRPCMessage): Promise<JSONRPCMessage[]> {
    const server = await this.mcpServer(ctx);
    const out: JSONRPCMessage[] = [];
    const expectsReply = "id" in message && "method" in message;
    let done: () => void = () => undefined;
    const replied = new Promise<void>((resolve) => {
      done = resolve;
    });
    const transport: Transport = {
      async start() {},
      async send(m) {
        out.push(m);
        if ("id" in m && ("result" in m || "error" in m)) done();
      },
      async close() {
        done();
      },
    };
    await server.connect(transport);
    transport.onmessage?.(message);
    if (expectsReply) await replied;
    await server.close();
    return out;
  }
}
