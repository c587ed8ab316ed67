import http from "node:http";
import type { AddressInfo } from "node:net";
import { type ChatEvent, parseChatEvents } from "@agentfair/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatStreams } from "../../db/schema/index.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { startLlmServer, type LlmServer } from "../../test/llm-server.ts";

/**
 * Replies outlive their request: a dropped connection leaves the reply running, it is read again
 * (from where the reader broke) through /chat_stream, and /stop_reply stops it. The same across two
 * processes on PostgreSQL is in cluster.test.ts.
 */
let t: TestApp;
let llm: LlmServer;
let alice: TestUser;
let bob: TestUser;
let agentId: string;
let port: number;

const R = "/agent/agent_runtime";
/** Replies nobody reads for this long are stopped (short here; two minutes by default). */
const UNREAD_MS = 1500;
const events = parseChatEvents;
const text = (evs: ChatEvent[]) => evs.map((e) => (e.type === "content" ? e.delta : "")).join("");

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({
    MODEL_BASE_URL: llm.url,
    MODEL_NAME: "test-model",
    MODEL_API_KEY: "k",
    CHAT_UNREAD_STOP_MS: String(UNREAD_MS),
  });
  alice = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  bob = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  agentId = (await t.app.inject({ method: "POST", url: "/aiagent_api/agent/quick/add", headers: alice.headers, payload: {} })).json().data
    .agentId;
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

/** Starts a reply over real HTTP and drops the connection once `contents` content events came. */
function askAndDrop(query: string, contents: number) {
  return new Promise<ChatEvent[]>((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, path: `${R}/chat`, method: "POST", headers: { "content-type": "application/json" } },
      (res) => {
        let buf = "";
        res.on("data", (c: Buffer) => {
          buf += c.toString();
          const lines = buf.slice(0, buf.lastIndexOf("\n") + 1);
          const evs = events(lines);
          if (evs.filter((e) => e.type === "content").length >= contents) {
            req.destroy();
            resolve(evs);
          }
        });
        res.on("error", () => {});
      },
    );
    req.on("error", () => {});
    req.end(JSON.stringify({ token: alice.token, schema_id: agentId, release: false, query }));
    setTimeout(() => reject(new Error("no content")), 5000);
  });
}

const read = (user: TestUser, uuid: string, after: number) =>
  t.app.inject({ method: "GET", url: `${R}/chat_stream?uuid=${uuid}&after=${after}`, headers: user.headers });

