import {
  CHAT_INSIGHT_FEATURES,
  emptyBindings,
  INSIGHT_AGENT_TYPE,
  type InsightCategory,
  type InsightStepItem,
  type LaunchTag,
  type ReportBlock,
  reportPageUrl,
} from "@agentfair/contracts";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { agentLabels, chatInsights, chatMessages, chatSessions, dataTables, insightReports, users } from "../../db/schema/index.ts";
import { offlineChatInsight } from "../models/offline-analyst.ts";
import type { InsightPlanStep } from "../../db/schema/insight.ts";
import type { DemoSeed } from "../../seed/demo-seed.ts";
import { defaultConfig } from "../agents/agents.mappers.ts";
import { insertReleasedAgent } from "../agents/agents.seed.ts";
import { insertDemoBase } from "../knowledge/knowledge.seed.ts";
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
  await seedTemplates(db, ctx.users.admin);
  await seedChatInsight(db, ctx.users.member, ctx.users.member);
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
  const card = { agentName: name, agentDescription: desc, agentIcon: "5", agentIconBackground: "#e8f3ff" };
  const agent = await insertReleasedAgent(db, { id: ownerId, tenantId: member.tenantId }, card, config, { agentType: INSIGHT_AGENT_TYPE });

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

const TEMPLATES: { category: InsightCategory; name: string; desc: string; icon: string; bg: string; tag: LaunchTag; question: string }[] = [
  {
    category: "chatBi",
    name: "ChatBI 问数",
    desc: "一句话提问，自动查询你的数据表并画出最合适的一张图表。",
    icon: "9",
    bg: "#e8f3ff",
    tag: "general",
    question: "各客户的消费额是多少？",
  },
  {
    category: "chat dashboard",
    name: "对话仪表盘",
    desc: "一个问题生成多图表的数据仪表盘：合计、趋势、占比一屏看全。",
    icon: "14",
    bg: "#e8fffb",
    tag: "general",
    question: "给我一个订单数据的仪表盘",
  },
  {
    category: "chatWord",
    name: "ChatWord 报告",
    desc: "提问即得一份可下载的 Word 数据分析报告，含结论与明细表。",
    icon: "3",
    bg: "#f5e8ff",
    tag: "general",
    question: "写一份订单数据分析报告",
  },
  {
    category: "chatPPT",
    name: "ChatPPT 演示",
    desc: "把数据分析做成 PPT 演示文稿，图表可在 PowerPoint 中直接编辑。",
    icon: "33",
    bg: "#ffe8f1",
    tag: "marketing",
    question: "把每月订单金额趋势做成演示文稿",
  },
  {
    category: "industry report",
    name: "行业报告生成",
    desc: "结合绑定知识库的行业资料与你的数据表，撰写长篇行业报告。",
    icon: "8",
    bg: "#fff7e8",
    tag: "finance",
    question: "结合订单数据写一份行业分析报告",
  },
];

/** The industry report template's knowledge base: demo industry material its reports quote as [n]. */
const INDUSTRY_PASSAGES: [string, string][] = [
  [
    "零售电商的订单季节性",
    "（演示资料）零售电商行业的订单有明显的季节性：春节前后、618 和双 11 是订单高峰。分析月度订单金额趋势时应与去年同期对比，避免把季节波动误判为行业趋势。",
  ],
  [
    "客户集中度与行业风险",
    "（演示资料）中小电商企业的订单金额常集中在少数大客户。前几位客户贡献过半销售额时，行业分析通常提示客户流失和议价风险，建议拓展新客户、降低集中度。",
  ],
  [
    "未付款订单与回款",
    "（演示资料）行业经验表明，未付款订单占比升高往往预示回款压力。建议按月跟踪已付款与未付款订单金额的占比，对逾期客户分级催收，并在报告中单列回款分析。",
  ],
];

/**
 * The special categories (doc 1 §9) as marketplace templates: listed, free, copyable report agents
 * of the administrator under the label 数据分析. Hiring one analyses the hirer's tenant's data
 * tables; a copy is the hirer's own. The member plan's `types` says which a member may use. The
 * industry report template is bound to the administrator's industry knowledge base, so a hirer's
 * report cites it (a copy leaves the binding behind, as every copy does).
 */
