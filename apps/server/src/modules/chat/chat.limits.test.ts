import { parseChatEvents } from "@agentfair/contracts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { alignClock, restoreClock } from "../../test/clock.ts";
import { createUser, randomIp, type TestUser } from "../../test/factories.ts";
import { createPeerApp, createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";

/** Per-user (and per-IP) limits on chat requests and concurrent streams, shared by every process. */
let t: TestApp;
let llm: LlmServer;
const agents = new Map<string, string>();

const LIMITS = { CHAT_PER_MINUTE: "4", CHAT_STREAMS_PER_USER: "2", CHAT_PER_MINUTE_PER_IP: "6" };

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k", ...LIMITS });
});
afterAll(async () => {
  await t.close();
  await llm.close();
});
afterEach(restoreClock);

/** A member with an agent of its own to chat with (its draft). */
async function member() {
  const user = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  const res = await t.app.inject({ method: "POST", url: "/aiagent_api/agent/quick/add", headers: user.headers, payload: {} });
  agents.set(user.id, res.json().data.agentId);
  return user;
}

function ask(app: TestApp, user: TestUser, opts: { ip?: string; lang?: string } = {}) {
  return app.app.inject({
    method: "POST",
    url: "/agent/agent_runtime/chat",
    remoteAddress: opts.ip ?? randomIp(),
    headers: opts.lang ? { lang: opts.lang } : {},
    payload: { token: user.token, schema_id: agents.get(user.id), release: false, query: "hi" },
  });
}
const lastEvent = (payload: string) => parseChatEvents(payload).at(-1);

const SLOW = { chunks: Array.from({ length: 20 }, () => "字"), delayMs: 60 };

/** Resolves once `n` model calls are streaming (their chats hold their places). */
async function streaming(n: number) {
  for (let i = 0; i < 200 && llm.requests.filter((r) => !r.finished && !r.aborted).length < n; i++)
    await new Promise((r) => setTimeout(r, 25));
  expect(llm.requests.filter((r) => !r.finished && !r.aborted).length).toBeGreaterThanOrEqual(n);
}

describe("chat limits", () => {
  it("refuses a stream over the user's concurrent limit with 429, and frees the place when a stream ends", async () => {
    alignClock();
    const u = await member();
    llm.script(SLOW, SLOW);
    const running = [ask(t, u), ask(t, u)];
    await streaming(2);
    const refused = await ask(t, u);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ code: 429, msg: "同时进行的对话过多（最多2个），请等当前回复结束后再试", data: null });
    const en = await ask(t, u, { lang: "en" });
    expect(en.json().msg).toBe("too many chats at once (at most 2): wait until a reply has finished");
    // Another user is not affected.
    expect((await ask(t, await member())).statusCode).toBe(200);
    for (const res of await Promise.all(running)) expect(lastEvent(res.payload)).toMatchObject({ type: "stop", status: "done" });
    expect(lastEvent((await ask(t, u)).payload)).toMatchObject({ type: "stop", status: "done" });
  });

  it("refuses chat requests over the user's per-minute limit with 429 and a clear message", async () => {
    alignClock();
    const u = await member();
    for (let i = 0; i < 4; i++) expect((await ask(t, u)).statusCode).toBe(200);
    const refused = await ask(t, u);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().msg).toMatch(/^对话请求过于频繁，请\d+秒后再试$/);
  });

  it("attack: parallel requests get no more than the per-minute limit", async () => {
    alignClock();
    const u = await member();
    const results = await Promise.all(Array.from({ length: 12 }, () => ask(t, u)));
    expect(results.filter((r) => r.statusCode === 200).length).toBeLessThanOrEqual(4);
    expect(results.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(8);
  });

  it("limits chat requests per IP across users (share-link visitors included)", async () => {
    alignClock();
    const ip = randomIp();
    for (let i = 0; i < 6; i++) expect((await ask(t, await member(), { ip })).statusCode).toBe(200);
    const refused = await ask(t, await member(), { ip });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().msg).toMatch(/^对话请求过于频繁/);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)("holds across processes: streams on two app instances share the user's limit", async () => {
    alignClock();
    const peer = await createPeerApp(t);
    try {
      const u = await member();
      llm.script(SLOW, SLOW);
      const running = [ask(t, u), ask(peer, u)];
      await streaming(2);
      expect((await ask(peer, u)).statusCode).toBe(429);
      expect((await ask(t, u)).statusCode).toBe(429);
      await Promise.all(running);
      expect((await ask(peer, u)).statusCode).toBe(200);
    } finally {
      await peer.close();
    }
  });
});
