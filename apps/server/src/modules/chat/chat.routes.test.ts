import { type ChatEvent, parseChatEvents } from "@agentfair/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../db/schema/index.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { startLlmServer, type LlmServer } from "../../test/llm-server.ts";

let t: TestApp;
let llm: LlmServer;
let alice: TestUser;
let bob: TestUser;
let agentId: string;

const R = "/agent/agent_runtime";
const events = parseChatEvents;
const types = (evs: ChatEvent[]) => evs.map((e) => e.type);

async function newAgent(user: TestUser, name = "测试助手") {
  const res = await t.app.inject({
    method: "POST",
    url: "/aiagent_api/agent/quick/add",
    headers: user.headers,
    payload: { agentName: name },
  });
  expect(res.statusCode).toBe(200);
  return res.json().data.agentId as string;
}

async function chat(user: TestUser, payload: Record<string, unknown>) {
  const res = await t.app.inject({
    method: "POST",
    url: `${R}/chat`,
    payload: { token: user.token, schema_id: agentId, release: false, tenantId: "someone-else", ...payload },
  });
  return { res, evs: res.statusCode === 200 ? events(res.payload) : [] };
}

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k", CHAT_IDLE_TIMEOUT_MS: "800" });
  alice = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  bob = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  agentId = await newAgent(alice);
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

