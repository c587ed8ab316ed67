import { parseChatEvents } from "@agentfair/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { startLlmServer, type LlmServer } from "../../test/llm-server.ts";
import { agentSteps } from "../agents/agents.fixtures.ts";

/** Memory variables: each user's values, user-wide or per session, in the prompt, written by the model and by the user. */
let t: TestApp;
let llm: LlmServer;
let alice: TestUser;
let bob: TestUser;
let agentId: string;

const R = "/agent/agent_runtime";
const events = parseChatEvents;

async function chat(user: TestUser, query: string, sessionId?: string) {
  const res = await t.app.inject({
    method: "POST",
    url: `${R}/chat`,
    payload: { token: user.token, schema_id: agentId, release: false, query, ...(sessionId ? { session_id: sessionId } : {}) },
  });
  const evs = events(res.payload);
  const first = evs[0];
  return { evs, sessionId: first?.type === "session" ? first.session_id : "" };
}

const memory = (user: TestUser, sessionId?: string) =>
  t.app.inject({
    method: "GET",
    url: `${R}/memory?schema_id=${agentId}&release=false${sessionId ? `&session_id=${sessionId}` : ""}`,
    headers: user.headers,
  });
const set = (user: TestUser, body: Record<string, unknown>) =>
  t.app.inject({ method: "POST", url: `${R}/memory`, headers: user.headers, payload: { schema_id: agentId, release: false, ...body } });
const reset = (user: TestUser, body: Record<string, unknown>) =>
  t.app.inject({
    method: "POST",
    url: `${R}/memory/reset`,
    headers: user.headers,
    payload: { schema_id: agentId, release: false, ...body },
  });
const valueIn = (list: { name: string; value: string }[], name: string) => list.find((m) => m.name === name)?.value;
/** The system prompt the model got last (the reply's call, not the follow-up questions' call). */
const lastSystem = () => {
  const call = llm.requests.filter((r) => Array.isArray(r.body.tools)).at(-1);
  const messages = (call?.body.messages ?? []) as { role: string; content: unknown }[];
  return String(messages.find((m) => m.role === "system")?.content ?? "");
};

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k" });
  alice = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  bob = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  agentId = (await t.app.inject({ method: "POST", url: "/aiagent_api/agent/quick/add", headers: alice.headers, payload: {} })).json().data
    .agentId;
  const draft = (await t.app.inject({ method: "GET", url: `/aiagent_api/agent/draft/${agentId}`, headers: alice.headers })).json().data;
  const put = await t.app.inject({
    method: "PUT",
    url: `/aiagent_api/agent/draft/${agentId}`,
    headers: alice.headers,
    payload: {
      ...(draft.draft ?? draft),
      persona: "你是旅行顾问，用户住在{{城市}}。",
      variables: [
        { name: "城市", default: "北京", description: "用户所在城市" },
        { name: "话题", default: "无", description: "本次对话的话题", scope: "session" },
      ],
    },
  });
  expect(put.statusCode, put.body).toBe(200);
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

