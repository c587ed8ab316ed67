import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatMessages, chatSessions } from "../../db/schema/index.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";

/**
 * Conversation details and tuning records: the agent's owner sees every session of the agent
 * (other users' too), by range, with totals and feedback; nobody else sees any of it.
 */
let t: TestApp;
let llm: LlmServer;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let agentId: string;
let otherAgent: string;
let aliceSession: string;
let bobSession: string;

const call = async (user: TestUser, method: "GET" | "POST" | "DELETE", url: string, payload?: unknown) => {
  const res = await t.app.inject({ method, url, payload: payload as never, headers: user.headers });
  // biome-ignore lint/suspicious/noExplicitAny: route answers of many shapes, checked by the assertions
  return { status: res.statusCode, ...(res.json() as { code: number; msg: string; data: any }) };
};
const A = (path: string) => `/aiagent_api/agent/${agentId}${path}`;

async function chat(user: TestUser, id: string, query: string, release = true) {
  const res = await t.app.inject({
    method: "POST",
    url: "/agent/agent_runtime/chat",
    payload: { token: user.token, schema_id: id, release, query },
  });
  return /"session_id":"([^"]+)"/.exec(res.body)?.[1] ?? "";
}

async function sessionAs(user: TestUser, daysAgo: number, question: string, answer: string) {
  const at = new Date(Date.now() - daysAgo * 24 * 60 * 60 * 1000);
  const [s] = await t.platform.db
    .insert(chatSessions)
    .values({ userId: user.id, tenantId: user.tenantId, agentId, title: question, titled: true, createdAt: at, updatedAt: at })
    .returning();
  await t.platform.db.insert(chatMessages).values([
    { sessionId: s.id, role: "user", content: question, createdAt: at },
    {
      sessionId: s.id,
      role: "bot",
      content: answer,
      status: "done",
      inputTokens: 40,
      outputTokens: 9,
      createdAt: new Date(at.getTime() + 1000),
    },
  ]);
  return s.id;
}

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k" });
  alice = await createUser(t, { domain: "convacme", memberLevel: "PER_FLAGSHIP_MONTHLY" });
  bob = await createUser(t, { domain: "convacme", memberLevel: "PER_FLAGSHIP_MONTHLY" });
  carol = await createUser(t, { domain: "convother", memberLevel: "PER_FLAGSHIP_MONTHLY" });
  agentId = (await call(alice, "POST", "/aiagent_api/agent/quick/add", { agentName: "客服" })).data.agentId;
  otherAgent = (await call(alice, "POST", "/aiagent_api/agent/quick/add", { agentName: "另一个" })).data.agentId;
  aliceSession = await chat(alice, agentId, "退货流程是什么", false);
  // A hirer's session (as a robot guest's or a marketplace user's would be), and one older than a month.
  bobSession = await sessionAs(bob, 10, "发票怎么开", "在订单页申请。");
  await sessionAs(bob, 40, "很久以前的问题", "很久以前的回答");
  await chat(alice, otherAgent, "别的智能体", false);
}, 60_000);
afterAll(async () => {
  await t.close();
  await llm.close();
});

describe("conversation details", () => {
  it("lists every session of the agent by range, with tokens and feedback; the asker gives feedback on replies only", async () => {
    const detail = await call(alice, "GET", A(`/conversations/${aliceSession}`));
    expect(detail.status).toBe(200);
    const [question, reply] = detail.data.list;
    expect(question.role).toBe("user");
    expect(reply.role).toBe("bot");
    const like = (message_id: string, user: TestUser, feedback: string | null = "like") =>
      call(user, "POST", "/agent/agent_runtime/message/feedback", { message_id, feedback });
    expect((await like(reply.id, alice)).status).toBe(200);
    expect((await like(question.id, alice)).msg).toBe("只能对回答进行反馈或调优");
    // Someone else's reply: not found.
    expect((await like(reply.id, bob)).status).toBe(404);

    const week = await call(alice, "GET", A("/conversations?days=7"));
    expect(week.data.list.map((s: { sessionId: string }) => s.sessionId)).toEqual([aliceSession]);
    expect(week.data.list[0]).toMatchObject({ messages: 2, likes: 1, dislikes: 0, release: false, username: alice.username });
    expect(week.data.list[0].inputTokens).toBeGreaterThan(0);
    const fortnight = await call(alice, "GET", A("/conversations?days=15"));
    expect(fortnight.data.total).toBe(2);
    const bobs = fortnight.data.list.find((s: { sessionId: string }) => s.sessionId === bobSession);
    expect(bobs).toMatchObject({ username: bob.username, inputTokens: 40, outputTokens: 9, messages: 2 });
    expect((await call(alice, "GET", A("/conversations?days=30"))).data.total).toBe(2);
    // Only the spec's ranges.
    expect((await call(alice, "GET", A("/conversations?days=8"))).status).toBe(400);
  });

  it("exports the range as CSV and xlsx", async () => {
    const csv = await t.app.inject({ method: "GET", url: A("/conversations/export?days=15&format=csv"), headers: alice.headers });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    expect(csv.body).toContain("会话ID");
    expect(csv.body).toContain("发票怎么开");
    expect(csv.body).not.toContain("很久以前");
    const xlsx = await t.app.inject({
      method: "GET",
      url: A("/conversations/export?days=30&format=xlsx"),
      headers: { ...alice.headers, lang: "en" },
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).getCell(1).value).toBe("Session ID");
    expect(sheet.rowCount).toBe(5);
  });

  it("is the owner's only: other users, other tenants and other agents' sessions are not found", async () => {
    for (const user of [bob, carol]) {
      expect((await call(user, "GET", A("/conversations?days=7"))).status).toBe(404);
      expect((await call(user, "GET", A(`/conversations/${aliceSession}`))).status).toBe(404);
      expect((await t.app.inject({ method: "GET", url: A("/conversations/export?days=7"), headers: user.headers })).statusCode).toBe(404);
      expect((await call(user, "GET", A("/tuning"))).status).toBe(404);
    }
    // A session of another agent through this agent's path.
    const [other] = (await call(alice, "GET", `/aiagent_api/agent/${otherAgent}/conversations?days=7`)).data.list;
    expect((await call(alice, "GET", A(`/conversations/${other.sessionId}`))).status).toBe(404);
    expect([401, 403]).toContain((await t.app.inject({ method: "GET", url: A("/conversations?days=7") })).statusCode);
  });
});

