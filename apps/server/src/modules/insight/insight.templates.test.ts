import { INSIGHT_CATEGORIES, parseChatEvents } from "@agentfair/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agents, chatInsights, insightReports } from "../../db/schema/index.ts";
import { createDataTable, ORDER_FIELDS, randomIp, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { DEMO_PASSWORD, seedDemo } from "../../seed/demo.ts";

/**
 * The special categories as marketplace templates, with the demo data and the offline demo model
 * only (no model service): hire, copy, ask, and get a chart, a dashboard, a Word file, a slide deck
 * or an industry report; the member plan's `types` gates them. And chat insight's demo.
 */
let t: TestApp;
let member: TestUser;
let free: TestUser;
const R = "/agent/agent_runtime";
const B = "/prod-api/dashboard/tReportBuilder";
const template = new Map<string, string>();
let marketCards: { agentName: string; agentType: string | null; insightCategory: string | null }[] = [];

async function login(username: string): Promise<TestUser> {
  const res = await t.app.inject({
    method: "POST",
    url: "/agent_api/api/auth/login",
    payload: { username, password: DEMO_PASSWORD, domain: "" },
    remoteAddress: randomIp(),
  });
  const token = res.json().data.token as string;
  return { id: "", username, tenantId: "", domain: "", token, headers: { authorization: `Bearer ${token}` } };
}

async function ask(user: TestUser, agentId: string, query: string) {
  const res = await t.app.inject({
    method: "POST",
    url: `${R}/chat`,
    payload: { token: user.token, schema_id: agentId, release: true, query },
  });
  const evs = parseChatEvents(res.payload);
  const session = evs.find((e) => e.type === "session");
  return { evs, sid: session?.type === "session" ? session.session_id : "" };
}

async function poll(user: TestUser, sid: string) {
  for (let i = 0; i < 150; i++) {
    const body = (await t.app.inject({ url: `${R}/get_insight_url?session_id=${sid}`, headers: user.headers })).json();
    if (body.code === 500 || body.data?.url) return body;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the report never finished");
}

async function report(user: TestUser, sid: string) {
  const done = await poll(user, sid);
  expect(done).toMatchObject({ code: 200 });
  const got = await t.app.inject({ url: `${B}/report?id=${done.data.reportId}`, headers: user.headers });
  return { poll: done.data, report: got.json().data };
}

beforeAll(async () => {
  t = await createTestApp({ SEED_DEMO: "1", CHAT_STREAMS_PER_USER: "20" });
  expect(await seedDemo(t.platform.db, t.services.tenants)).toBe(true);
  await t.platform.jobs.start({ pollingIntervalSeconds: 0.5 });
  member = await login("member");
  free = await login("free");
  const market = await t.app.inject({ method: "POST", url: "/agent_api/api/agent/launch/page", headers: member.headers, payload: {} });
  for (const card of market.json().data.list) if (card.agentType === "insight") template.set(card.agentName, card.agentId);
  marketCards = market.json().data.list;
}, 120_000);
afterAll(async () => {
  for (let i = 0; i < 100; i++) {
    const rows = await t.platform.db.select({ status: insightReports.status }).from(insightReports);
    if (rows.every((r) => r.status === "DONE" || r.status === "FAILED")) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await t.close();
});

describe("the special categories as marketplace templates", () => {
  it("are listed report agents, one per category, under the label 数据分析", async () => {
    expect([...template.keys()]).toEqual(
      expect.arrayContaining(["ChatBI 问数", "对话仪表盘", "ChatWord 报告", "ChatPPT 演示", "行业报告生成"]),
    );
    const rows = await t.platform.db.select().from(agents).where(eq(agents.agentType, "insight"));
    const categories = rows.map((r) => r.config.insightCategory).filter(Boolean);
    expect(new Set(categories)).toEqual(new Set(INSIGHT_CATEGORIES));
    // each card carries its category, which the web shows as the card's tag
    const tagged = marketCards.filter((c) => c.agentType === "insight").map((c) => [c.agentName, c.insightCategory]);
    expect(tagged).toEqual(
      expect.arrayContaining([
        ["ChatBI 问数", "chatBi"],
        ["对话仪表盘", "chat dashboard"],
        ["ChatWord 报告", "chatWord"],
        ["ChatPPT 演示", "chatPPT"],
        ["行业报告生成", "industry report"],
      ]),
    );
    expect(marketCards.filter((c) => c.agentType !== "insight").every((c) => c.insightCategory === null)).toBe(true);
    const labels = (await t.app.inject({ url: "/agent_api/api/lables/list", headers: member.headers })).json().data;
    expect(labels.map((l: { labelName: string }) => l.labelName)).toContain("数据分析");
  });

  it("chatBi, hired: one chart answers the question (offline model over the demo orders table)", async () => {
    const { sid } = await ask(member, template.get("ChatBI 问数") as string, "各客户的消费额是多少？");
    const { report: r } = await report(member, sid);
    expect(r.category).toBe("chatBi");
    expect(r.blocks.filter((b: { kind: string }) => b.kind === "chart")).toHaveLength(1);
    expect(r.blocks[0]).toMatchObject({ kind: "text", content: expect.stringContaining("最高的是") });
  });

  it("chat dashboard: several charts from one question", async () => {
    const { sid } = await ask(member, template.get("对话仪表盘") as string, "订单数据的仪表盘");
    const { report: r } = await report(member, sid);
    expect(r.blocks.filter((b: { kind: string }) => b.kind === "chart").length).toBeGreaterThanOrEqual(2);
    expect(r.blocks.some((b: { chartType?: string }) => b.chartType === "line")).toBe(true);
  });

  it("chatWord: the reply offers the Word file, which downloads as a .docx", async () => {
    const { sid } = await ask(member, template.get("ChatWord 报告") as string, "写一份订单数据分析报告");
    const { poll: p } = await report(member, sid);
    expect(p.category).toBe("chatWord");
    const file = p.insightStep.at(-1).stepList.find((s: { url: string }) => s.url.includes("format=docx"));
    expect(file).toMatchObject({ learning: "Word 报告已生成，可下载" });
    const res = await t.app.inject({ url: file.url, headers: member.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("wordprocessingml");
    expect(res.rawPayload.subarray(0, 2).toString()).toBe("PK");
    // the file is the asker's: another user gets nothing
    expect((await t.app.inject({ url: file.url, headers: free.headers })).json().code).toBe(404);
  });

  it("chatPPT, copied into my agents: the copy keeps its category and answers with a deck", async () => {
    const copied = await t.app.inject({
      method: "POST",
      url: `/agent_api/api/agent/quick/copy-from-launch/${template.get("ChatPPT 演示")}`,
      headers: member.headers,
    });
    const copyId = copied.json().data.agentId;
    const { sid } = await ask(member, copyId, "把每月订单金额趋势做成演示文稿");
    const { poll: p, report: r } = await report(member, sid);
    expect(r).toMatchObject({ agentId: copyId, category: "chatPPT" });
    // the question names a trend: the offline model draws it first
    expect(r.blocks[1]).toMatchObject({ kind: "chart", chartType: "line" });
    const file = p.insightStep.at(-1).stepList.find((s: { url: string }) => s.url.includes("format=pptx"));
    const res = await t.app.inject({ url: file.url, headers: member.headers });
    expect(res.headers["content-type"]).toContain("presentationml");
    expect(res.rawPayload.subarray(0, 2).toString()).toBe("PK");
  });

  it("industry report, hired: a long-form report in four sections that cites the template's bound knowledge base", async () => {
    const { sid } = await ask(member, template.get("行业报告生成") as string, "结合订单数据写一份行业分析报告");
    const { poll: p, report: r } = await report(member, sid);
    expect(p.insightStep[0]).toMatchObject({
      title: "检索知识库资料",
      stepList: [{ learning: expect.stringMatching(/^找到 [1-9]\d* 段相关资料$/) }],
    });
    expect(r.blocks[0]).toMatchObject({ kind: "text", title: "行业报告" });
    for (const h of ["## 概述", "## 数据分析", "## 趋势与风险", "## 建议"]) expect(r.blocks[0].content).toContain(h);
    expect(r.blocks[0].content).toMatch(/(零售电商的订单季节性|客户集中度与行业风险|未付款订单与回款) \[1\]/);
    const sources = r.blocks.at(-1);
    expect(sources).toMatchObject({ kind: "text", title: "参考资料" });
    expect(sources.content).toMatch(/^- \[1\] (零售电商的订单季节性|客户集中度与行业风险|未付款订单与回款)/);
  });

  it("the member plan's types gate them: the free plan has chatBi only", async () => {
    const refused = await ask(free, template.get("ChatPPT 演示") as string, "做成演示文稿");
    expect(refused.evs.find((e) => e.type === "error")).toMatchObject({ msg: "当前会员方案不包含「chatPPT」能力，请升级会员后使用" });
    expect(await t.platform.db.select().from(insightReports).where(eq(insightReports.sessionId, refused.sid))).toHaveLength(0);
    // On the public platform a report reads the asker's own tables only (never the member's demo orders).
    await createDataTable(t, free, "orders", ORDER_FIELDS, [
      { customer: "甲", amount: 10 },
      { customer: "乙", amount: 20 },
    ]);
    const { sid } = await ask(free, template.get("ChatBI 问数") as string, "各客户的消费额是多少？");
    expect((await poll(free, sid)).code).toBe(200);
  });
});

describe("chat insight demo", () => {
  it("the member's after-sales agent has an analysed conversation, and a new one is analysed by the offline model", async () => {
    const [seeded] = await t.platform.db.select().from(chatInsights);
    expect(seeded).toMatchObject({ status: "DONE", analysis: expect.objectContaining({ sentiment: "negative" }) });
    const agentId = seeded.agentId;
    const list = async () =>
      (await t.app.inject({ url: `${R}/chat_insight_list?agent_id=${agentId}&page_number=1&page_size=10`, headers: member.headers })).json()
        .data;
    expect((await list()).total).toBe(1);
    const { sid } = await ask(member, agentId, "换货要多久？谢谢");
    let item: { status: string; analysis: { topics: string[]; sentiment: string } } | undefined;
    for (let i = 0; i < 100 && item?.status !== "DONE"; i++) {
      item = (await list()).list.find((x: { sessionId: string }) => x.sessionId === sid);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(item).toMatchObject({ status: "DONE", analysis: { topics: ["换货要多久？谢谢"], sentiment: "positive" } });
  });
});
