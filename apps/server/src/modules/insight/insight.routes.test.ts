import { parseChatEvents } from "@agentfair/contracts";
import { eq } from "drizzle-orm";
import JSZip from "jszip";
import { extractText } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agents, insightReports } from "../../db/schema/index.ts";
import { createUser, randomIp, TEST_PASSWORD, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { seedInsight } from "./insight.seed.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";

/** Report agents: the chat starts a job, the poll follows it, reports stay their asker's. */
let t: TestApp;
let llm: LlmServer;
let alice: TestUser;
let stranger: TestUser;
let agentId: string;
let aliceReportToken: string;
let ordersId: string;

const R = "/agent/agent_runtime";
const P = "/prod-api/dashboard/tReportBuilder";
const get = (user: TestUser | null, url: string, token?: string) =>
  t.app.inject({ method: "GET", url, headers: token ? { authorization: `Bearer ${token}` } : (user?.headers ?? {}) });

async function ask(query: string) {
  const res = await t.app.inject({
    method: "POST",
    url: `${R}/chat`,
    payload: { token: alice.token, schema_id: agentId, release: false, query },
  });
  const evs = parseChatEvents(res.payload);
  return { evs, sid: evs[0]?.type === "session" ? evs[0].session_id : "" };
}

/** Polls as the page does (but faster): until a url, or code 500. */
async function poll(sid: string) {
  for (let i = 0; i < 120; i++) {
    const body = (await get(alice, `${R}/get_insight_url?session_id=${sid}`)).json();
    if (body.code === 500 || body.data?.url) return body;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("the report never finished");
}

async function makeTable(user: TestUser, rows: { customer: string; amount: number; order_date?: string; paid?: boolean }[]) {
  const created = await t.app.inject({
    method: "POST",
    url: "/aiagent_api/datatable",
    headers: user.headers,
    payload: {
      name: "orders",
      fields: [
        { name: "customer", type: "text" },
        { name: "amount", type: "number" },
        { name: "order_date", type: "date" },
        { name: "paid", type: "boolean" },
      ],
    },
  });
  const id = created.json().data.id;
  for (const r of rows) await t.app.inject({ method: "POST", url: `/aiagent_api/datatable/${id}/rows`, headers: user.headers, payload: r });
  return id as string;
}

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k" });
  await t.platform.jobs.start({ pollingIntervalSeconds: 0.5 });
  alice = await createUser(t, { domain: "insacme", memberLevel: "PER_FLAGSHIP_MONTHLY" });
  stranger = await createUser(t, { domain: "insother", memberLevel: "PER_FLAGSHIP_MONTHLY" });
  const login = await t.app.inject({
    method: "POST",
    url: "/agent_api/api/auth/login",
    payload: { username: alice.username, password: TEST_PASSWORD, domain: alice.domain },
    remoteAddress: randomIp(),
  });
  aliceReportToken = login.json().data.reportToken;
  ordersId = await makeTable(alice, [
    { customer: "张三", amount: 100, order_date: "2026-01-05", paid: true },
    { customer: "李四", amount: 300, order_date: "2026-02-09", paid: false },
    { customer: "张三", amount: 50, order_date: "2026-02-20", paid: true },
  ]);
  // The other tenant's table of the same name holds other customers: never in Alice's reports.
  await makeTable(stranger, [{ customer: "外人", amount: 999 }]);
  agentId = (await t.app.inject({ method: "POST", url: "/aiagent_api/agent/quick/add", headers: alice.headers, payload: {} })).json().data
    .agentId;
  await t.platform.db.update(agents).set({ agentType: "insight" }).where(eq(agents.id, agentId));
}, 60_000);
afterAll(async () => {
  await t.close();
  await llm.close();
});