describe("memory variables", () => {
  it("start at their defaults, which the prompt uses", async () => {
    const res = await memory(alice);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.list).toEqual([
      { name: "城市", description: "用户所在城市", default: "北京", scope: "user", value: "北京", updatedAt: null },
      { name: "话题", description: "本次对话的话题", default: "无", scope: "session", value: "无", updatedAt: null },
    ]);
    await chat(alice, "你好");
    expect(lastSystem()).toContain("用户住在北京");
  });

  it("a user's value goes into the prompt in every session", async () => {
    const res = await set(alice, { name: "城市", value: "杭州" });
    expect(res.statusCode).toBe(200);
    expect(valueIn(res.json().data.list, "城市")).toBe("杭州");
    await chat(alice, "推荐景点");
    expect(lastSystem()).toContain("用户住在杭州");
    expect(lastSystem()).toContain("城市（用户所在城市）：杭州");
    // Bob cannot reach Alice's draft at all.
    expect((await memory(bob)).statusCode).toBe(404);
  });

  it("on a listed agent each user has their own values", async () => {
    const s = agentSteps(t);
    const admin = await createUser(t, { username: "admin" });
    const listed = await s.listed(alice, admin, {
      patch: { persona: "用户住在{{城市}}。", variables: [{ name: "城市", default: "北京", description: "" }] },
      name: "记忆助手",
    });
    const q = (user: TestUser, body?: object) =>
      body
        ? t.app.inject({
            method: "POST",
            url: `${R}/memory`,
            headers: user.headers,
            payload: { schema_id: listed, release: true, ...body },
          })
        : t.app.inject({ method: "GET", url: `${R}/memory?schema_id=${listed}`, headers: user.headers });
    expect((await q(bob, { name: "城市", value: "广州" })).statusCode).toBe(200);
    expect(valueIn((await q(bob)).json().data.list, "城市")).toBe("广州");
    expect(valueIn((await q(alice)).json().data.list, "城市")).toBe("北京");
    await t.app.inject({
      method: "POST",
      url: `${R}/chat`,
      payload: { token: bob.token, schema_id: listed, release: true, query: "你好" },
    });
    expect(lastSystem()).toContain("用户住在广州");
  });

  it("the model remembers through update_memory; the next question uses the new value", async () => {
    llm.script({ toolCalls: [{ name: "update_memory", arguments: JSON.stringify({ name: "城市", value: "成都" }) }] });
    const { evs } = await chat(alice, "我搬到成都了");
    const call = evs.find((e) => e.type === "tool_call_end");
    expect(call).toMatchObject({ type: "tool_call_end", error: false, toolCall: { function: { name: "update_memory" } } });
    expect(valueIn((await memory(alice)).json().data.list, "城市")).toBe("成都");
    await chat(alice, "周末去哪");
    expect(lastSystem()).toContain("用户住在成都");
  });

  it("a session variable is kept per session: a new session starts at the default, deleting it forgets it", async () => {
    expect((await set(alice, { name: "话题", value: "美食" })).json()).toMatchObject({ code: 400, msg: "会话级记忆变量需要先开始会话" });
    const one = await chat(alice, "第一个会话");
    expect((await set(alice, { name: "话题", value: "美食", session_id: one.sessionId })).statusCode).toBe(200);
    await chat(alice, "继续", one.sessionId);
    expect(lastSystem()).toContain("话题（本次对话的话题）：美食");
    const two = await chat(alice, "第二个会话");
    expect(lastSystem()).toContain("话题（本次对话的话题）：无");
    expect(valueIn((await memory(alice, two.sessionId)).json().data.list, "话题")).toBe("无");
    expect(valueIn((await memory(alice, one.sessionId)).json().data.list, "话题")).toBe("美食");
    // The model writes the session's value in its own session.
    llm.script({ toolCalls: [{ name: "update_memory", arguments: JSON.stringify({ name: "话题", value: "徒步" }) }] });
    await chat(alice, "聊聊徒步", two.sessionId);
    expect(valueIn((await memory(alice, two.sessionId)).json().data.list, "话题")).toBe("徒步");
    expect(valueIn((await memory(alice, one.sessionId)).json().data.list, "话题")).toBe("美食");

    await t.app.inject({ method: "POST", url: `${R}/delete_session`, headers: alice.headers, payload: { session_id: one.sessionId } });
    const left = await t.app.inject({
      method: "POST",
      url: `${R}/memory`,
      headers: alice.headers,
      payload: { schema_id: agentId, release: false, session_id: one.sessionId, name: "话题", value: "x" },
    });
    expect(left.statusCode).toBe(404);
  });

  it("reset puts one variable, or all of them, back to the default", async () => {
    const { sessionId } = await chat(alice, "重置测试");
    await set(alice, { name: "话题", value: "音乐", session_id: sessionId });
    const one = await reset(alice, { name: "城市", session_id: sessionId });
    expect(one.json().data.list).toMatchObject([
      { name: "城市", value: "北京", updatedAt: null },
      { name: "话题", value: "音乐" },
    ]);
    await set(alice, { name: "城市", value: "上海" });
    const all = await reset(alice, { session_id: sessionId });
    expect(all.json().data.list.map((m: { value: string }) => m.value)).toEqual(["北京", "无"]);
  });

  it("refuses unknown variables, long values, another user's session and agents the caller cannot use", async () => {
    expect((await set(alice, { name: "不存在", value: "x" })).json()).toMatchObject({ code: 400, msg: "没有这个记忆变量：不存在" });
    expect((await set(alice, { name: "城市", value: "长".repeat(501) })).statusCode).toBe(400);
    const { sessionId } = await chat(alice, "隔离测试");
    // Bob cannot use Alice's draft, nor name her session with an agent of his own.
    expect((await memory(bob, sessionId)).statusCode).toBe(404);
    const bobsAgent = (
      await t.app.inject({ method: "POST", url: "/aiagent_api/agent/quick/add", headers: bob.headers, payload: {} })
    ).json().data.agentId;
    const foreign = await t.app.inject({
      method: "GET",
      url: `${R}/memory?schema_id=${bobsAgent}&release=false&session_id=${sessionId}`,
      headers: bob.headers,
    });
    expect(foreign.statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: `${R}/memory?schema_id=${agentId}&release=false` })).statusCode).toBe(403);
    // An agent without variables has no memory and no update_memory tool.
    const plain = await t.app.inject({ method: "GET", url: `${R}/memory?schema_id=${bobsAgent}&release=false`, headers: bob.headers });
    expect(plain.json().data.list).toEqual([]);
  });
});
