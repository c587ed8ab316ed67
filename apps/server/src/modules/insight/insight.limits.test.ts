import { randomUUID } from "node:crypto";
import { parseChatEvents } from "@agentfair/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agents, insightReports, planTemplates } from "../../db/schema/index.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";

/** Report agents: the steps stay with the reply (a reopened session shows them), and the daily limit of the member template. */
let t: TestApp;
let llm: LlmServer;
let alice: TestUser;
let bob: TestUser;
let whiteUser: TestUser;
/** Each user's own report agent (its draft, asked as in the studio). */
const agentOf = new Map<string, string>();

const R = "/agent/agent_runtime";
const LIMIT = 2;

async function ask(user: TestUser, query: string, lang = "zh") {
  const res = await t.app.inject({
    method: "POST",
    url: `${R}/chat`,
    headers: { lang },
    payload: { token: user.token, schema_id: agentOf.get(user.id), release: false, query },
  });
  const evs = parseChatEvents(res.payload);
  const session = evs.find((e) => e.type === "session");
  return { evs, sid: session?.type === "session" ? session.session_id : "", uuid: session?.type === "session" ? session.uuid : "" };
}

async function poll(user: TestUser, sid: string) {
  for (let i = 0; i < 120; i++) {
    const body = (await t.app.inject({ url: `${R}/get_insight_url?session_id=${sid}`, headers: user.headers })).json();
    if (body.code === 500 || body.data?.url) return body;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the report never finished");
}

async function makeTable(user: TestUser) {
  const created = await t.app.inject({
    method: "POST",
    url: "/aiagent_api/datatable",
    headers: user.headers,
    payload: {
      name: "sales",
      fields: [
        { name: "region", type: "text" },
        { name: "amount", type: "number" },
      ],
    },
  });
  const id = created.json().data.id;
  for (const r of [
    { region: "华东", amount: 120 },
    { region: "华北", amount: 80 },
  ])
    await t.app.inject({ method: "POST", url: `/aiagent_api/datatable/${id}/rows`, headers: user.headers, payload: r });
}

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k", CHAT_STREAMS_PER_USER: "20" });
  await t.platform.jobs.start({ pollingIntervalSeconds: 0.5 });
  // The MONTHLY template allows LIMIT reports a day; the other levels have no template here (no limit).
  await t.platform.db
    .insert(planTemplates)
    .values({ category: "PERSONAL", memberLevel: "MONTHLY", name: "基础版", monthlyCents: 1000, insightPerDay: LIMIT });
  alice = await createUser(t, { domain: "limacme", memberLevel: "PER_FLAGSHIP_MONTHLY" });
  bob = await createUser(t, { domain: "limacme", memberLevel: "MONTHLY" });
  whiteUser = await createUser(t, { domain: "limacme", memberLevel: "MONTHLY", isWhite: true });
  await makeTable(alice);
  for (const user of [alice, bob, whiteUser]) {
    const id = (await t.app.inject({ method: "POST", url: "/aiagent_api/agent/quick/add", headers: user.headers, payload: {} })).json().data
      .agentId;
    await t.platform.db.update(agents).set({ agentType: "insight" }).where(eq(agents.id, id));
    agentOf.set(user.id, id);
  }
}, 60_000);
afterAll(async () => {
  // The started reports finish before the database closes.
  for (let i = 0; i < 100; i++) {
    const rows = await t.platform.db.select({ status: insightReports.status }).from(insightReports);
    if (rows.every((r) => r.status === "DONE" || r.status === "FAILED")) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await t.close();
  await llm.close();
});

describe("insight steps in the session", () => {
  it("keeps the reply's steps with the message: a reopened session lists them, finished", async () => {
    const { sid, uuid } = await ask(alice, "各地区销售额？");
    const before = (await t.app.inject({ url: `${R}/session/${sid}`, headers: alice.headers })).json().data;
    const reply = before.messages.find((m: { uuid: string }) => m.uuid === uuid);
    expect(reply.insightStep[0]).toMatchObject({ title: "理解问题，规划分析步骤" });
    const done = await poll(alice, sid);
    expect(done.code).toBe(200);
    const after = (await t.app.inject({ url: `${R}/session/${sid}`, headers: alice.headers })).json().data;
    const reopened = after.messages.find((m: { uuid: string }) => m.uuid === uuid);
    expect(reopened.insightStep).toEqual(done.data.insightStep);
    expect(reopened.insightStep.at(-1).stepList[0].url).toBe(done.data.url);
    // The question carries none; the other calls of the session are unchanged.
    expect(after.messages.find((m: { role: string }) => m.role === "user").insightStep).toBeUndefined();
  });
});

describe("the daily report limit (member template insightPerDay)", () => {
  it("lets exactly the limit through when many questions race, and refuses the rest with the message", async () => {
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => ask(bob, `第${i}个问题：各地区销售额？`)));
    const started = results.filter((r) => r.evs.some((e) => e.type === "insight_step"));
    const refused = results.filter((r) => r.evs.some((e) => e.type === "error"));
    expect(started).toHaveLength(LIMIT);
    expect(refused).toHaveLength(6 - LIMIT);
    const error = refused[0].evs.find((e) => e.type === "error");
    expect(error).toMatchObject({ msg: `今日数据分析次数已用完（每日 ${LIMIT} 次），请明天再试或升级会员`, code: 429 });
    const rows = await t.platform.db.select().from(insightReports).where(eq(insightReports.ownerId, bob.id));
    expect(rows).toHaveLength(LIMIT);
    // The refusal is kept with the reply, so the reopened session says it too.
    const detail = (await t.app.inject({ url: `${R}/session/${refused[0].sid}`, headers: bob.headers })).json().data;
    expect(detail.messages.at(-1).error).toContain("今日数据分析次数已用完");
  });
  it("holds under a tighter race on the service itself (every claim in its own transaction)", async () => {
    const racer = await createUser(t, { domain: "limacme", memberLevel: "MONTHLY" });
    const caller = (await t.platform.callers.resolve(racer.token))!;
    const own = (await t.app.inject({ method: "POST", url: "/aiagent_api/agent/quick/add", headers: racer.headers, payload: {} })).json()
      .data.agentId;
    const view = await t.services.agents.runtimeAgent(caller, own, { release: false });
    const tries = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        t.services.insight.start({ caller, agent: view, sessionId: `race-${i}`, messageId: randomUUID(), query: "销售额？", lang: "zh" }),
      ),
    );
    expect(tries.filter((r) => r.status === "fulfilled")).toHaveLength(LIMIT);
    expect(tries.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason.key)).toEqual(
      Array(10 - LIMIT).fill("insightDailyLimit"),
    );
  });
  it("says it in English to an English page", async () => {
    const { evs } = await ask(bob, "sales by region?", "en");
    expect(evs.find((e) => e.type === "error")).toMatchObject({
      msg: `You have used today's ${LIMIT} data analyses; try again tomorrow or upgrade your membership`,
    });
  });
  it("counts per user: another member of the same level and white-listed users are not refused", async () => {
    const { evs } = await ask(whiteUser, "各地区销售额？");
    expect(evs.some((e) => e.type === "insight_step")).toBe(true);
    // A report made before today's midnight (Asia/Shanghai) no longer counts.
    await t.platform.db
      .update(insightReports)
      .set({ createdAt: new Date(Date.now() - 2 * 86_400_000) })
      .where(eq(insightReports.ownerId, bob.id));
    const again = await ask(bob, "再问一次各地区销售额？");
    expect(again.evs.some((e) => e.type === "insight_step")).toBe(true);
  });
});