describe("a reply outlives its connection", () => {
  it("goes on after a disconnect, is read again from where the reader broke, and is saved done", async () => {
    const chunks = Array.from({ length: 30 }, (_, i) => `片段${i}，`);
    llm.script({ chunks, delayMs: 30 });
    const first = await askAndDrop("长回答", 3);
    const session = first[0]!;
    expect(session.type).toBe("session");
    if (session.type !== "session") return;
    // While it runs, the session says so (a reopened page follows it).
    const detail = await t.app.inject({ method: "GET", url: `${R}/session/${session.session_id}`, headers: alice.headers });
    expect(detail.json().data.replying).toEqual({ uuid: session.uuid });

    const rest = await read(alice, session.uuid, first.length);
    expect(rest.statusCode).toBe(200);
    expect(rest.headers["content-type"]).toContain("application/x-ndjson");
    const restEvents = events(rest.payload);
    expect(restEvents.at(-1)).toMatchObject({ type: "stop", status: "done" });
    // Nothing lost, nothing twice.
    expect(text([...first, ...restEvents])).toBe(chunks.join(""));
    expect(llm.requests.filter((r) => r.aborted)).toHaveLength(0);

    const saved = (await t.app.inject({ method: "GET", url: `${R}/session/${session.session_id}`, headers: alice.headers })).json().data;
    expect(saved.replying).toBeUndefined();
    const bot = saved.messages.find((m: { role: string }) => m.role === "bot");
    expect(bot).toMatchObject({ uuid: session.uuid, status: "done", content: chunks.join("") });

    // An ended reply reads again whole (a late reader), from the start.
    const again = events((await read(alice, session.uuid, 0)).payload);
    expect(again[0]).toMatchObject({ type: "session", uuid: session.uuid });
    expect(text(again)).toBe(chunks.join(""));
  });

  it("the stop call stops it wherever it runs: the upstream call is aborted and the reply saved as stopped", async () => {
    llm.script({ chunks: Array.from({ length: 200 }, (_, i) => `片段${i}`), delayMs: 30 });
    const first = await askAndDrop("很长的回答", 2);
    const session = first[0]!;
    if (session.type !== "session") throw new Error("no session event");
    const reading = read(alice, session.uuid, first.length);
    // Only the asker may stop it.
    expect(
      (await t.app.inject({ method: "POST", url: `${R}/stop_reply`, headers: bob.headers, payload: { uuid: session.uuid } })).statusCode,
    ).toBe(404);
    const stoppedAt = Date.now();
    const stop = await t.app.inject({ method: "POST", url: `${R}/stop_reply`, headers: alice.headers, payload: { uuid: session.uuid } });
    expect(stop.json()).toMatchObject({ code: 200 });
    const aborted = await llm.waitForAbort(1000);
    expect(aborted.aborted).toBe(true);
    expect(Date.now() - stoppedAt).toBeLessThan(1000);
    const rest = events((await reading).payload);
    expect(rest.at(-1)).toMatchObject({ type: "stop", status: "stopped" });
    const saved = (await t.app.inject({ method: "GET", url: `${R}/session/${session.session_id}`, headers: alice.headers })).json().data;
    expect(saved.messages.find((m: { role: string }) => m.role === "bot")?.status).toBe("stopped");
    // Stopping an ended reply changes nothing.
    expect(
      (await t.app.inject({ method: "POST", url: `${R}/stop_reply`, headers: alice.headers, payload: { uuid: session.uuid } })).json(),
    ).toMatchObject({ code: 200 });
  });

  it("a reply nobody reads is stopped after the unread limit and saved as stopped; a reader keeps it going", async () => {
    const bot = async (sessionId: string) =>
      (await t.app.inject({ method: "GET", url: `${R}/session/${sessionId}`, headers: alice.headers }))
        .json()
        .data.messages.find((m: { role: string }) => m.role === "bot");
    // Read on from another connection, the reply outlives the limit and ends done.
    const chunks = Array.from({ length: 100 }, (_, i) => `段${i}`);
    llm.script({ chunks, delayMs: 30 });
    const read1 = await askAndDrop("有人读的回答", 2);
    const s1 = read1[0]!;
    if (s1.type !== "session") throw new Error("no session event");
    const rest = events((await read(alice, s1.uuid, read1.length)).payload);
    expect(rest.at(-1)).toMatchObject({ type: "stop", status: "done" });
    expect(text([...read1, ...rest])).toBe(chunks.join(""));

    // Nobody reads it: stopped once the limit has passed since the asker left, and saved with what it wrote.
    const aborted = llm.requests.filter((r) => r.aborted).length;
    llm.script({ chunks: Array.from({ length: 300 }, (_, i) => `段${i}`), delayMs: 30 });
    const dropped = await askAndDrop("没人读的回答", 2);
    const left = Date.now();
    const s2 = dropped[0]!;
    if (s2.type !== "session") throw new Error("no session event");
    await expect.poll(async () => (await bot(s2.session_id))?.status, { timeout: UNREAD_MS + 4000, interval: 100 }).toBe("stopped");
    expect(Date.now() - left).toBeGreaterThanOrEqual(UNREAD_MS - 100);
    expect((await bot(s2.session_id)).content).toMatch(/^段0段1/);
    expect(llm.requests.filter((r) => r.aborted).length).toBe(aborted + 1);
  }, 20_000);

  it("another user's, an unknown or an anonymous read is refused before any line", async () => {
    llm.script({ chunks: ["一", "二", "三"] });
    const res = await t.app.inject({
      method: "POST",
      url: `${R}/chat`,
      payload: { token: alice.token, schema_id: agentId, release: false, query: "短回答" },
    });
    const session = events(res.payload)[0]!;
    if (session.type !== "session") throw new Error("no session event");
    expect((await read(bob, session.uuid, 0)).statusCode).toBe(404);
    expect((await read(alice, "00000000-0000-4000-8000-000000000000", 0)).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: `${R}/chat_stream?uuid=${session.uuid}` })).statusCode).toBe(403);
    expect((await read(alice, session.uuid, -1)).statusCode).toBe(400);
    // Bob does not see that the session has a reply running, nor can he read the session at all.
    expect((await t.app.inject({ method: "GET", url: `${R}/session/${session.session_id}`, headers: bob.headers })).statusCode).toBe(404);
  });

  it("a reply whose process died ends for its reader as failed, with the reason in the reader's language", async () => {
    const id = crypto.randomUUID();
    const old = new Date(Date.now() - 120_000);
    await t.platform.db.insert(chatStreams).values({ id, sessionId: crypto.randomUUID(), userId: alice.id, aliveAt: old, createdAt: old });
    const res = await t.app.inject({ method: "GET", url: `${R}/chat_stream?uuid=${id}`, headers: { ...alice.headers, lang: "en" } });
    const evs = events(res.payload);
    expect(evs[0]).toMatchObject({ type: "error", error_code: "restarting", msg: expect.stringContaining("server process stopped") });
    expect(evs.at(-1)).toMatchObject({ type: "stop", status: "failed" });
  }, 15_000);
});