describe("POST /chat stream", () => {
  it("a FREE user on a priced agent is refused before anything is written, and the page knows it in advance", async () => {
    // A member prices their agent, then the membership lapses (FREE users cannot create agents).
    const carol = await createUser(t, { memberLevel: "MONTHLY" });
    const priced = await newAgent(carol, "付费助手");
    const intro = await t.app.inject({
      method: "PUT",
      url: `/agent_api/api/agent/intro/${priced}`,
      headers: carol.headers,
      payload: { agentName: "付费助手", price: 2 },
    });
    expect(intro.statusCode).toBe(200);
    await t.platform.db.update(users).set({ memberLevel: "FREE", memberEndAt: null }).where(eq(users.id, carol.id));
    await t.platform.invalidate("user", carol.id);
    const info = await t.app.inject({ url: `${R}/agent_info?id=${priced}&release=false`, headers: carol.headers });
    expect(info.json().data).toMatchObject({ price: 2, membershipRequired: true });
    const before = llm.requests.length;
    const { res } = await chat(carol, { schema_id: priced, query: "你好" });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe("会员权益功能，请先开通会员!");
    expect(llm.requests.length).toBe(before);
    const list = await t.app.inject({ url: `${R}/session_list?page_number=1&page_size=100&schema_id=${priced}`, headers: carol.headers });
    expect(list.json().data.total).toBe(0);
    const own = await t.app.inject({ url: `${R}/agent_info?id=${agentId}&release=false`, headers: alice.headers });
    expect(own.json().data.membershipRequired).toBe(false);
  });

  it("streams session, progress, content, follow-ups and stop in order; saves the reply once", async () => {
    const { res, evs } = await chat(alice, { query: "你好，介绍一下你自己" });
    expect(res.headers["content-type"]).toContain("application/x-ndjson");
    const order = types(evs);
    expect(order[0]).toBe("session");
    expect(order[1]).toBe("progress");
    expect(order.at(-1)).toBe("stop");
    expect(order.indexOf("content")).toBeLessThan(order.indexOf("questions"));
    const text = evs.flatMap((e) => (e.type === "content" ? [e.delta] : [])).join("");
    expect(text).toBe("你好！你的问题是：你好，介绍一下你自己");
    const questions = evs.find((e) => e.type === "questions");
    expect(questions && questions.type === "questions" && questions.questions).toHaveLength(3);
    const percents = evs.flatMap((e) => (e.type === "progress" ? [e.percent] : []));
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(Math.max(...percents)).toBe(95);
    const stop = evs.at(-1);
    expect(stop).toMatchObject({ type: "stop", status: "done" });
    // the platform trusts its own session, not the body's tenantId; the system prompt carries the persona
    const session = evs[0].type === "session" ? evs[0] : null;
    const detail = await t.app.inject({ method: "GET", url: `${R}/session/${session?.session_id}`, headers: alice.headers });
    const msgs = detail.json().data.messages;
    expect(msgs.map((m: { role: string; status: string | null }) => `${m.role}:${m.status}`)).toEqual(["user:null", "bot:done"]);
    expect(msgs[1].questions).toHaveLength(3);
    expect(detail.json().data.title).toBe("你好，介绍一下你自己".slice(0, 15));
  });

  it("runs the tool loop through the registry (current time, calculator)", async () => {
    const { evs } = await chat(alice, { query: "请计算 (3+4)*6" });
    const order = types(evs);
    expect(order).toContain("tool_call_start");
    const end = evs.find((e) => e.type === "tool_call_end");
    expect(end).toMatchObject({
      type: "tool_call_end",
      error: false,
      toolCall: { function: { name: "calculator" }, metaInfo: { name: "计算器" } },
    });
    expect(end?.type === "tool_call_end" && JSON.parse(end.result).result).toBe(42);
    expect(order.indexOf("tool_call_start")).toBeLessThan(order.indexOf("tool_call_end"));
    expect(order.indexOf("tool_call_end")).toBeLessThan(order.indexOf("content"));
    // the tool result went back to the model in a second step
    const toolTurn = llm.requests
      .filter((r) => r.path.endsWith("/chat/completions"))
      .find((r) => JSON.stringify(r.body).includes('"role":"tool"'));
    expect(toolTurn).toBeTruthy();
    const time = await chat(alice, { query: "现在几点了？" });
    expect(time.evs.find((e) => e.type === "tool_call_start")).toMatchObject({ toolCall: { function: { name: "current_time" } } });
  });

  it("retry (reload) replaces the last reply instead of asking again", async () => {
    const first = await chat(alice, { query: "重试测试" });
    const sid = first.evs[0].type === "session" ? first.evs[0].session_id : "";
    llm.script({ chunks: ["第二次回答"] });
    const again = await chat(alice, { query: "", session_id: sid, reload: true });
    expect(again.evs.at(-1)).toMatchObject({ type: "stop", status: "done" });
    const msgs = (await t.app.inject({ method: "GET", url: `${R}/session/${sid}`, headers: alice.headers })).json().data.messages;
    expect(msgs.map((m: { role: string; content: string }) => `${m.role}:${m.content}`)).toEqual(["user:重试测试", "bot:第二次回答"]);
    // the model saw the question once, as the last message
    const body = llm.requests.filter((r) => r.path.endsWith("/chat/completions") && r.body.stream === true).at(-1)?.body as {
      messages: { content: unknown }[];
    };
    expect(JSON.stringify(body.messages).match(/重试测试/g)?.length).toBe(1);
  });

  it("stops at the step limit when the model keeps calling tools", async () => {
    const loop = { toolCalls: [{ name: "current_time", arguments: "{}" }] };
    llm.script(loop, loop, loop, loop, loop, loop, loop);
    const { evs } = await chat(alice, { query: "loop" });
    expect(evs.filter((e) => e.type === "tool_call_start").length).toBe(5);
    // The reply ends without an answer, and says why.
    expect(evs.find((e) => e.type === "error")).toMatchObject({
      error_code: "stepLimit",
      msg: expect.stringContaining("已达到工具调用次数上限"),
    });
    expect(evs.at(-1)).toMatchObject({ type: "stop", status: "done" });
  });

  it("turns an upstream error into an error event and a failed reply", async () => {
    llm.script({ status: 500, error: "boom" });
    const { evs } = await chat(alice, { query: "出错测试" });
    const err = evs.find((e) => e.type === "error");
    expect(err).toMatchObject({ error_code: "modelUnavailable", msg: "模型服务暂时无法连接，请稍后重试" });
    expect(err?.type === "error" && err.msg).not.toContain("127.0.0.1");
    expect(evs.at(-1)).toMatchObject({ type: "stop", status: "failed" });
  });

  it("ends a stalled stream as failed after the idle timeout", async () => {
    llm.script({ chunks: ["一", "二", "三"], stallAfter: 1 });
    const started = Date.now();
    const { evs } = await chat(alice, { query: "stall" });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(evs.find((e) => e.type === "error")).toMatchObject({ error_code: "modelTimeout", msg: "模型未能及时回答，请稍后重试" });
    expect(evs.at(-1)).toMatchObject({ type: "stop", status: "failed" });
    expect(llm.requests.at(-1)?.aborted).toBe(true);
  });

  it("validates before streaming: empty query, over 1500 bytes, no token, foreign agent", async () => {
    expect((await chat(alice, { query: "   " })).res.statusCode).toBe(400);
    const long = (await chat(alice, { query: "字".repeat(600) })).res;
    expect(long.statusCode).toBe(400);
    expect(long.json().msg).toBe("输入内容不能超过1500字节");
    const anon = await t.app.inject({ method: "POST", url: `${R}/chat`, payload: { query: "hi", schema_id: agentId, release: false } });
    expect(anon.statusCode).toBe(403);
    expect((await chat(bob, { query: "hi" })).res.statusCode).toBe(404);
  });
});

