import { randomUUID } from "node:crypto";
import { parseChatEvents } from "@agentfair/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatMessages, chatSessions } from "../../db/schema/index.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";

/** The spec's client may open a new chat with a session id it generated itself. */
let t: TestApp;
let llm: LlmServer;
let alice: TestUser;
let bob: TestUser;
const agents = new Map<string, string>();
const R = "/agent/agent_runtime";

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k" });
  alice = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  bob = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  for (const u of [alice, bob]) {
    const res = await t.app.inject({ method: "POST", url: "/aiagent_api/agent/quick/add", headers: u.headers, payload: {} });
    agents.set(u.id, res.json().data.agentId);
  }
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

async function chat(user: TestUser, session_id: string, query = "你好") {
  const res = await t.app.inject({
    method: "POST",
    url: `${R}/chat`,
    payload: { token: user.token, schema_id: agents.get(user.id), release: false, query, session_id },
  });
  const evs = res.statusCode === 200 ? parseChatEvents(res.payload) : [];
  return { res, evs };
}
const sessionsWith = (id: string) => t.platform.db.select().from(chatSessions).where(eq(chatSessions.id, id));
const messagesOf = (id: string) => t.platform.db.select().from(chatMessages).where(eq(chatMessages.sessionId, id));

describe("a client-generated session id", () => {
  it("a new UUID creates the caller's session with that id, and later questions append to it", async () => {
    const id = randomUUID();
    const first = await chat(alice, id);
    expect(first.res.statusCode).toBe(200);
    expect(first.evs[0]).toMatchObject({ type: "session", session_id: id });
    expect(first.evs.at(-1)).toMatchObject({ type: "stop", status: "done" });
    const [row] = await sessionsWith(id);
    expect(row).toMatchObject({ userId: alice.id, agentId: agents.get(alice.id) });
    expect((await chat(alice, id, "再问一次")).evs.at(-1)).toMatchObject({ type: "stop", status: "done" });
    expect((await messagesOf(id)).filter((m) => m.role === "user").map((m) => m.content)).toEqual(["你好", "再问一次"]);
    const detail = await t.app.inject({ url: `${R}/session/${id}`, headers: alice.headers });
    expect(detail.json().data.messages).toHaveLength(4);
  });

  it("an id owned by someone else stays not found: no duplicate, nothing appended", async () => {
    const id = randomUUID();
    await chat(alice, id);
    const before = await messagesOf(id);
    const hijack = await chat(bob, id, "偷看");
    expect(hijack.res.statusCode).toBe(404);
    expect(hijack.res.json()).toEqual({ code: 404, msg: "请求的资源不存在", data: null });
    expect(await sessionsWith(id)).toHaveLength(1);
    expect((await sessionsWith(id))[0].userId).toBe(alice.id);
    expect(await messagesOf(id)).toHaveLength(before.length);
  });

  it("attack: two users racing for one new id: one owns it, the other is not found", async () => {
    const id = randomUUID();
    const [a, b] = await Promise.all([chat(alice, id, "甲"), chat(bob, id, "乙")]);
    const codes = [a.res.statusCode, b.res.statusCode].sort();
    expect(codes).toEqual([200, 404]);
    const [row] = await sessionsWith(id);
    const owner = a.res.statusCode === 200 ? alice : bob;
    expect(row.userId).toBe(owner.id);
    expect((await messagesOf(id)).filter((m) => m.role === "user").map((m) => m.content)).toEqual([owner === alice ? "甲" : "乙"]);
  });

  it("an unknown id that is not a UUID is not found", async () => {
    expect((await chat(alice, "not-a-uuid")).res.statusCode).toBe(404);
  });
});