describe("a report agent", () => {
  let sid = "";
  let reportId = "";
  it("streams the first insight step, then the poll gives the report page once the job is done", async () => {
    const { evs, sid: s } = await ask("各客户的消费额是多少？");
    sid = s;
    const step = evs.find((e) => e.type === "insight_step");
    expect(step).toMatchObject({ insightStep: [{ title: "理解问题，规划分析步骤", isEnd: false, stepList: [] }] });
    expect(evs.at(-1)).toMatchObject({ type: "stop", status: "done" });
    const done = await poll(sid);
    expect(done.code).toBe(200);
    reportId = done.data.reportId;
    expect(done.data.url).toContain(`projectId=${agentId}`);
    expect(done.data.url).toContain("type=10");
    expect(done.data.insightStep.every((s: { isEnd: boolean }) => s.isEnd)).toBe(true);
    expect(done.data.insightStep[1].stepList[0].learning).toContain("张三");
  });
  it("builds the report from the asker's tenant's table only, read with the report token", async () => {
    const res = await get(null, `${P}/report?id=${reportId}`, aliceReportToken);
    expect(res.statusCode).toBe(200);
    const report = res.json().data;
    expect(report.status).toBe("DONE");
    const chart = report.blocks.find((b: { kind: string }) => b.kind === "chart");
    expect(chart).toMatchObject({ chartType: "bar", categories: ["李四", "张三"], series: [{ name: "total", data: [300, 150] }] });
    expect(JSON.stringify(report)).not.toContain("外人");
    expect(report.blocks[0]).toMatchObject({ kind: "text", title: "分析结论" });
    const list = (await get(null, `${P}/findByAgentId?id=${agentId}`, aliceReportToken)).json().data;
    expect(list.map((r: { id: string }) => r.id)).toEqual([reportId]);
  });
  it("keeps the report token off the other calls", async () => {
    expect((await get(null, `${R}/get_insight_url?session_id=${sid}`, aliceReportToken)).statusCode).toBe(403);
  });
  it("hides reports from another tenant and from anonymous callers", async () => {
    expect((await get(stranger, `${P}/report?id=${reportId}`)).statusCode).toBe(404);
    expect((await get(stranger, `${R}/get_insight_url?session_id=${sid}`)).statusCode).toBe(404);
    expect((await get(stranger, `${P}/findByAgentId?id=${agentId}`)).json().data).toEqual([]);
    expect((await get(stranger, `${P}/export?id=${reportId}`)).statusCode).toBe(404);
    expect((await get(null, `${P}/report?id=${reportId}`)).statusCode).toBe(403);
    const share = await t.app.inject({ method: "POST", url: `${P}/share`, headers: stranger.headers, payload: { id: reportId } });
    expect(share.statusCode).toBe(404);
  });
  it("opens read-only through a share link, and exports", async () => {
    const share = await t.app.inject({ method: "POST", url: `${P}/share`, headers: alice.headers, payload: { id: reportId } });
    const token = share.json().data.shareToken;
    const shared = (await get(null, `${P}/shared?token=${token}`)).json().data;
    expect(shared).toMatchObject({ id: reportId, status: "DONE", shareToken: null });
    expect((await get(null, `${P}/shared?token=${"x".repeat(32)}`)).statusCode).toBe(404);
    const html = await get(alice, `${P}/export?id=${reportId}&format=html`);
    expect(html.headers["content-type"]).toContain("text/html");
    expect(html.body).toContain("<td>李四</td>");
    expect(html.body).not.toContain("<script");
    const md = await get(alice, `${P}/export?id=${reportId}&format=markdown`);
    expect(md.body).toContain("| 李四 | 300 |");
  });
  it("exports a Word document, a slide deck and a printed PDF that open and hold the findings and the data", async () => {
    const docx = await get(alice, `${P}/export?id=${reportId}&format=docx`);
    expect(docx.statusCode).toBe(200);
    expect(docx.headers["content-disposition"]).toContain(".docx");
    const doc = await (await JSZip.loadAsync(docx.rawPayload)).file("word/document.xml")?.async("string");
    expect(doc).toContain("分析结论");
    expect(doc).toContain("数据显示");
    expect(doc).toContain("李四");
    const pptx = await get(alice, `${P}/export?id=${reportId}&format=pptx`);
    const deck = await JSZip.loadAsync(pptx.rawPayload);
    const slides = Object.keys(deck.files).filter((f) => /^ppt\/slides\/slide\d+\.xml$/.test(f));
    // Title, findings, the chart and the table.
    expect(slides).toHaveLength(4);
    const charts = Object.keys(deck.files).filter((f) => /^ppt\/charts\/chart\d+\.xml$/.test(f));
    expect(charts).toHaveLength(1);
    expect(await deck.file(charts[0])?.async("string")).toContain("李四");
    const pdf = await get(alice, `${P}/export?id=${reportId}&format=pdf`);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    const { text } = await extractText(new Uint8Array(pdf.rawPayload), { mergePages: true });
    expect(text).toContain("李四");
    expect(text).toContain("分析结论");
    expect((await get(stranger, `${P}/export?id=${reportId}&format=pdf`)).statusCode).toBe(404);
    expect((await get(alice, `${P}/export?id=${reportId}&format=exe`)).statusCode).toBe(400);
  }, 30_000);
  it("runs only guarded SQL: a plan that writes fails the report (code 500 ends the poll) and changes nothing", async () => {
    const { sid: s } = await ask("删除所有订单");
    const failed = await poll(s);
    expect(failed.code).toBe(500);
    expect(failed.msg).toContain("报告生成失败");
    const rows = await t.app.inject({
      method: "POST",
      url: "/aiagent_api/datatable/query",
      headers: alice.headers,
      payload: { sql: "SELECT count(*) AS n FROM orders" },
    });
    expect(rows.json().data.rows).toEqual([[3]]);
  });
});