async function seedTemplates(db: Db, adminId: string | undefined) {
  if (!adminId) return;
  const [admin] = await db.select({ tenantId: users.tenantId }).from(users).where(eq(users.id, adminId));
  await db.insert(agentLabels).values({ labelName: "数据分析", sort: 10 }).onConflictDoNothing();
  const [label] = await db.select().from(agentLabels).where(eq(agentLabels.labelName, "数据分析"));
  const industry = await insertDemoBase(db, { id: adminId, tenantId: admin.tenantId }, "零售电商行业资料", { passages: INDUSTRY_PASSAGES });
  for (const [i, tpl] of TEMPLATES.entries()) {
    const config = {
      ...defaultConfig(),
      persona: `你是「${tpl.name}」，根据用户的数据表回答问题并生成报告。`,
      usageGuide: "先在「数据表」中添加数据（演示账号已有 orders 订单表），再用自然语言提问。",
      chatOption: {
        ...defaultConfig().chatOption,
        prologue: `你好，我是${tpl.name}。${tpl.desc}`,
        presetQuestions: [tpl.question],
      },
      insightCategory: tpl.category,
      ...(tpl.category === "industry report" ? { bindings: { ...emptyBindings(), knowledgeBases: [industry.id] } } : {}),
      launchTags: [tpl.tag],
      labelId: label?.id ?? null,
    };
    const card = { agentName: tpl.name, agentDescription: tpl.desc, agentIcon: tpl.icon, agentIconBackground: tpl.bg };
    await insertReleasedAgent(db, { id: adminId, tenantId: admin.tenantId }, card, config, {
      agentType: INSIGHT_AGENT_TYPE,
      launchVersion: 1,
      listing: { ...card, priceCents: 0, copyable: true, skillNum: 0 },
      useCount: 300 - i * 40,
    });
  }
}

const CONVERSATION: [string, string][] = [
  ["你们的退货政策是什么？", "商品签收后 7 天内可无理由退货，需保持商品完好、配件齐全。"],
  ["退款多久能到账？", "退货入库后 1 到 3 个工作日原路退回。"],
  ["快递丢件了怎么办？我很不满意", "非常抱歉给你带来不便，我们会先为你补发，并向快递公司追责。"],
];

/**
 * Chat insight demo: the member's released after-sales agent with chat insight on, one conversation
 * (the member's own try of it), and that conversation's analysis (written by the offline model's rule,
 * the same one that analyses new conversations when no real model is configured).
 */
async function seedChatInsight(db: Db, ownerId: string | undefined, userId: string | undefined) {
  if (!ownerId || !userId) return;
  const [member] = await db.select({ tenantId: users.tenantId }).from(users).where(eq(users.id, ownerId));
  const name = "售后客服助手";
  const desc = "解答退换货、退款和物流问题；开启了对话洞察，所有者可在「数据分析 › 对话洞察」查看每段对话的分析。";
  const config = {
    ...defaultConfig(),
    persona: "你是电商平台的售后客服，耐心、准确地解答退换货、退款和物流问题。",
    usageGuide: "问：退货政策、退款到账时间、快递丢件怎么办。",
    chatOption: {
      ...defaultConfig().chatOption,
      prologue: "你好，我是售后客服助手，请问有什么可以帮你？",
      presetQuestions: CONVERSATION.map(([q]) => q),
      enableChatInsight: true,
      chatInsightFeatures: [...CHAT_INSIGHT_FEATURES],
    },
  };
  const card = { agentName: name, agentDescription: desc, agentIcon: "27", agentIconBackground: "#e8fffb" };
  const agent = await insertReleasedAgent(db, { id: ownerId, tenantId: member.tenantId }, card, config);
  const [session] = await db
    .insert(chatSessions)
    .values({
      userId,
      tenantId: member.tenantId,
      agentId: agent.id,
      title: CONVERSATION[0][0],
      agentName: name,
      agentIcon: card.agentIcon,
      agentIconBackground: card.agentIconBackground,
      titled: true,
    })
    .returning();
  const start = Date.now() - 60 * 60 * 1000;
  await db.insert(chatMessages).values(
    CONVERSATION.flatMap(([q, a], i) => [
      { sessionId: session.id, role: "user", content: q, createdAt: new Date(start + i * 60_000) },
      { sessionId: session.id, role: "bot", content: a, status: "done", step: 4, createdAt: new Date(start + i * 60_000 + 5000) },
    ]),
  );
  const transcript = CONVERSATION.flatMap(([q, a]) => [`用户：${q}`, `助手：${a}`]).join("\n");
  await db.insert(chatInsights).values({
    tenantId: member.tenantId,
    ownerId,
    agentId: agent.id,
    sessionId: session.id,
    userId,
    features: [...CHAT_INSIGHT_FEATURES],
    status: "DONE",
    analysis: JSON.parse(offlineChatInsight(transcript)),
    messageCount: CONVERSATION.length * 2,
  });
}
