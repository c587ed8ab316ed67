import { emptyBindings } from "@agentfair/contracts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { agents, freeChatUsage, mcpSessions, rateLeases, users } from "../../db/schema/index.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createPeerApp, createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";
import { agentSteps } from "../agents/agents.fixtures.ts";
import { ChannelsRepository } from "./channels.repository.ts";
import { MCP_SSE_STREAMS_PER_KEY } from "./channels.service.ts";
import { knowledgeSteps } from "../knowledge/knowledge.fixtures.ts";

/**
 * Agents as MCP servers: keys, both transports, limits and billing. With TEST_DATABASE_URL the
 * client talks to two processes on one PostgreSQL database; on PGlite to one.
 */
let a: TestApp;
let b: TestApp;
let llm: LlmServer;
let owner: TestUser;
let other: TestUser;
let agentId: string;
let urlA: string;
let urlB: string;

const keysUrl = (id: string) => `/aiagent_api/agent/${id}/mcp-keys`;
async function newKey(body: Record<string, unknown> = {}, id = agentId) {
  const res = await a.app.inject({ method: "POST", url: keysUrl(id), headers: owner.headers, payload: { name: "测试密钥", ...body } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: string; key: string; prefix: string };
}
const auth = (key: string) => ({ requestInit: { headers: { authorization: `Bearer ${key}` } } });
async function connect(base: string, key: string, id = agentId) {
  const client = new Client({ name: "test", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp/${id}`), auth(key));
  await client.connect(transport);
  return { client, transport };
}
/** The HTTP status an MCP client call failed with (0: it did not fail). */
const status = (p: Promise<unknown>) =>
  p.then(
    () => 0,
    (err: { code?: number }) => err.code,
  );
const text = (r: Awaited<ReturnType<Client["callTool"]>>) => (r.content as { type: string; text: string }[])[0]?.text ?? "";

beforeAll(async () => {
  llm = await startLlmServer();
  a = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k" });
  b = a.databaseUrl ? await createPeerApp(a) : a;
  urlA = await a.app.listen({ port: 0, host: "127.0.0.1" });
  urlB = b === a ? urlA : await b.app.listen({ port: 0, host: "127.0.0.1" });
  // Report agents' answers wait for the report job (run by either process; the other waits for it through the database).
  await a.platform.jobs.start({ pollingIntervalSeconds: 0.5 });
  if (b !== a) await b.platform.jobs.start({ pollingIntervalSeconds: 0.5 });
  owner = await createUser(a, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  other = await createUser(a, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  agentId = await agentSteps(a).released(owner, {}, "MCP 助手");
});
afterAll(async () => {
  if (b !== a) await b.close();
  await a.close();
  await llm.close();
});

describe("MCP keys", () => {
  it("are shown once, listed by prefix, and only for the owner's released agent", async () => {
    const created = await newKey({ requestsPerMinute: 5 });
    expect(created.key).toMatch(/^afk_/);
    const list = (await a.app.inject({ method: "GET", url: keysUrl(agentId), headers: owner.headers })).json().data;
    expect(list.endpoints).toEqual({ streamableHttp: `/mcp/${agentId}`, sse: `/mcp/${agentId}/sse` });
    const item = list.list.find((k: { id: string }) => k.id === created.id);
    expect(item).toMatchObject({ name: "测试密钥", prefix: created.prefix, requestsPerMinute: 5, lastUsedAt: null });
    expect(JSON.stringify(list)).not.toContain(created.key);
    const changed = await a.app.inject({
      method: "PUT",
      url: `${keysUrl(agentId)}/${created.id}`,
      headers: owner.headers,
      payload: { requestsPerMinute: 0, outputTokensPerMinute: 500 },
    });
    expect(changed.json().data).toMatchObject({ requestsPerMinute: 0, outputTokensPerMinute: 500, name: "测试密钥" });
    // Another user's agent is not found; an unreleased one of the owner's cannot be exposed.
    for (const method of ["GET", "POST"] as const) {
      const res = await a.app.inject({ method, url: keysUrl(agentId), headers: other.headers, payload: { name: "x" } });
      expect(res.statusCode).toBe(404);
    }
    const admin = await createUser(a, { username: "admin" });
    expect((await a.app.inject({ method: "GET", url: keysUrl(agentId), headers: admin.headers })).statusCode).toBe(404);
    const draftOnly = await agentSteps(a).create(owner, "草稿助手");
    const res = await a.app.inject({ method: "POST", url: keysUrl(draftOnly), headers: owner.headers, payload: { name: "x" } });
    expect(res.json().msg).toBe("智能体未发布");
    const bad = await a.app.inject({
      method: "POST",
      url: keysUrl(agentId),
      headers: owner.headers,
      payload: { name: "x", requestsPerMinute: -1 },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe("the MCP endpoint", () => {
  it("initialises on one process and answers ask on another; the session is the owner's", async () => {
    const { key } = await newKey();
    const { client, transport } = await connect(urlA, key);
    const sessionId = transport.sessionId!;
    expect(await a.platform.db.select().from(mcpSessions).where(eq(mcpSessions.id, sessionId))).toHaveLength(1);
    // The same MCP session continues on the other process.
    const onB = new Client({ name: "test", version: "1" });
    const transportB = new StreamableHTTPClientTransport(new URL(`${urlB}/mcp/${agentId}`), { ...auth(key), sessionId });
    await onB.connect(transportB);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(["ask"]);
    const result = await onB.callTool({ name: "ask", arguments: { question: "你好" } });
    expect(result.isError).toBeFalsy();
    expect(text(result).length).toBeGreaterThan(0);
    const chatSession = (result.structuredContent as { sessionId: string }).sessionId;
    const mine = await a.app.inject({
      method: "GET",
      url: "/agent/agent_runtime/session_list?page_number=1&page_size=100",
      headers: owner.headers,
    });
    expect(mine.json().data.list.map((s: { session_id: string }) => s.session_id)).toContain(chatSession);
    // Continuing the conversation appends to it.
    await client.callTool({ name: "ask", arguments: { question: "再说一次", sessionId: chatSession } });
    const detail = await a.app.inject({ method: "GET", url: `/agent/agent_runtime/session/${chatSession}`, headers: owner.headers });
    expect(detail.json().data.messages).toHaveLength(4);
    await client.close();
    await onB.close();
  });

  it("speaks SSE too, the stream on one process and its messages on another", async () => {
    const { key } = await newKey();
    const client = new Client({ name: "test", version: "1" });
    await client.connect(
      new SSEClientTransport(new URL(`${urlA}/mcp/${agentId}/sse`), {
        ...auth(key),
        eventSourceInit: { fetch: (u, init) => fetch(u, { ...init, headers: { ...init?.headers, authorization: `Bearer ${key}` } }) },
        // The stream stays on process A; its messages go to process B, which answers through the database.
        fetch: (u, init) => fetch(String(u).replace(urlA, urlB), init),
      }),
    );
    const result = await client.callTool({ name: "ask", arguments: { question: "SSE 你好" } });
    expect(text(result).length).toBeGreaterThan(0);
    await client.close();
  });

  it("refuses a wrong or revoked key (401) and another user's agent id", async () => {
    const { key, id } = await newKey();
    expect(await status(connect(urlA, "afk_wrong"))).toBe(401);
    const { client } = await connect(urlA, key);
    await a.app.inject({ method: "DELETE", url: `${keysUrl(agentId)}/${id}`, headers: owner.headers });
    expect(await status(client.listTools())).toBe(401);
    expect(await status(connect(urlB, key))).toBe(401);
    // A key of one agent does not open another (the other user's): refused alike.
    const othersAgent = await agentSteps(a).released(other, {}, "别人的助手");
    const fresh = await newKey();
    expect(await status(connect(urlA, fresh.key, othersAgent))).toBe(401);
    const foreign = await a.app.inject({ method: "DELETE", url: `${keysUrl(othersAgent)}/${fresh.id}`, headers: owner.headers });
    expect(foreign.statusCode).toBe(404);
  });

  it("serves a session only to its own key; unknown or missing sessions and bad messages are refused", async () => {
    const one = await newKey();
    const two = await newKey();
    const { transport } = await connect(urlA, one.key);
    const post = (key: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${urlB}/mcp/${agentId}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify(body),
      }).then((r) => r.status);
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    expect(await post(one.key, list, { "mcp-session-id": transport.sessionId! })).toBe(200);
    expect(await post(two.key, list, { "mcp-session-id": transport.sessionId! })).toBe(404);
    expect(await post(one.key, list, { "mcp-session-id": "00000000-0000-4000-8000-000000000000" })).toBe(404);
    expect(await post(one.key, list)).toBe(400);
    expect(await post(one.key, { hello: "world" }, { "mcp-session-id": transport.sessionId! })).toBe(400);
    expect(await post(`${one.key}x`, list, { "mcp-session-id": transport.sessionId! })).toBe(401);
  });

  it("refuses requests past the key's limit per minute (0 disables)", async () => {
    const { key } = await newKey({ requestsPerMinute: 2 });
    // initialize + notifications/initialized are the two requests of this minute.
    const { client } = await connect(urlA, key);
    expect(await status(client.listTools())).toBe(429);
    const tokens = await newKey({ outputTokensPerMinute: 1 });
    const second = await connect(urlB, tokens.key);
    const first = await second.client.callTool({ name: "ask", arguments: { question: "第一次" } });
    expect(first.isError).toBeFalsy();
    const refused = await second.client.callTool({ name: "ask", arguments: { question: "第二次" } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("token");
  });

  it("counts each message of a batch against the key's limit: one request cannot carry many", async () => {
    const { key } = await newKey({ requestsPerMinute: 2 });
    const headers = {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const init = await a.app.inject({
      method: "POST",
      url: `/mcp/${agentId}`,
      headers,
      payload: {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      },
    });
    expect(init.statusCode).toBe(200);
    const batch = [1, 2, 3].map((id) => ({ jsonrpc: "2.0", id, method: "tools/list" }));
    const res = await a.app.inject({
      method: "POST",
      url: `/mcp/${agentId}`,
      headers: { ...headers, "mcp-session-id": String(init.headers["mcp-session-id"]) },
      payload: batch,
    });
    expect(res.statusCode).toBe(429);
    expect(res.json().error.message).toContain("每分钟2次");
  });

  it("holds at most 10 SSE streams of one key open at once; a closed one frees its place", async () => {
    const { key } = await newKey();
    const open = async () => {
      const controller = new AbortController();
      const res = await fetch(`${urlA}/mcp/${agentId}/sse`, { headers: { authorization: `Bearer ${key}` }, signal: controller.signal });
      return { status: res.status, close: () => controller.abort(), body: res };
    };
    const streams = [];
    try {
      for (let i = 0; i < MCP_SSE_STREAMS_PER_KEY; i++) streams.push(await open());
      expect(streams.map((s) => s.status)).toEqual(Array(MCP_SSE_STREAMS_PER_KEY).fill(200));
      const refused = await open();
      streams.push(refused);
      expect(refused.status).toBe(429);
      expect((await refused.body.json()).error.message).toBe("该 MCP 密钥同时打开的 SSE 连接过多（最多10个），请先关闭不用的连接");
      streams.shift()?.close();
      await expect
        .poll(async () => {
          const again = await open();
          streams.push(again);
          return again.status;
        })
        .toBe(200);
    } finally {
      for (const s of streams) s.close();
    }
  });

  it("frees the place and the session of a client gone before its stream began", async () => {
    const { key, id } = await newKey();
    const controller = new AbortController();
    // The client gives up while its session is being written: the stream's 'close' has passed before it is watched.
    const create = ChannelsRepository.prototype.createSession;
    const spy = vi.spyOn(ChannelsRepository.prototype, "createSession").mockImplementationOnce(async function (
      this: ChannelsRepository,
      v,
    ) {
      controller.abort();
      await new Promise((r) => setTimeout(r, 200));
      return create.call(this, v);
    });
    try {
      const gone = fetch(`${urlA}/mcp/${agentId}/sse`, { headers: { authorization: `Bearer ${key}` }, signal: controller.signal });
      await expect(gone).rejects.toThrow();
      await expect.poll(() => spy.mock.results[0]?.value).toBeDefined();
      await spy.mock.results[0]?.value;
    } finally {
      spy.mockRestore();
    }
    await expect
      .poll(async () => {
        const leases = await a.platform.db
          .select()
          .from(rateLeases)
          .where(eq(rateLeases.key, `mcp:sse:${id}`));
        const sessions = await a.platform.db.select().from(mcpSessions).where(eq(mcpSessions.keyId, id));
        return [leases.length, sessions.length];
      })
      .toEqual([0, 0]);
  });

  it("offers search_knowledge only when the key allows it and the agent has a knowledge base", async () => {
    const { key } = await newKey({ searchKnowledge: true });
    const { client } = await connect(urlA, key);
    // The agent has no knowledge base bound: nothing to search, so the tool is not offered.
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["ask"]);
    const k = knowledgeSteps(a);
    const baseId = await k.createBase(owner, "售后问答");
    await k.call(owner, "POST", `/${baseId}/qa`, { question: "退货运费谁承担？", answer: "七天无理由退货的运费由买家承担。" });
    const faq = await agentSteps(a).released(owner, { bindings: { ...emptyBindings(), knowledgeBases: [baseId] } }, "售后助手");
    const allowed = await newKey({ searchKnowledge: true }, faq);
    const withSearch = await connect(urlB, allowed.key, faq);
    expect((await withSearch.client.listTools()).tools.map((t) => t.name)).toEqual(["ask", "search_knowledge"]);
    const found = await withSearch.client.callTool({ name: "search_knowledge", arguments: { query: "退货运费由谁承担" } });
    expect(text(found)).toContain("七天无理由退货的运费由买家承担");
    const notAllowed = await newKey({}, faq);
    const without = await connect(urlB, notAllowed.key, faq);
    expect((await without.client.listTools()).tools.map((t) => t.name)).toEqual(["ask"]);
  });

  it("answers a report agent's question with the report's findings and a share link, once the report is built", async () => {
    const table = await a.app.inject({
      method: "POST",
      url: "/aiagent_api/datatable",
      headers: owner.headers,
      payload: {
        name: "orders",
        fields: [
          { name: "customer", type: "text" },
          { name: "amount", type: "number" },
        ],
      },
    });
    const tableId = table.json().data.id;
    for (const row of [
      { customer: "张三", amount: 100 },
      { customer: "李四", amount: 300 },
    ])
      await a.app.inject({ method: "POST", url: `/aiagent_api/datatable/${tableId}/rows`, headers: owner.headers, payload: row });
    const reportAgent = await agentSteps(a).released(owner, {}, "报告助手");
    await a.platform.db.update(agents).set({ agentType: "insight" }).where(eq(agents.id, reportAgent));
    await a.platform.invalidate("agent", reportAgent);
    const { key } = await newKey({}, reportAgent);
    const { client } = await connect(urlB, key, reportAgent);
    const result = await client.callTool({ name: "ask", arguments: { question: "各客户的消费额是多少？" } });
    const answer = text(result);
    expect(result.isError, answer).toBeFalsy();
    // Not the chat's "analysing…": the findings of the finished report, and its link.
    expect(answer).not.toContain("正在分析数据");
    expect(answer).toContain("数据显示");
    const url = (result.structuredContent as { reportUrl: string }).reportUrl;
    expect(url.startsWith(`${urlB}/insight-detail?share=`)).toBe(true);
    expect(answer).toContain(url);
    // The link opens the report read-only without signing in.
    const token = new URL(url).searchParams.get("share");
    const shared = await b.app.inject({ method: "GET", url: `/prod-api/dashboard/tReportBuilder/shared?token=${token}` });
    expect(shared.json().data).toMatchObject({ status: "DONE", agentId: reportAgent, shareToken: null });
    await client.close();
  });

  it("is billed like a chat: a free owner's calls use the daily free chats", async () => {
    const { key } = await newKey();
    await a.platform.db.update(users).set({ memberLevel: "FREE", memberEndAt: null }).where(eq(users.id, owner.id));
    const { client } = await connect(urlA, key);
    await client.callTool({ name: "ask", arguments: { question: "免费额度" } });
    const [usage] = await a.platform.db.select().from(freeChatUsage).where(eq(freeChatUsage.userId, owner.id));
    expect(usage.count).toBe(1);
  });
});
