import {
  CHAT_INSIGHT_FEATURES,
  type ChatInsightAnalysis,
  type ChatInsightFeature,
  type ChatInsightItem,
  chatInsightAnalysis,
  type InsightStatus,
  type Language,
} from "@agentfair/contracts";
import { generateText } from "ai";
import { and, count, desc, eq, ne, sql } from "drizzle-orm";
import { chatInsights } from "../../db/schema/index.ts";
import type { Caller } from "../../platform/auth.ts";
import { AppError } from "../../platform/errors.ts";
import { translate } from "../../platform/messages.ts";
import type { Platform } from "../../platform/platform.ts";
import type { RuntimeAgent } from "../agents/runtime-agent.ts";
import type { ModelsService } from "../models/models.service.ts";
import { chatModelOf } from "../models/provider.ts";

/** Mark of the analysis prompt; the local test model recognises it too. */
export const CHAT_INSIGHT_MARK = "【对话洞察】";
export const CHAT_INSIGHT_JOB = "insight.chat";
/** The newest messages an analysis reads, and how much of each. */
const TRANSCRIPT_MESSAGES = 40;
const MESSAGE_CHARS = 1500;

type Row = typeof chatInsights.$inferSelect;

export interface ChatInsightDeps {
  models: () => ModelsService | undefined;
  /** The conversation to analyse, oldest first (the chat module reads its own tables). */
  chat: () => { transcript(sessionId: string, limit: number): Promise<{ role: "user" | "bot"; content: string }[]> } | undefined;
}

const ASK: Record<ChatInsightFeature, string> = {
  topics: '"topics": 讨论的主题（字符串数组，最多 5 个）',
  sentiment: '"sentiment": 用户情绪，positive / neutral / negative 之一',
  openQuestions: '"openQuestions": 用户提出但尚未得到满意回答的问题（字符串数组，可为空）',
};

/** The model's answer: the first JSON object in it, keeping only the features that were asked. */
export function parseAnalysis(text: string, features: ChatInsightFeature[]): ChatInsightAnalysis | null {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return null;
  try {
    const parsed = chatInsightAnalysis.safeParse(JSON.parse(text.slice(start, end + 1)));
    if (!parsed.success) return null;
    const out: ChatInsightAnalysis = { summary: parsed.data.summary };
    for (const f of features) if (parsed.data[f] !== undefined) Object.assign(out, { [f]: parsed.data[f] });
    return out;
  } catch {
    return null;
  }
}

/**
 * Chat insight on ordinary agents: after each finished reply of an agent with enableChatInsight,
 * its conversation is (re)analysed by a job with the agent's model — topics, sentiment, open
 * questions — and kept for the agent's owner, who alone reads it.
 */
export class ChatInsightService {
  constructor(
    private readonly platform: Platform,
    private readonly deps: ChatInsightDeps,
  ) {
    platform.jobs.define<{ sessionId: string }>(
      CHAT_INSIGHT_JOB,
      { retryLimit: 1, retryDelaySeconds: 10, expireInSeconds: 5 * 60, concurrency: 4 },
      (job) => this.analyse(job.data.sessionId),
    );
  }

  private get db() {
    return this.platform.db;
  }

  /**
   * A reply ended in a conversation with such an agent: queue its analysis. A conversation whose
   * analysis is already queued is not queued twice (the job reads the newest messages anyway).
   */
  async replied(ctx: { caller: Caller; agent: RuntimeAgent; sessionId: string; lang: Language }) {
    if (!ctx.agent.chatOption.enableChatInsight) return;
    const chosen = ctx.agent.chatOption.chatInsightFeatures.filter((f): f is ChatInsightFeature =>
      (CHAT_INSIGHT_FEATURES as readonly string[]).includes(f),
    );
    const values = {
      tenantId: ctx.agent.tenantId,
      ownerId: ctx.agent.ownerId,
      agentId: ctx.agent.agentId,
      sessionId: ctx.sessionId,
      userId: ctx.caller.userId,
      modelId: ctx.agent.model.modelId,
      features: chosen.length ? chosen : [...CHAT_INSIGHT_FEATURES],
      lang: ctx.lang,
      status: "PENDING",
    };
    const queued = await this.db
      .insert(chatInsights)
      .values(values)
      .onConflictDoUpdate({
        target: chatInsights.sessionId,
        set: { modelId: values.modelId, features: values.features, lang: values.lang, status: "PENDING", updatedAt: new Date() },
        setWhere: ne(chatInsights.status, "PENDING"),
      })
      .returning({ id: chatInsights.id });
    if (queued.length) await this.platform.jobs.send(CHAT_INSIGHT_JOB, { sessionId: ctx.sessionId });
  }