describe("sessions", () => {
  it("isolates users: another user's session id is not found and nothing is appended", async () => {
    const { evs } = await chat(alice, { query: "私密会话" });
    const sid = evs[0].type === "session" ? evs[0].session_id : "";
    const bobAgent = await newAgent(bob);
    const hijack = await chat(bob, { query: "偷看", session_id: sid, schema_id: bobAgent });
    expect(hijack.res.statusCode).toBe(404);
    for (const req of [
      { method: "GET" as const, url: `${R}/session/${sid}` },
      { method: "POST" as const, url: `${R}/update_session_title`, payload: { session_id: sid, new_title: "x" } },
      { method: "POST" as const, url: `${R}/delete_session`, payload: { session_id: sid } },
      { method: "GET" as const, url: `${R}/export?session_id=${sid}` },
      { method: "POST" as const, url: `${R}/share_token`, payload: { session_id: sid } },
    ])
      expect((await t.app.inject({ ...req, headers: bob.headers })).statusCode, req.url).toBe(404);
    const list = await t.app.inject({ method: "GET", url: `${R}/session_list?page_number=1&page_size=100`, headers: bob.headers });
    expect(list.json().data.list.map((s: { session_id: string }) => s.session_id)).not.toContain(sid);
    const detail = await t.app.inject({ method: "GET", url: `${R}/session/${sid}`, headers: alice.headers });
    expect(detail.json().data.messages).toHaveLength(2);
  });

  it("lists, searches, renames (rules), exports and deletes", async () => {
    const { evs } = await chat(alice, { query: "天气怎么样" });
    const sid = evs[0].type === "session" ? evs[0].session_id : "";
    const list = await t.app.inject({
      method: "GET",
      url: `${R}/session_list?page_number=1&page_size=100&search=天气&schema_id=${agentId}`,
      headers: alice.headers,
    });
    expect(list.json().data.list.map((s: { session_id: string }) => s.session_id)).toEqual([sid]);
    // A studio test chat (the draft) is not in the released agent's history, and the other way round.
    const only = async (release: string) =>
      (await t.app.inject({ url: `${R}/session_list?schema_id=${agentId}&release=${release}`, headers: alice.headers }))
        .json()
        .data.list.map((s: { session_id: string }) => s.session_id);
    expect(await only("false")).toContain(sid);
    expect(await only("true")).not.toContain(sid);
    const rename = (new_title: string) =>
      t.app.inject({ method: "POST", url: `${R}/update_session_title`, headers: alice.headers, payload: { session_id: sid, new_title } });
    expect((await rename("  ")).json().msg).toBe("名称不能为空");
    expect((await rename("一二三四五六七八九十一二三四五六")).json().msg).toBe("输入内容不能超过15个字符");
    const ok = await rename("新的名字");
    expect(ok.json()).toMatchObject({ code: 200, msg: "修改成功" });
    const md = await t.app.inject({ method: "GET", url: `${R}/export?session_id=${sid}&format=markdown`, headers: alice.headers });
    expect(md.headers["content-disposition"]).toContain("attachment");
    expect(md.payload).toContain("# 新的名字");
    expect(md.payload).toContain("天气怎么样");
    const json = await t.app.inject({ method: "GET", url: `${R}/export?session_id=${sid}&format=json`, headers: alice.headers });
    expect(JSON.parse(json.payload).messages).toHaveLength(2);
    const del = await t.app.inject({ method: "POST", url: `${R}/delete_session`, headers: alice.headers, payload: { session_id: sid } });
    expect(del.json().msg).toBe("删除成功");
    expect((await t.app.inject({ method: "GET", url: `${R}/session/${sid}`, headers: alice.headers })).statusCode).toBe(404);
  });

  it("share token: read-only for other signed-in users, revocable, tamper-proof", async () => {
    const { evs } = await chat(alice, { query: "分享给朋友" });
    const sid = evs[0].type === "session" ? evs[0].session_id : "";
    const tok = (
      await t.app.inject({ method: "POST", url: `${R}/share_token`, headers: alice.headers, payload: { session_id: sid } })
    ).json().data.shareToken;
    const view = await t.app.inject({ method: "GET", url: `${R}/share?shareToken=${encodeURIComponent(tok)}`, headers: bob.headers });
    expect(view.statusCode).toBe(200);
    expect(view.json().data.session).toMatchObject({ session_id: sid, readOnly: true });
    expect(view.json().data.agent.agentName).toBe("测试助手");
    // read-only: the token gives no write access
    const write = await chat(bob, { query: "我也来", session_id: sid });
    expect(write.res.statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: `${R}/share?shareToken=${encodeURIComponent(tok)}` })).statusCode).toBe(403);
    const forged = `${tok.split(".")[0]}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
    expect((await t.app.inject({ method: "GET", url: `${R}/share?shareToken=${forged}`, headers: bob.headers })).statusCode).toBe(404);
    await t.app.inject({ method: "POST", url: `${R}/revoke_share`, headers: alice.headers, payload: { session_id: sid } });
    expect(
      (await t.app.inject({ method: "GET", url: `${R}/share?shareToken=${encodeURIComponent(tok)}`, headers: bob.headers })).statusCode,
    ).toBe(404);
  });

  it("every finished reply of a released version counts toward the task count; debug runs and failed ones do not", async () => {
    const count = async () =>
      (
        await t.app.inject({
          method: "POST",
          url: `${R}/schema_use_count_by_schema_ids`,
          headers: alice.headers,
          payload: { schema_ids: [agentId] },
        })
      ).json().data[0]?.count ?? 0;
    const before = await count();
    await chat(alice, { query: "调试不计数" });
    expect(await count()).toBe(before);
    const released = await t.app.inject({
      method: "POST",
      url: `/aiagent_api/agent/release/${agentId}`,
      headers: alice.headers,
      payload: { notes: "" },
    });
    expect(released.statusCode).toBe(200);
    await chat(alice, { query: "计数", release: true });
    expect(await count()).toBe(before + 1);
    llm.script({ status: 500 });
    await chat(alice, { query: "失败不计数", release: true });
    expect(await count()).toBe(before + 1);
  });

  it("heartbeat and agent info", async () => {
    const hb = await t.app.inject({
      method: "POST",
      url: `${R}/usage_heartbeat`,
      headers: alice.headers,
      payload: { agentId, sessionId: null, types: "1", tags: "", categorys: "" },
    });
    expect(hb.statusCode).toBe(200);
    const info = await t.app.inject({ method: "GET", url: `${R}/agent_info?id=${agentId}&release=false`, headers: alice.headers });
    expect(info.json().data.skills).toEqual(["当前时间", "计算器"]);
    expect(info.json().data.chatCount).toBeGreaterThan(0);
  });
});

describe("no model", () => {
  it("a send without a usable model gets a translated error event naming Model management", async () => {
    const bare = await createTestApp();
    try {
      const u = await createUser(bare, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
      const id = (await bare.app.inject({ method: "POST", url: "/aiagent_api/agent/quick/add", headers: u.headers, payload: {} })).json()
        .data.agentId;
      const res = await bare.app.inject({
        method: "POST",
        url: `${R}/chat`,
        payload: { token: u.token, schema_id: id, release: false, query: "hi" },
      });
      const evs = events(res.payload);
      expect(evs.find((e) => e.type === "error")).toMatchObject({ msg: expect.stringContaining("模型管理") });
      expect(evs.at(-1)).toMatchObject({ type: "stop", status: "failed" });
      const en = await bare.app.inject({
        method: "POST",
        url: `${R}/chat`,
        headers: { lang: "en" },
        payload: { token: u.token, schema_id: id, release: false, query: "hi" },
      });
      expect(events(en.payload).find((e) => e.type === "error")).toMatchObject({ msg: expect.stringContaining("Model management") });
    } finally {
      await bare.close();
    }
  });
});
