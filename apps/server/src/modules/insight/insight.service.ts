import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import {
  type DataQueryResult,
  type InsightCategory,
  INSIGHT_MAX_STEPS,
  INSIGHT_QUESTION_MAX,
  type InsightReport,
  type InsightReportItem,
  type InsightStatus,
  type InsightStepItem,
  type InsightUrlResult,
  type Language,
  type ReportBlock,
  type ReportExportFormat,
  type ReportUpdateRequest,
  reportExportUrl,
  reportPageUrl,
  reportSharedUrl,
  reportViewOf,
} from "@agentfair/contracts";
import { generateText } from "ai";
import { and, count, desc, eq, gte } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { insightReports } from "../../db/schema/index.ts";
import type { InsightPlanStep, InsightSource } from "../../db/schema/insight.ts";
import type { Caller } from "../../platform/auth.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { insertWithinLimit } from "../../platform/count-limit.ts";
import { translate } from "../../platform/messages.ts";
import type { Platform } from "../../platform/platform.ts";
import type { Billing } from "../billing/billing.seam.ts";
import { shanghaiDay } from "../billing/quotas.ts";
import type { RuntimeAgent } from "../agents/runtime-agent.ts";
import type { DatatablesService } from "../datatables/datatables.service.ts";
import type { ModelsService } from "../models/models.service.ts";
import { chatModelOf } from "../models/provider.ts";
import { blockOf, parsePlan, redraw, reportHtml, reportMarkdown, rowsPreview } from "./report.ts";
import { type ReportPrinter, reportDocx, reportPptx } from "./report-export.ts";

/** Marks of the two model prompts; the local test model recognises them too. */
export const INSIGHT_PLAN_MARK = "【数据分析规划】";
export const INSIGHT_FINDINGS_MARK = "【数据分析结论】";
export const BUILD_JOB = "insight.build";
/** PDF, Word and slide exports per user and 10 minutes. */
export const EXPORTS_PER_10_MINUTES = 30;
/** Report refreshes (each re-runs the report's queries) per user and 10 minutes. */
export const REFRESHES_PER_10_MINUTES = 30;

type Row = typeof insightReports.$inferSelect;

export interface InsightDeps {
  datatables: DatatablesService;
  models: () => ModelsService | undefined;
  /** The member template's daily report limit. */
  billing: () => Pick<Billing, "insightPerDay" | "insightTypes"> | undefined;
  /** Industry reports: passages of the agent's knowledge bases for the question (none bound: none). */
  knowledge: () => { passages(agent: RuntimeAgent, query: string): Promise<Omit<InsightSource, "n">[]> } | undefined;
  /** The chat keeps the steps with the reply, so a reopened session shows them. */
  chat: () => { setInsightStep(messageId: string, steps: InsightStepItem[]): Promise<void> } | undefined;
  printer: ReportPrinter;
}

/**
 * How each special category shapes a report: how many steps it plans, what the plan and the
 * findings are asked for, and the file a chatWord or chatPPT reply offers at once. A report agent
 * without a category is the general one (a dashboard-like report, as "chat dashboard").
 */
interface CategoryProfile {
  minSteps: number;
  maxSteps: number;
  plan: string;
  findings: string;
  findingsTokens: number;
  file?: "docx" | "pptx";
}
const GENERAL: CategoryProfile = {
  minSteps: 1,
  maxSteps: INSIGHT_MAX_STEPS,
  plan: "",
  findings: "用用户的语言写出 3 到 5 条简明的数据分析结论（Markdown 列表），只陈述数据支持的事实。",
  findingsTokens: 1200,
};
export const CATEGORY_PROFILES: Record<InsightCategory, CategoryProfile> = {
  chatBi: {
    minSteps: 1,
    maxSteps: 1,
    plan: "用一张最能回答问题的图表（bar、line 或 pie）作答。",
    findings: "用用户的语言以 1 到 2 句话直接回答问题（Markdown 列表），只陈述数据支持的事实。",
    findingsTokens: 400,
  },
  "chat dashboard": {
    ...GENERAL,
    minSteps: 2,
    plan: "组成一个仪表盘：每步一张图表（bar、line 或 pie），从不同角度回答问题。",
  },
  chatWord: { ...GENERAL, minSteps: 2, plan: "报告将导出为 Word 文档：图表与明细表搭配。", file: "docx" },
  chatPPT: { ...GENERAL, minSteps: 2, plan: "报告将导出为 PPT 演示文稿：每步一页，优先用图表。", file: "pptx" },
  "industry report": {
    ...GENERAL,
    minSteps: 2,
    plan: "这是一篇行业报告的数据部分。",
    findings:
      "用用户的语言写一篇行业报告（Markdown），分为「## 概述」「## 数据分析」「## 趋势与风险」「## 建议」四节；数据只陈述查询结果支持的事实，引用参考资料时标注 [n]。",
    findingsTokens: 3000,
  },
};
const profileOf = (category: string | null): CategoryProfile => (category && CATEGORY_PROFILES[category as InsightCategory]) || GENERAL;