  /** The job: read the conversation, ask the agent's model, keep the analysis (or why it failed). */
  async analyse(sessionId: string) {
    const [row] = await this.db.select().from(chatInsights).where(eq(chatInsights.sessionId, sessionId));
    if (row?.status !== "PENDING") return;
    await this.db.update(chatInsights).set({ status: "RUNNING", updatedAt: new Date() }).where(eq(chatInsights.id, row.id));
    const lang: Language = row.lang === "en" ? "en" : "zh";
    try {
      const transcript = (await this.deps.chat()?.transcript(sessionId, TRANSCRIPT_MESSAGES)) ?? [];
      if (!transcript.length) throw new AppError("chatInsightEmpty", 400);
      const model = await this.deps.models()?.usable(row.tenantId, "LLM", row.modelId);
      if (!model) throw new AppError("insightNoModel", 503);
      const features = row.features as ChatInsightFeature[];
      const text = transcript.map((m) => `${m.role === "user" ? "用户" : "助手"}：${m.content.slice(0, MESSAGE_CHARS)}`).join("\n");
      const answer = await generateText({
        model: chatModelOf(model),
        maxRetries: 1,
        maxOutputTokens: 800,
        temperature: 0.2,
        abortSignal: AbortSignal.timeout(60_000),
        system: `${CHAT_INSIGHT_MARK} 你为智能体的所有者分析一段用户与智能体的对话。用${lang === "en" ? "English" : "中文"}作答，只输出 JSON：{"summary": 一两句话的概要, ${features.map((f) => ASK[f]).join(", ")}}`,
        prompt: text.slice(-12_000),
      });
      const analysis = parseAnalysis(answer.text, features);
      if (!analysis) throw new AppError("chatInsightUnreadable", 502);
      await this.finish(row, { status: "DONE", analysis, messageCount: transcript.length, error: null });
    } catch (e) {
      this.platform.log.warn({ err: e, sessionId }, "chat insight failed");
      const error = e instanceof AppError ? translate(e.key, lang, e.params) : translate("chatInsightUnreadable", lang);
      await this.finish(row, { status: "FAILED", error });
    }
  }

  /** Ends a run, unless a newer reply queued the conversation again meanwhile (that run then writes). */
  private async finish(row: Row, set: Partial<Row>) {
    await this.db
      .update(chatInsights)
      .set({ ...set, updatedAt: new Date() })
      .where(and(eq(chatInsights.id, row.id), eq(chatInsights.status, "RUNNING")));
  }

  private toItem(row: Row): ChatInsightItem {
    return {
      id: row.id,
      agentId: row.agentId,
      sessionId: row.sessionId,
      status: row.status as InsightStatus,
      analysis: row.analysis ?? null,
      messageCount: row.messageCount,
      error: row.error,
      updateTime: row.updatedAt.toISOString(),
    };
  }

  /** The analyses of one agent's conversations, newest first: for the agent's owner in its tenant only. */
  async list(caller: Caller, q: { agent_id: string; page_number: number; page_size: number }) {
    const where = and(
      eq(chatInsights.agentId, q.agent_id),
      eq(chatInsights.ownerId, caller.userId),
      eq(chatInsights.tenantId, caller.tenantId),
    );
    const rows = await this.db
      .select()
      .from(chatInsights)
      .where(where)
      .orderBy(desc(chatInsights.updatedAt), desc(sql`${chatInsights.id}`))
      .limit(q.page_size)
      .offset((q.page_number - 1) * q.page_size);
    const [{ n }] = await this.db.select({ n: count() }).from(chatInsights).where(where);
    return { list: rows.map((r) => this.toItem(r)), total: n };
  }
}
