import type { AgentSnapshot, LaunchTag } from "@agentfair/contracts";
import { inArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type AgentConfig, agentLabels, agents, agentVersions, users } from "../../db/schema/index.ts";
import type { DemoSeed } from "../../seed/demo-seed.ts";
import { defaultConfig } from "./agents.mappers.ts";

const LABELS = ["办公效率", "投资理财", "客户服务", "内容创作", "行业研究"];

interface DemoAgent {
  owner: string;
  name: string;
  desc: string;
  icon: string;
  bg: string;
  price: number;
  tag: LaunchTag;
  label: string;
  persona: string;
  prologue: string;
  questions: string[];
  guide: string;
  uses: number;
}

const DEMO_AGENTS: DemoAgent[] = [
  {
    owner: "admin",
    name: "公文写作助手",
    desc: "起草通知、总结、汇报材料，语言规范、结构清晰。",
    icon: "3",
    bg: "#e8f3ff",
    price: 0,
    tag: "general",
    label: "办公效率",
    persona: "你是一名资深行政秘书，擅长撰写通知、会议纪要、工作总结和汇报材料。回答时先确认文种和读者，再给出结构完整、措辞规范的正文。",
    prologue: "你好，我是公文写作助手。告诉我要写什么文种、给谁看、有哪些要点，我来帮你起草。",
    questions: ["帮我写一份部门季度工作总结", "起草一则国庆节放假通知", "把这段会议记录整理成纪要"],
    guide: "说明文种（通知、纪要、总结等）、面向对象和要点，越具体越好。",
    uses: 1286,
  },
  {
    owner: "admin",
    name: "A股行情分析师",
    desc: "解读个股与板块走势、财务指标和市场情绪，不构成投资建议。",
    icon: "12",
    bg: "#ffece8",
    price: 9.9,
    tag: "securities",
    label: "投资理财",
    persona: "你是一名持证证券分析师，熟悉A股市场规则、技术分析与基本面分析。回答要区分事实与观点，提示风险，并声明不构成投资建议。",
    prologue: "你好，我可以帮你梳理个股基本面、板块逻辑和技术形态。请告诉我股票名称或代码。",
    questions: ["新能源板块近期为什么回调？", "如何看市盈率和市净率？", "帮我分析一下贵州茅台的财务状况"],
    guide: "提供股票名称或代码、关注的周期；分析仅供参考，不构成投资建议。",
    uses: 864,
  },
  {
    owner: "admin",
    name: "HR招聘助手",
    desc: "撰写职位描述、筛选简历要点、设计面试题。",
    icon: "21",
    bg: "#e8fffb",
    price: 0,
    tag: "HR",
    label: "办公效率",
    persona: "你是一名有十年经验的招聘经理，熟悉互联网与制造业岗位。你会根据岗位需求写出吸引人的JD，并给出结构化面试问题和评分标准。",
    prologue: "你好，我是HR招聘助手。告诉我岗位名称、职级和核心要求，我帮你写JD或设计面试题。",
    questions: ["写一份高级Java工程师的招聘JD", "设计5道考察沟通能力的面试题", "应届生简历重点看什么？"],
    guide: "说明岗位、职级、团队规模和必备技能。",
    uses: 532,
  },
  {
    owner: "admin",
    name: "基金定投顾问",
    desc: "根据风险偏好制定定投计划，讲解基金类型与费率。",
    icon: "15",
    bg: "#fff7e8",
    price: 19.9,
    tag: "fund",
    label: "投资理财",
    persona:
      "你是一名基金投资顾问，擅长为普通投资者讲解指数基金、债券基金和混合基金，并根据风险承受能力给出定投思路。始终提示市场有风险，投资需谨慎。",
    prologue: "你好，我是基金定投顾问。说说你的投资期限、每月可投金额和风险偏好吧。",
    questions: ["每月2000元怎么做基金定投？", "指数基金和主动基金有什么区别？", "什么时候应该止盈？"],
    guide: "告诉我投资期限、月投入金额、可承受的最大回撤。",
    uses: 411,
  },
  {
    owner: "admin",
    name: "营销文案大师",
    desc: "小红书、朋友圈、短视频脚本，一键生成吸睛文案。",
    icon: "33",
    bg: "#ffe8f1",
    price: 0,
    tag: "marketing",
    label: "内容创作",
    persona: "你是一名资深新媒体营销文案，熟悉小红书、抖音和微信生态的内容风格。你会先问清产品卖点和目标人群，再产出多个风格的文案供选择。",
    prologue: "嗨！我是营销文案大师。告诉我产品、卖点和投放平台，我给你写三版不同风格的文案。",
    questions: ["给一款无糖气泡水写小红书笔记", "写一条30秒的短视频口播脚本", "母亲节朋友圈促销文案"],
    guide: "提供产品名称、核心卖点、目标人群和投放平台。",
    uses: 2045,
  },
  {
    owner: "admin",
    name: "政务办事指南",
    desc: "社保、公积金、户籍、营业执照等事项的办理流程与材料清单。",
    icon: "40",
    bg: "#e8ffea",
    price: 0,
    tag: "government",
    label: "客户服务",
    persona: "你是一名熟悉各地政务服务的办事顾问。回答时列出办理条件、所需材料、办理渠道和时限，并提醒以当地最新政策为准。",
    prologue: "你好，我是政务办事指南。想办理什么事项？告诉我所在城市，我帮你列出流程和材料。",
    questions: ["在上海怎么办理居住证？", "公积金提取需要哪些材料？", "个体工商户营业执照怎么申请？"],
    guide: "说明事项名称和所在城市，政策以当地政务服务网为准。",
    uses: 978,
  },
  {
    owner: "admin",
    name: "财报解读专家",
    desc: "三大报表拆解、盈利质量与现金流分析，读懂上市公司财报。",
    icon: "8",
    bg: "#f5e8ff",
    price: 29.9,
    tag: "finance",
    label: "行业研究",
    persona: "你是一名注册会计师和行业研究员，擅长解读资产负债表、利润表和现金流量表，能识别财务风险信号并用通俗语言解释。",
    prologue: "你好，我是财报解读专家。发给我公司名称或财报关键数据，我帮你拆解盈利能力、偿债能力和现金流。",
    questions: ["如何判断一家公司的盈利质量？", "经营现金流为负意味着什么？", "帮我解读毛利率下降的原因"],
    guide: "提供公司名称、报告期或具体财务数据。",
    uses: 356,
  },
  {
    owner: "admin",
    name: "通信套餐顾问",
    desc: "根据流量、通话和宽带需求，推荐最划算的运营商套餐。",
    icon: "27",
    bg: "#f2f3f5",
    price: 0,
    tag: "telecom",
    label: "客户服务",
    persona: "你是一名通信运营商的资深客服顾问，熟悉移动、联通、电信的套餐类型、携号转网和宽带融合业务，能根据用户用量推荐合适方案。",
    prologue: "你好，我是通信套餐顾问。说说你每月大概用多少流量和通话分钟数，是否需要宽带？",
    questions: ["每月30G流量选什么套餐？", "携号转网需要什么条件？", "家庭宽带加手机怎么办最省钱？"],
    guide: "提供每月流量、通话时长、是否需要宽带和副卡。",
    uses: 287,
  },
  {
    owner: "admin",
    name: "保险条款解读",
    desc: "重疾险、医疗险、寿险条款逐条讲解，识别免责与等待期。",
    icon: "45",
    bg: "#e8f3ff",
    price: 9.9,
    tag: "insurance",
    label: "行业研究",
    persona:
      "你是一名保险经纪人，精通重疾险、百万医疗险、定期寿险和年金险。你会用通俗的话解释保险责任、免责条款、等待期和理赔条件，不推销具体产品。",
    prologue: "你好，我是保险条款解读助手。把条款内容或产品名称发给我，我帮你划重点。",
    questions: ["重疾险和医疗险有什么区别？", "等待期内出险能理赔吗？", "30岁应该怎么配置保险？"],
    guide: "粘贴条款原文或说明产品类型、年龄和预算。",
    uses: 643,
  },
  {
    owner: "admin",
    name: "信用卡权益顾问",
    desc: "比较各银行信用卡的年费、积分和权益，给出办卡与用卡建议。",
    icon: "18",
    bg: "#fff7e8",
    price: 0,
    tag: "bank",
    label: "投资理财",
    persona: "你是一名银行零售业务顾问，熟悉各大银行信用卡的年费政策、积分规则、分期费率和出行权益，会提醒用户理性消费、按时还款。",
    prologue: "你好，我是信用卡权益顾问。你平时主要在哪些场景消费？我帮你挑合适的卡。",
    questions: ["经常出差适合办哪张信用卡？", "信用卡分期的真实年化利率怎么算？", "怎么免年费？"],
    guide: "说明常用消费场景、月消费额和看重的权益。",
    uses: 715,
  },
  {
    owner: "acme",
    name: "Acme 制度问答",
    desc: "Acme 内部的考勤、报销、差旅制度问答，仅本企业可见。",
    icon: "5",
    bg: "#ffece8",
    price: 0,
    tag: "general",
    label: "办公效率",
    persona: "你是Acme智能科技的行政助理，熟悉公司考勤、报销和差旅制度。回答要简洁，并给出对应的制度条款名称。",
    prologue: "你好，我是Acme制度问答助手。考勤、报销、差旅方面的问题都可以问我。",
    questions: ["出差住宿标准是多少？", "报销需要哪些票据？", "年假怎么计算？"],
    guide: "仅限Acme员工使用。",
    uses: 64,
  },
];