describe("tuning records", () => {
  it("keeps a note and a corrected answer per reply, and pushes it into a chosen knowledge base as a Q&A pair", async () => {
    const detail = (await call(alice, "GET", A(`/conversations/${bobSession}`))).data;
    const reply = detail.list.find((m: { role: string }) => m.role === "bot");
    const question = detail.list.find((m: { role: string }) => m.role === "user");
    expect((await call(alice, "POST", A("/tuning"), { messageId: reply.id })).msg).toBe("请填写备注或修正后的回答");
    expect((await call(alice, "POST", A("/tuning"), { messageId: question.id, note: "x" })).status).toBe(400);
    const first = await call(alice, "POST", A("/tuning"), { messageId: reply.id, note: "回答太简略" });
    expect(first.data).toMatchObject({ question: "发票怎么开", answer: "在订单页申请。", note: "回答太简略" });
    expect((await call(alice, "POST", A(`/tuning/${first.data.id}/knowledge`), { knowledgeId: "x" })).msg).toBe("请先填写修正后的回答");
    const corrected = "在“我的订单”中选择订单，点击“申请发票”，填写抬头和税号。";
    const saved = await call(alice, "POST", A("/tuning"), { messageId: reply.id, note: "回答太简略", correctedAnswer: corrected });
    expect(saved.data.id).toBe(first.data.id);
    expect((await call(alice, "GET", A(`/conversations/${bobSession}`))).data.list[1].tuningId).toBe(saved.data.id);
    // Bob cannot tune Alice's agent, even on his own session's reply.
    expect((await call(bob, "POST", A("/tuning"), { messageId: reply.id, note: "hi" })).status).toBe(404);
    // A reply of another agent cannot be tuned through this agent.
    const other = (await call(alice, "GET", `/aiagent_api/agent/${otherAgent}/conversations?days=7`)).data.list[0];
    const otherReply = (await call(alice, "GET", `/aiagent_api/agent/${otherAgent}/conversations/${other.sessionId}`)).data.list[1];
    expect((await call(alice, "POST", A("/tuning"), { messageId: otherReply.id, note: "x" })).status).toBe(404);

    const kb = (await call(alice, "POST", "/wendao_api/wendao/knowledge", { name: "售后问答" })).data;
    const bobKb = (await call(bob, "POST", "/wendao_api/wendao/knowledge", { name: "鲍勃的库" })).data;
    // Someone else's knowledge base is refused by the knowledge module's own check.
    expect((await call(alice, "POST", A(`/tuning/${saved.data.id}/knowledge`), { knowledgeId: bobKb.id })).status).toBeGreaterThanOrEqual(
      403,
    );
    const pushed = await call(alice, "POST", A(`/tuning/${saved.data.id}/knowledge`), { knowledgeId: kb.id });
    expect(pushed.data).toMatchObject({ knowledgeId: kb.id });
    expect(pushed.data.pushedAt).toBeTruthy();
    const segments = await call(alice, "GET", `/wendao_api/wendao/knowledge/${kb.id}/segments?qa=true`);
    expect(JSON.stringify(segments.data)).toContain("发票怎么开");
    expect(JSON.stringify(segments.data)).toContain("申请发票");

    expect((await call(alice, "GET", A("/tuning"))).data).toHaveLength(1);
    expect((await call(bob, "DELETE", A(`/tuning/${saved.data.id}`))).status).toBe(404);
    expect((await call(alice, "DELETE", A(`/tuning/${saved.data.id}`))).status).toBe(200);
    expect((await call(alice, "GET", A("/tuning"))).data).toHaveLength(0);
  });
});