describe("the poll", () => {
  it("answers a report not ready yet with code 200, its steps so far and no url", async () => {
    const sessionId = `s-${Date.now()}`;
    const steps = [{ title: "理解问题，规划分析步骤", isEnd: false, stepList: [] }];
    await t.platform.db
      .insert(insightReports)
      .values({ tenantId: alice.tenantId, ownerId: alice.id, agentId, sessionId, question: "销量如何？", status: "RUNNING", steps });
    const body = (await get(alice, `${R}/get_insight_url?session_id=${sessionId}`)).json();
    expect(body).toMatchObject({ code: 200, data: { status: "RUNNING", url: null, insightStep: steps } });
    expect((await get(stranger, `${R}/get_insight_url?session_id=${sessionId}`)).statusCode).toBe(404);
  });
});

describe("the build job", () => {
  it("fails a report whose tenant has no data tables, with the reason", async () => {
    const lonely = await createUser(t, { domain: "inslonely" });
    const [row] = await t.platform.db
      .insert(insightReports)
      .values({ tenantId: lonely.tenantId, ownerId: lonely.id, agentId, question: "销量如何？" })
      .returning();
    await t.services.insight.build(row.id);
    const [after] = await t.platform.db.select().from(insightReports).where(eq(insightReports.id, row.id));
    expect(after).toMatchObject({ status: "FAILED", error: "当前租户还没有数据表，请先在数据表中添加数据" });
    // A finished report is never built again (a retried job is a no-op).
    await t.services.insight.build(row.id);
    expect((await t.platform.db.select().from(insightReports).where(eq(insightReports.id, row.id)))[0].updatedAt).toEqual(after.updatedAt);
  });
});

describe("the demo seed", () => {
  it("adds a released report agent and a finished report computed from the orders table", async () => {
    await seedInsight(t.platform.db, { users: { member: alice.id } });
    const [agent] = await t.platform.db.select().from(agents).where(eq(agents.agentName, "销售数据分析师"));
    expect(agent).toMatchObject({ agentType: "insight", agentStatus: "C90_Released" });
    const [item] = (await get(alice, `${P}/findByAgentId?id=${agent.id}`)).json().data;
    const report = (await get(alice, `${P}/report?id=${item.id}`)).json().data;
    expect(report.status).toBe("DONE");
    expect(report.blocks.map((b: { kind: string }) => b.kind)).toEqual(["text", "chart", "chart", "chart"]);
    expect(report.blocks[1]).toMatchObject({ categories: ["李四", "张三"], series: [{ data: [300, 150] }] });
    expect(report.blocks[2]).toMatchObject({ chartType: "line", categories: ["2026-01", "2026-02"], series: [{ data: [100, 350] }] });
  });
});