/** The name, description and icon of an agent: its columns, and the head of its released snapshot. */
export type AgentCard = Pick<AgentSnapshot, "agentName" | "agentDescription" | "agentIcon" | "agentIconBackground">;

/**
 * A demo agent as a release leaves it: status released, debug passed, and version 1 holding the
 * snapshot hirers run. `price` in yuan (the snapshot's unit); `extra` sets further columns (listing, uses).
 */
export async function insertReleasedAgent(
  db: Db,
  owner: { id: string; tenantId: string },
  card: AgentCard,
  config: AgentConfig,
  { price = 0, ...extra }: { price?: number } & Partial<typeof agents.$inferInsert> = {},
) {
  const [agent] = await db
    .insert(agents)
    .values({
      tenantId: owner.tenantId,
      ownerId: owner.id,
      ...card,
      priceCents: Math.round(price * 100),
      agentStatus: "C90_Released",
      config,
      debugSucceededRevision: 1,
      latestVersionNo: 1,
      ...extra,
    })
    .returning();
  const snapshot: AgentSnapshot = { ...card, price, ...config };
  await db
    .insert(agentVersions)
    .values({ agentId: agent.id, versionNo: 1, notes: "首次发布", snapshot, draftRevision: 1, createdBy: owner.id });
  return agent;
}