/** How often a channel waiting for a report looks at it (the job may run on any process). */
const SETTLE_POLL_MS = 1000;

/** Midnight of today in Asia/Shanghai (no daylight saving there), where the daily limits turn over. */
const shanghaiMidnight = () => new Date(`${shanghaiDay()}T00:00:00+08:00`);

/**
 * Report agents: a question in the chat becomes a report row and an `insight.build` job that plans
 * the analysis with the agent's model, runs each planned SELECT through the data tables' read-only
 * guard (over the asker's tenant's tables only), and writes the report: charts, tables, findings.
 */
export class InsightService {
  constructor(
    private readonly platform: Platform,
    private readonly deps: InsightDeps,
  ) {
    platform.jobs.define<{ reportId: string }>(
      BUILD_JOB,
      { retryLimit: 1, retryDelaySeconds: 5, expireInSeconds: 10 * 60, concurrency: 2 },
      (job) => this.build(job.data.reportId),
    );
  }

  private get db() {
    return this.platform.db;
  }

  // ---- access -----------------------------------------------------------------------------------

  /**
   * The one check: a report is its asker's, in the asker's tenant; anything else is not found.
   * `lock`: in a transaction, the row stays locked until it ends (the report builder's writes).
   */
  private async own(caller: Caller, id: string, tx: Tx = this.db, lock = false): Promise<Row> {
    const query = tx.select().from(insightReports).where(eq(insightReports.id, id));
    const [row] = await (lock ? query.for("update") : query);
    if (!row || row.ownerId !== caller.userId || row.tenantId !== caller.tenantId) throw notFound();
    return row;
  }

  /** The report builder works on finished reports only (a running job still writes the blocks). */
  private async ownDone(caller: Caller, id: string, tx: Tx = this.db, lock = false): Promise<Row> {
    const row = await this.own(caller, id, tx, lock);
    if (row.status !== "DONE") throw new AppError("insightReportNotDone", 409);
    return row;
  }

  private toWire(row: Row, owner: boolean): InsightReport {
    return {
      id: row.id,
      agentId: row.agentId,
      agentName: row.agentName,
      title: row.title || row.question,
      question: row.question,
      status: row.status as InsightStatus,
      blocks: row.blocks,
      insightStep: row.steps,
      createdTime: row.createdAt.toISOString(),
      updateTime: row.updatedAt.toISOString(),
      category: row.category,
      error: row.error,
      shareToken: owner ? row.shareToken : null,
    };
  }

  private item(row: Row): InsightReportItem {
    const { id, agentId, agentName, title, question, status, createdTime, category } = this.toWire(row, false);
    // (error and blocks stay out of lists)
    return { id, agentId, agentName, title, question, status, createdTime, category };
  }

  // ---- from the chat ------------------------------------------------------------------------------

