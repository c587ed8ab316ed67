import { randomUUID } from "node:crypto";
import { defaultKnowledgeSettings, emptyBindings } from "@agentfair/contracts";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { knowledgeBases, knowledgeFolders, knowledgeSegments, users } from "../../db/schema/index.ts";
import type { DemoSeed } from "../../seed/demo-seed.ts";
import { defaultConfig } from "../agents/agents.mappers.ts";
import { insertReleasedAgent } from "../agents/agents.seed.ts";
import { indexTerms } from "./keywords.ts";

const QA: [string, string][] = [
  ["如何创建知识库？", "在首页切换到「我的知识库」标签，点击「创建」，填写名称后保存即可。双击知识库进入详情，上传文件并选择分段方式。"],
  [
    "知识库支持哪些文件格式？",
    "支持 pdf、docx、xlsx、csv、pptx、txt、md、html，以及 png、jpg 图片（自动 OCR 识别文字），单个文件不超过 15MB；也可以上传包含这些文件的 zip 批量导入。",
  ],
  [
    "如何把知识库绑定到智能体？",
    "在工作室编辑智能体，在「知识库」中选择要绑定的知识库，设置召回数量和相似度阈值后发布。对话时智能体会检索知识库并标注引用来源。",
  ],
  [
    "什么是直接回答模式？",
    "开启「直接用知识库回答」后，问题与问答对或分段的匹配度超过阈值时，智能体直接用知识库内容回答，不调用大模型，适合离线的常见问题客服。",
  ],
  ["会员如何续费？", "在「充值」页面选择与当前相同的会员等级即可续费，续费时长会累加到当前到期日之后。"],
];

const PASSAGES: [string, string][] = [
  [
    "分段方式",
    "知识库提供十一种分段方式：通用、问答、简历、手册、扫描手册、表格、论文、书籍、法律法规、PPT 和全文。法律法规按「条」分段并带上所在章节标题；表格每行一段并重复表头。",
  ],
  [
    "混合检索",
    "检索同时使用关键词（结巴分词）和向量相似度，每条结果都给出关键词得分、向量得分和融合得分；向量权重和相似度阈值都可以调整。",
  ],
];

/**
 * A demo knowledge base of the owner holding hand-written segments (marked edited, indexed for keyword
 * search; vectors come when an embedding model re-indexes them): Q&A pairs, then titled passages.
 */
export async function insertDemoBase(
  db: Db,
  owner: { id: string; tenantId: string },
  name: string,
  segments: { qa?: [string, string][]; passages: [string, string][] },
) {
  const [base] = await db.insert(knowledgeBases).values({ tenantId: owner.tenantId, ownerId: owner.id, name }).returning();
  let position = 0;
  const qa = (segments.qa ?? []).map(([question, answer]) => ({
    id: randomUUID(),
    baseId: base.id,
    position: position++,
    content: answer,
    question,
    answer,
    tokens: Math.ceil((question.length + answer.length) / 2),
    edited: true,
    headTerms: indexTerms(question),
    bodyTerms: indexTerms(answer),
  }));
  const passages = segments.passages.map(([title, content]) => ({
    id: randomUUID(),
    baseId: base.id,
    position: position++,
    content,
    title,
    tokens: Math.ceil(content.length / 2),
    edited: true,
    headTerms: indexTerms(title),
    bodyTerms: indexTerms(content),
  }));
  await db.insert(knowledgeSegments).values([...qa, ...passages]);
  return base;
}

/** Demo: the member's help-center knowledge base, bound to the member's released (not listed) FAQ agent that answers from it with no model. */
export const seedKnowledge: DemoSeed = async (db: Db, ctx) => {
  const memberId = ctx.users.member;
  if (!memberId) return;
  const [member] = await db.select().from(users).where(eq(users.id, memberId));
  const base = await insertDemoBase(db, member, "Agentfair 使用帮助", { qa: QA, passages: PASSAGES });
  // Folders to file uploads into (the Q&A pairs and passages above belong to no file).
  await db.insert(knowledgeFolders).values([
    { baseId: base.id, name: "产品文档" },
    { baseId: base.id, name: "操作指南" },
  ]);

  const name = "平台客服小助手";
  const desc = "用「Agentfair 使用帮助」知识库直接回答平台使用问题，无需大模型。";
  const config = {
    ...defaultConfig(),
    persona: "你是 Agentfair 平台的客服，只根据知识库回答，并标注引用。",
    usageGuide: "问平台怎么用：知识库、绑定智能体、会员续费等。",
    chatOption: {
      ...defaultConfig().chatOption,
      prologue: "你好，我是平台客服小助手，知识库里的问题我可以直接回答。",
      presetQuestions: ["如何创建知识库？", "知识库支持哪些文件格式？", "什么是直接回答模式？"],
    },
    bindings: { ...emptyBindings(), knowledgeBases: [base.id] },
    knowledge: { ...defaultKnowledgeSettings(), directAnswer: true, directThreshold: 0.5 },
    launchTags: ["general" as const],
  };
  const card = { agentName: name, agentDescription: desc, agentIcon: "5", agentIconBackground: "#e8f3ff" };
  await insertReleasedAgent(db, member, card, config);
};
