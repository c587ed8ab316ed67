import { type AgentSnapshot, INSIGHT_AGENT_TYPE, type InsightStepItem, type ReportBlock, reportPageUrl } from "@agentfair/contracts";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { agents, agentVersions, dataTables, insightReports, users } from "../../db/schema/index.ts";
import type { InsightPlanStep } from "../../db/schema/insight.ts";
import type { DemoSeed } from "../../seed/demo-seed.ts";
import { defaultConfig } from "../agents/agents.mappers.ts";
import { guardQuery } from "../datatables/sql-guard.ts";
import { blockOf } from "./report.ts";

const PLAN: InsightPlanStep[] = [
  { title: "各客户订单金额", sql: "SELECT customer, sum(amount) AS total FROM orders GROUP BY customer ORDER BY total DESC", chart: "bar" },
  {
    title: "每月订单金额",
    sql: "SELECT to_char(order_date, 'YYYY-MM') AS month, sum(amount) AS total FROM orders GROUP BY month ORDER BY month",
    chart: "line",
  },
  {
    title: "付款状态占比",
    sql: "SELECT CASE WHEN paid THEN '已付款' ELSE '未付款' END AS state, sum(amount) AS total FROM orders GROUP BY state",
    chart: "pie",
  },
];

/**
 * Demo: a released report agent over the rules demo's `orders` table, and one finished report
 * whose numbers come from running its planned SQL (through the guard) over that table now.
 * Asking the agent something new needs a model (README).
 */
export const seedInsight: DemoSeed = async (db: Db, ctx) => {
  const ownerId = ctx.users.member;
  if (!ownerId) return;
  const [member] = await db.select({ tenantId: users.tenantId }).from(users).where(eq(users.id, ownerId));
  const [orders] = await db
    .select()
    .from(dataTables)
    .where(and(eq(dataTables.tenantId, member.tenantId), eq(dataTables.name, "orders")));
  if (!orders) return;
  const name = "销售数据分析师";
  const desc = "报告智能体：用自然语言提问，自动查询「orders」订单表并生成带图表的分析报告。";
  const config = {
    ...defaultConfig(),
    persona: "你是数据分析师，根据订单数据回答问题并生成报告。",
    usageGuide: "问：各客户的消费额是多少？每月的订单金额趋势如何？",
    chatOption: {
      ...defaultConfig().chatOption,
      prologue: "你好，我是销售数据分析师。告诉我你想了解订单数据的什么，我会生成一份分析报告。",
      presetQuestions: ["各客户的消费额是多少？", "每月的订单金额趋势如何？"],
    },
  };
  const [agent] = await db
    .insert(agents)
    .values({
      tenantId: member.tenantId,
      ownerId,
      agentName: name,
      agentDescription: desc,
      agentIcon: "5",
      agentIconBackground: "#e8f3ff",
      agentStatus: "C90_Released",
      agentType: INSIGHT_AGENT_TYPE,
      config,
      debugSucceededRevision: 1,
      latestVersionNo: 1,
    })
    .returning();
  const snapshot: AgentSnapshot = {
    agentName: name,
    agentDescription: desc,
    agentIcon: "5",
    agentIconBackground: "#e8f3ff",
    price: 0,
    ...config,
  };
  await db
    .insert(agentVersions)
    .values({ agentId: agent.id, versionNo: 1, notes: "首次发布", snapshot, draftRevision: 1, createdBy: ownerId });

  const blocks: ReportBlock[] = [];
  const learned: { url: string; learning: string }[] = [];
  for (const step of PLAN) {
    const checked = guardQuery(step.sql, (n) => (n === "orders" ? orders.physicalName : undefined));
    const result = (await db.execute(sql.raw(checked))) as unknown as { rows: Record<string, unknown>[]; fields: { name: string }[] };
    const columns = result.fields.map((f) => f.name);
    const rows = result.rows.map((r) =>
      columns.map((c) =>
        typeof r[c] === "string" && /^-?\d+(\.\d+)?$/.test(r[c] as string) ? Number(r[c]) : (r[c] as string | number | null),
      ),
    );
    blocks.push(blockOf(step, { columns, rows, truncated: false }));
    learned.push({ url: "", learning: `${step.title}：${rows.map((r) => r.join(" / ")).join("；")}` });
  }
  const top = blocks[0]?.kind === "chart" ? blocks[0] : null;
  const findings = top
    ? `- 消费额最高的客户是 **${top.categories[0]}**（${top.series[0]?.data[0]} 元）。\n- 共 ${top.categories.length} 位客户下单，数据来自 orders 表的只读查询。`
    : "- 数据来自 orders 表的只读查询。";
  blocks.unshift({ kind: "text", title: "分析结论", content: findings });
  const id = crypto.randomUUID();
  const steps: InsightStepItem[] = [
    { title: "理解问题，规划分析步骤", isEnd: true, stepList: PLAN.map((s) => ({ url: "", learning: s.title })) },
    { title: "执行查询", isEnd: true, stepList: learned },
    { title: "撰写分析结论", isEnd: true, stepList: [{ url: "", learning: findings.split("\n")[0] }] },
  ];
  steps.push({
    title: "订单数据概览",
    isEnd: true,
    stepList: [{ url: reportPageUrl({ id, agentId: agent.id, agentName: name }), learning: "" }],
  });
  await db.insert(insightReports).values({
    id,
    tenantId: member.tenantId,
    ownerId,
    agentId: agent.id,
    agentName: name,
    question: "订单数据整体情况如何？",
    title: "订单数据概览",
    status: "DONE",
    plan: PLAN,
    steps,
    blocks,
  });
};