  /** A question to a report agent: the report row and its job; the steps so far for the stream. */
  async start(ctx: { caller: Caller; agent: RuntimeAgent; sessionId: string; messageId: string; query: string; lang: Language }) {
    const steps: InsightStepItem[] = [{ title: translate("insightPlanning", ctx.lang), isEnd: false, stepList: [] }];
    const category = ctx.agent.insightCategory ?? null;
    // A special category is a capability of the member plan (its `types`), like chatPPT.
    const types = category ? await this.deps.billing()?.insightTypes(ctx.caller) : null;
    if (category && types && !types.includes(category)) throw new AppError("insightCategoryNotInPlan", 403, { category });
    const limit = await this.deps.billing()?.insightPerDay(ctx.caller);
    // The passages are found now, while the agent (its bound bases) is at hand; the job quotes them.
    const sources: InsightSource[] =
      category === "industry report"
        ? (
            await (this.deps.knowledge()?.passages(ctx.agent, ctx.query) ?? Promise.resolve([])).catch((err) => {
              this.platform.log.warn({ err }, "industry report: searching the knowledge bases failed");
              return [];
            })
          ).map((p, i) => ({ n: i + 1, source: p.source.slice(0, 200), text: p.text.slice(0, 1500) }))
        : [];
    // The day's reports are the count: the asker's reports queue on a transaction lock, so parallel
    // questions are counted one after another and no more than the limit get through.
    const row = await insertWithinLimit(this.db, `insight-day:${ctx.caller.userId}`, limit ?? null, {
      count: async (tx) => {
        const [{ n }] = await tx
          .select({ n: count() })
          .from(insightReports)
          .where(and(eq(insightReports.ownerId, ctx.caller.userId), gte(insightReports.createdAt, shanghaiMidnight())));
        return n;
      },
      refuse: (max) => new AppError("insightDailyLimit", 429, { count: max }),
      insert: async (tx) => {
        const [inserted] = await tx
          .insert(insightReports)
          .values({
            tenantId: ctx.caller.tenantId,
            ownerId: ctx.caller.userId,
            agentId: ctx.agent.agentId,
            agentName: ctx.agent.agentName,
            sessionId: ctx.sessionId,
            messageId: ctx.messageId,
            modelId: ctx.agent.model.modelId,
            question: ctx.query.slice(0, INSIGHT_QUESTION_MAX),
            lang: ctx.lang,
            title: ctx.query.slice(0, 60),
            steps,
            category,
            sources,
          })
          .returning();
        return inserted;
      },
    });
    await this.platform.jobs.send(BUILD_JOB, { reportId: row.id });
    return { reportId: row.id, insightStep: steps, content: translate("insightStarted", ctx.lang) };
  }