// Last: its refresh adds a row to Alice's orders table, which the seed's report is computed from.
describe("the report builder", () => {
  const post = (user: TestUser | null, path: string, payload: object, token?: string) =>
    t.app.inject({
      method: "POST",
      url: `${P}/${path}`,
      payload,
      headers: token ? { authorization: `Bearer ${token}` } : (user?.headers ?? {}),
    });
  let id = "";
  const read = async () => (await get(alice, `${P}/report?id=${id}`)).json().data;
  beforeAll(async () => {
    const list = (await get(alice, `${P}/findByAgentId?id=${agentId}`)).json().data;
    id = list.find((r: { status: string }) => r.status === "DONE").id;
  });

  it("saves a new title, order, block titles and chart types, redrawn from the data each block holds", async () => {
    const before = await read();
    expect(before.blocks.map((b: { kind: string }) => b.kind)).toEqual(["text", "chart", "table"]);
    const res = await post(
      null,
      "update",
      {
        id,
        updateTime: before.updateTime,
        title: "客户消费看板",
        blocks: [
          { from: 1, title: "客户消费额（饼图）", view: "pie" },
          { from: 0, title: "结论" },
          { from: 2, title: "订单数", view: "table" },
        ],
      },
      aliceReportToken,
    );
    expect(res.statusCode).toBe(200);
    const saved = res.json().data;
    expect(saved.title).toBe("客户消费看板");
    expect(saved.blocks.map((b: { title: string }) => b.title)).toEqual(["客户消费额（饼图）", "结论", "订单数"]);
    expect(saved.blocks[0]).toMatchObject({
      kind: "chart",
      chartType: "pie",
      categories: ["李四", "张三"],
      series: [{ data: [300, 150] }],
    });
    expect(saved.updateTime).not.toBe(before.updateTime);
    expect(await read()).toMatchObject({ title: "客户消费看板", blocks: saved.blocks });
    // a chart drawn as a table and back loses nothing
    const asTable = (
      await post(alice, "update", {
        id,
        updateTime: saved.updateTime,
        title: saved.title,
        blocks: [
          { from: 0, title: "客户消费额", view: "table" },
          { from: 1, title: "结论" },
          { from: 2, title: "订单数" },
        ],
      })
    ).json().data;
    expect(asTable.blocks[0]).toMatchObject({
      kind: "table",
      columns: ["customer", "total"],
      rows: [
        ["李四", 300],
        ["张三", 150],
      ],
    });
    const back = (
      await post(alice, "update", {
        id,
        updateTime: asTable.updateTime,
        title: saved.title,
        blocks: [
          { from: 0, title: "客户消费额", view: "bar" },
          { from: 1, title: "结论" },
          { from: 2, title: "订单数" },
        ],
      })
    ).json().data;
    expect(back.blocks[0]).toMatchObject({
      kind: "chart",
      chartType: "bar",
      categories: ["李四", "张三"],
      series: [{ name: "total", data: [300, 150] }],
    });
  });

  it("refuses a stale edit, a layout that drops or repeats a block, and a view the data cannot take", async () => {
    const now = await read();
    const layout = [
      { from: 0, title: "a" },
      { from: 1, title: "b" },
      { from: 2, title: "c" },
    ];
    const stale = await post(alice, "update", { id, updateTime: "2020-01-01T00:00:00.000Z", title: "x", blocks: layout });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().msg).toBe("报告已在别处修改，请重新打开后再编辑");
    for (const blocks of [
      layout.slice(0, 2),
      [...layout.slice(0, 2), { from: 1, title: "c" }],
      [...layout.slice(0, 2), { from: 7, title: "c" }],
    ]) {
      const bad = await post(alice, "update", { id, updateTime: now.updateTime, title: "x", blocks });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().msg).toBe("报告布局无效：每个图表须恰好出现一次");
    }
    // the count has one column: nothing to draw bars of
    const unfit = await post(alice, "update", {
      id,
      updateTime: now.updateTime,
      title: "x",
      blocks: [layout[0], layout[1], { from: 2, title: "订单数", view: "bar" }],
    });
    expect(unfit.statusCode).toBe(400);
    expect(unfit.json().msg).toContain("「订单数」的数据不能画成这种图表");
    expect(await read()).toEqual(now);
  });

  it("is the owner's only: a colleague, another tenant's user, an anonymous caller and a share-link holder cannot edit or refresh", async () => {
    const now = await read();
    const colleague = await createUser(t, { domain: "insacme", memberLevel: "PER_FLAGSHIP_MONTHLY" });
    const edit = {
      id,
      updateTime: now.updateTime,
      title: "偷改",
      blocks: [
        { from: 0, title: "a" },
        { from: 1, title: "b" },
        { from: 2, title: "c" },
      ],
    };
    for (const other of [colleague, stranger]) {
      expect((await post(other, "update", edit)).statusCode).toBe(404);
      expect((await post(other, "refresh", { id })).statusCode).toBe(404);
    }
    expect((await post(null, "update", edit)).statusCode).toBe(403);
    expect((await post(null, "refresh", { id })).statusCode).toBe(403);
    const { shareToken } = (await post(alice, "share", { id })).json().data;
    expect((await post(null, "update", edit, shareToken)).statusCode).toBe(403);
    expect(await read()).toEqual({ ...now, shareToken });
  });

  it("refreshes against the latest data, keeping the titles, order and chart types", async () => {
    const before = await read();
    await t.app.inject({
      method: "POST",
      url: `/aiagent_api/datatable/${ordersId}/rows`,
      headers: alice.headers,
      payload: { customer: "王五", amount: 500 },
    });
    const res = await post(null, "refresh", { id }, aliceReportToken);
    expect(res.statusCode).toBe(200);
    const after = res.json().data;
    expect(after.blocks.map((b: { title: string }) => b.title)).toEqual(before.blocks.map((b: { title: string }) => b.title));
    expect(after.blocks[0]).toMatchObject({
      kind: "chart",
      chartType: "bar",
      categories: ["王五", "李四", "张三"],
      series: [{ data: [500, 300, 150] }],
    });
    expect(after.blocks[2]).toMatchObject({ kind: "table", rows: [[4]] });
    expect(after.blocks[1]).toEqual(before.blocks[1]);
    // a report still being built is not the builder's yet
    const [pending] = await t.platform.db
      .insert(insightReports)
      .values({ tenantId: alice.tenantId, ownerId: alice.id, agentId, question: "?" })
      .returning();
    const refused = await post(alice, "refresh", { id: pending.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().msg).toBe("报告还没有生成完成");
  });
});