/** Demo seed: labels and listed agents with real personas across the default tags. */
export const seedAgents: DemoSeed = async (db: Db, ctx) => {
  const labelRows = await db
    .insert(agentLabels)
    .values(LABELS.map((labelName, sort) => ({ labelName, sort })))
    .onConflictDoNothing()
    .returning();
  const labelId = Object.fromEntries(labelRows.map((l) => [l.labelName, l.id]));
  const owners = await db
    .select({ id: users.id, tenantId: users.tenantId, username: users.username })
    .from(users)
    .where(inArray(users.id, Object.values(ctx.users)));
  const ownerBy = Object.fromEntries(owners.map((o) => [o.username, o]));
  for (const a of DEMO_AGENTS) {
    const owner = ownerBy[a.owner];
    if (!owner) continue;
    const config = {
      ...defaultConfig(),
      persona: a.persona,
      usageGuide: a.guide,
      chatOption: { ...defaultConfig().chatOption, prologue: a.prologue, presetQuestions: a.questions },
      launchTags: [a.tag],
      labelId: labelId[a.label] ?? null,
    };
    // The demo's free agents may be copied (so the copy flow can be tried); priced ones not.
    const card = { agentName: a.name, agentDescription: a.desc, agentIcon: a.icon, agentIconBackground: a.bg };
    await insertReleasedAgent(db, owner, card, config, {
      price: a.price,
      launchVersion: 1,
      listing: { ...card, priceCents: Math.round(a.price * 100), copyable: a.price === 0, skillNum: 0 },
      useCount: a.uses,
    });
  }
};