  private async save(row: Row, set: Partial<Row>) {
    await this.db
      .update(insightReports)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(insightReports.id, row.id));
    if (set.steps && row.messageId)
      await this.deps
        .chat()
        ?.setInsightStep(row.messageId, set.steps)
        .catch((err) => this.platform.log.warn({ err }, "keeping the reply's insight steps failed"));
  }

  /** The job: plan, query through the guard, write findings. A failure is the report's FAILED state. */
  async build(reportId: string) {
    const [row] = await this.db.select().from(insightReports).where(eq(insightReports.id, reportId));
    if (!row || row.status === "DONE" || row.status === "FAILED") return;
    const lang: Language = row.lang === "en" ? "en" : "zh";
    const steps: InsightStepItem[] = [{ title: translate("insightPlanning", lang), isEnd: false, stepList: [] }];
    await this.save(row, { status: "RUNNING", steps });
    const profile = profileOf(row.category);
    try {
      const tables = await this.deps.datatables.readableTables({ userId: row.ownerId, tenantId: row.tenantId });
      if (!tables.length) throw new AppError("insightNoTables", 400);
      if (row.category === "industry report") {
        steps.unshift({
          title: translate("insightSearching", lang),
          isEnd: true,
          stepList: [{ url: "", learning: translate("insightSourcesFound", lang, { count: row.sources.length }) }],
        });
      }
      const model = await this.deps.models()?.usable(row.tenantId, "LLM", row.modelId);
      if (!model) throw new AppError("insightNoModel", 503);
      const schema = tables
        .map(
          (t) =>
            `TABLE ${t.name}: ${t.fields.map((f) => `${f.name} ${f.type}${f.label ? ` (${f.label})` : ""}`).join(", ")}\n-- ${t.introduction}`,
        )
        .join("\n");
      const planned = await generateText({
        model: chatModelOf(model),
        maxRetries: 1,
        maxOutputTokens: 1500,
        temperature: 0.2,
        abortSignal: AbortSignal.timeout(60_000),
        system: `${INSIGHT_PLAN_MARK} 你是数据分析师。根据用户问题和下列数据表，规划 ${profile.minSteps === profile.maxSteps ? profile.maxSteps : `${profile.minSteps} 到 ${profile.maxSteps}`} 个分析步骤，每步一条只读 SELECT（PostgreSQL 语法，只用这些表和列）。${profile.plan}只输出 JSON：{"title":"报告标题","steps":[{"title":"步骤标题","sql":"SELECT ...","chart":"bar|line|pie|table"}]}。图表步骤的第一列是类别，其余列是数值。\n${schema}`,
        prompt: row.question,
      });
      const plan = parsePlan(planned.text, profile.maxSteps);
      if (!plan) throw new AppError("insightPlanUnreadable", 502);
      const planning = steps[steps.length - 1];
      Object.assign(planning, { isEnd: true, stepList: plan.steps.map((s) => ({ url: "", learning: s.title })) });
      const running: InsightStepItem = { title: translate("insightRunning", lang), isEnd: false, stepList: [] };
      steps.push(running);
      await this.save(row, { title: plan.title || row.title, plan: plan.steps, steps });
      const blocks: ReportBlock[] = [];
      const results: { step: InsightPlanStep; result: DataQueryResult }[] = [];
      for (const step of plan.steps) {
        let learning: string;
        try {
          const result = await this.deps.datatables.query({ userId: row.ownerId, tenantId: row.tenantId }, step.sql);
          results.push({ step, result });
          blocks.push(blockOf(step, result));
          learning = translate("insightRows", lang, { rows: result.rows.length, preview: rowsPreview(result) });
        } catch (e) {
          const detail = e instanceof AppError ? translate(e.key, lang, { ...e.params, detail: String(e.params.detail ?? "") }) : "error";
          learning = translate("insightQueryFailed", lang, { detail: detail.slice(0, 200) });
        }
        running.stepList.push({ url: `#sql:${step.title}`, learning: `${step.title}：${learning}` });
        await this.save(row, { steps });
      }
      running.isEnd = true;
      if (!results.length)
        throw new AppError("insightFailed", 400, {
          detail: running.stepList
            .map((s) => s.learning)
            .join("；")
            .slice(0, 300),
        });
      const writing: InsightStepItem = { title: translate("insightWriting", lang), isEnd: false, stepList: [] };
      steps.push(writing);
      await this.save(row, { steps });
      const facts = results
        .map(
          ({ step, result }) =>
            `## ${step.title}\n${result.columns.join(" | ")}\n${result.rows
              .slice(0, 30)
              .map((r) => r.join(" | "))
              .join("\n")}`,
        )
        .join("\n\n");
      const sources = row.sources.map((p) => `[${p.n}] ${p.source}\n${p.text}`).join("\n\n");
      const findings = await generateText({
        model: chatModelOf(model),
        maxRetries: 1,
        maxOutputTokens: profile.findingsTokens,
        temperature: 0.3,
        abortSignal: AbortSignal.timeout(90_000),
        system: `${INSIGHT_FINDINGS_MARK} 根据查询结果，${profile.findings}`,
        prompt: `问题：${row.question}\n\n${facts.slice(0, 8000)}${sources ? `\n\n# 参考资料\n${sources.slice(0, 8000)}` : ""}`,
      });
      const industry = row.category === "industry report";
      const title = translate(industry ? "insightIndustryReport" : "insightFindings", lang);
      blocks.unshift({ kind: "text", title, content: findings.text.trim().slice(0, industry ? 20_000 : 6000) });
      if (row.sources.length)
        blocks.push({
          kind: "text",
          title: translate("insightSources", lang),
          content: row.sources.map((p) => `- [${p.n}] ${p.source}`).join("\n"),
        });
      writing.isEnd = true;
      writing.stepList.push({ url: "", learning: findings.text.trim().split("\n")[0]?.slice(0, 200) ?? "" });
      const done: InsightStepItem = { title: plan.title || row.title, isEnd: true, stepList: [{ url: reportPageUrl(row), learning: "" }] };
      // chatWord and chatPPT answer with their file: the chat offers it beside the report page.
      if (profile.file)
        done.stepList.push({
          url: reportExportUrl(row.id, profile.file),
          learning: translate(profile.file === "docx" ? "insightDocxReady" : "insightPptxReady", lang),
        });
      steps.push(done);
      await this.save(row, { status: "DONE", blocks, steps });
    } catch (e) {
      this.platform.log.warn({ err: e, reportId }, "insight report failed");
      const msg =
        e instanceof AppError
          ? translate(e.key, lang, { ...e.params, detail: String(e.params.detail ?? "") })
          : translate("insightFailed", lang, { detail: "model" });
      for (const s of steps) s.isEnd = true;
      await this.save(row, { status: "FAILED", error: msg.slice(0, 500), steps });
    }
  }

  /**
   * Channels without a report page (MCP, robots, tasks) cannot poll: they wait here, at most
   * `waitMs`, for the report of a reply. Done: a share link (the reader is not signed in) and the
   * findings, the link first so a shortened message keeps it; still running: the link, which shows
   * the report once it is done; failed: why.
   */
  async settle(
    caller: Caller,
    reportId: string,
    opts: { waitMs: number; signal: AbortSignal; lang: Language; origin?: string },
  ): Promise<{ status: "done" | "pending" | "failed"; content: string; url: string | null }> {
    const deadline = Date.now() + opts.waitMs;
    let row = await this.own(caller, reportId);
    while ((row.status === "PENDING" || row.status === "RUNNING") && Date.now() < deadline && !opts.signal.aborted) {
      await sleep(SETTLE_POLL_MS, undefined, { signal: opts.signal }).catch(() => undefined);
      row = await this.own(caller, reportId);
    }
    if (row.status === "FAILED")
      return { status: "failed", content: row.error ?? translate("insightFailed", opts.lang, { detail: "" }), url: null };
    const { shareToken } = await this.share(caller, reportId);
    const url = `${(this.platform.config.PUBLIC_URL || opts.origin || "").replace(/\/$/, "")}${reportSharedUrl(shareToken)}`;
    if (row.status !== "DONE") return { status: "pending", content: translate("insightReportPending", opts.lang, { url }), url };
    const findings = row.blocks.find((b) => b.kind === "text");
    const content = translate("insightReportReady", opts.lang, { findings: findings?.kind === "text" ? findings.content : row.title, url });
    return { status: "done", content, url };
  }

  // ---- reading ---------------------------------------------------------------------------------------

  /** The poll: the newest report of the caller's session (or of one reply), its steps and, when done, its page. */
  async urlFor(caller: Caller, sessionId: string, messageId?: string): Promise<{ failed: string } | InsightUrlResult> {
    const where = [
      eq(insightReports.sessionId, sessionId),
      eq(insightReports.ownerId, caller.userId),
      eq(insightReports.tenantId, caller.tenantId),
    ];
    if (messageId) where.push(eq(insightReports.messageId, messageId));
    const [row] = await this.db
      .select()
      .from(insightReports)
      .where(and(...where))
      .orderBy(desc(insightReports.createdAt))
      .limit(1);
    if (!row) throw notFound();
    if (row.status === "FAILED") return { failed: row.error ?? translate("insightFailed", "zh", { detail: "" }) };
    return {
      reportId: row.id,
      status: row.status as InsightStatus,
      url: row.status === "DONE" ? reportPageUrl(row) : null,
      insightStep: row.steps,
      category: row.category,
    };
  }

  /** The spec's report lookup: the caller's reports of an agent, newest first. */
  async findByAgentId(caller: Caller, agentId: string) {
    const rows = await this.db
      .select()
      .from(insightReports)
      .where(
        and(eq(insightReports.agentId, agentId), eq(insightReports.ownerId, caller.userId), eq(insightReports.tenantId, caller.tenantId)),
      )
      .orderBy(desc(insightReports.createdAt))
      .limit(100);
    return rows.map((r) => this.item(r));
  }

  /** The caller's recent reports over every report agent (the /insight page). */
  async recent(caller: Caller) {
    const rows = await this.db
      .select()
      .from(insightReports)
      .where(and(eq(insightReports.ownerId, caller.userId), eq(insightReports.tenantId, caller.tenantId)))
      .orderBy(desc(insightReports.createdAt))
      .limit(20);
    return rows.map((r) => this.item(r));
  }

  async get(caller: Caller, id: string) {
    return this.toWire(await this.own(caller, id), true);
  }

  /** A share link: a random token that opens this report read-only, without signing in. */
  async share(caller: Caller, id: string) {
    const row = await this.own(caller, id);
    if (row.shareToken) return { shareToken: row.shareToken };
    const shareToken = randomBytes(24).toString("base64url");
    await this.save(row, { shareToken });
    return { shareToken };
  }

  /** A report still being built is shown too: a channel hands out its link before it is done. */
  async shared(token: string) {
    const [row] = await this.db.select().from(insightReports).where(eq(insightReports.shareToken, token));
    if (!row) throw notFound();
    return this.toWire(row, false);
  }

  // ---- the report builder ----------------------------------------------------------------------------

  /**
   * The owner's edit of a finished report: its title, and its blocks reordered, retitled and redrawn
   * (bar, line, pie, table) from the data each holds. Refused when the report changed since the
   * editor read it, so two editors never overwrite each other unseen.
   */
  async update(caller: Caller, req: ReportUpdateRequest) {
    return this.db.transaction(async (tx) => {
      const row = await this.ownDone(caller, req.id, tx, true);
      if (row.updatedAt.toISOString() !== req.updateTime) throw new AppError("insightReportChanged", 409);
      const seen = new Set<number>();
      const blocks = req.blocks.map(({ from, title, view }) => {
        const block = row.blocks[from];
        if (!block || seen.has(from)) throw new AppError("insightLayoutInvalid", 400);
        seen.add(from);
        const current = reportViewOf(block);
        if (!view || !current || view === current) return { ...block, title };
        const drawn = redraw(block, view);
        if (!drawn) throw new AppError("insightViewUnfit", 400, { title });
        return { ...drawn, title };
      });
      if (seen.size !== row.blocks.length) throw new AppError("insightLayoutInvalid", 400);
      const [saved] = await tx
        .update(insightReports)
        .set({ title: req.title, blocks, updatedAt: new Date() })
        .where(eq(insightReports.id, row.id))
        .returning();
      return this.toWire(saved, true);
    });
  }

  /**
   * Against the latest data: every chart and table runs its stored SQL again through the read-only
   * guard over the tables its asker may read, keeping its title and view. A query that fails now
   * refuses the refresh and changes nothing. The written findings stay as they were written.
   */
  async refresh(caller: Caller, id: string) {
    const read = await this.ownDone(caller, id);
    await this.platform.rateLimiter.take(`insight-refresh:${caller.userId}`, REFRESHES_PER_10_MINUTES, 600);
    const fresh = new Map<string, DataQueryResult>();
    const asker = { userId: read.ownerId, tenantId: read.tenantId };
    for (const b of read.blocks)
      if (b.kind !== "text" && !fresh.has(b.sql)) fresh.set(b.sql, await this.deps.datatables.query(asker, b.sql));
    // The queries ran outside the lock; the blocks as they are now (an edit may have moved them) get the new data.
    return this.db.transaction(async (tx) => {
      const row = await this.ownDone(caller, id, tx, true);
      const blocks = row.blocks.map((b) => {
        const result = b.kind === "text" ? undefined : fresh.get(b.sql);
        const view = reportViewOf(b);
        if (!result || b.kind === "text" || !view) return b;
        return { ...blockOf({ title: b.title, sql: b.sql, chart: view }, result), title: b.title };
      });
      const [saved] = await tx
        .update(insightReports)
        .set({ blocks, updatedAt: new Date() })
        .where(eq(insightReports.id, row.id))
        .returning();
      return this.toWire(saved, true);
    });
  }

  /** A finished report as a file: a page, Markdown, a printed PDF, a Word document or a slide deck. */
  async exportReport(caller: Caller, id: string, format: ReportExportFormat) {
    const report = this.toWire(await this.own(caller, id), false);
    if (report.status !== "DONE") throw notFound();
    // The binary formats are heavy (Chromium prints the PDF): a user gets a fair share of them.
    if (format === "pdf" || format === "docx" || format === "pptx")
      await this.platform.rateLimiter.take(`insight-export:${caller.userId}`, EXPORTS_PER_10_MINUTES, 600);
    const base = (report.title || "report").replace(/[\\/:*?"<>|\r\n]+/g, "_").slice(0, 60);
    switch (format) {
      case "html":
        return { name: `${base}.html`, type: "text/html; charset=utf-8", body: reportHtml(report) };
      case "markdown":
        return { name: `${base}.md`, type: "text/markdown; charset=utf-8", body: reportMarkdown(report) };
      case "pdf":
        return { name: `${base}.pdf`, type: "application/pdf", body: await this.deps.printer.pdf(report) };
      case "docx":
        return {
          name: `${base}.docx`,
          type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
          body: await reportDocx(report),
        };
      case "pptx":
        return {
          name: `${base}.pptx`,
          type: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
          body: await reportPptx(report),
        };
    }
  }
}
