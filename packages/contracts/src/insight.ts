import { z } from "zod";

/**
 * Report agents (agentType `insight`, doc 1 §2–§3) and their generated reports. The report
 * lookup is the spec's GET /prod-api/dashboard/tReportBuilder/findByAgentId; the other report
 * calls beside it are ours. The chat learns that a report is ready through
 * GET /agent/agent_runtime/get_insight_url, polled every 2 s at most 90 times, stopping on code 500.
 */
export const INSIGHT_POLL_INTERVAL_MS = 2000;
export const INSIGHT_POLL_MAX_TRIES = 90;
/** The envelope code of a report whose generation failed: the poll stops on it (doc 2 §5). */
export const INSIGHT_FAILED_CODE = 500;
/** The report page's query `type` (doc 1 §2: projectId, name and type=10). */
export const INSIGHT_REPORT_PAGE_TYPE = 10;
/** Analysis steps one report runs at most (each one SELECT through the read-only guard). */
export const INSIGHT_MAX_STEPS = 6;
export const INSIGHT_QUESTION_MAX = 500;

export const INSIGHT_STATUSES = ["PENDING", "RUNNING", "DONE", "FAILED"] as const;
export const insightStatus = z.enum(INSIGHT_STATUSES);
export type InsightStatus = z.infer<typeof insightStatus>;

/** One step of a report's generation as the chat shows it (doc 2 §3 Message insightStep). */
export const insightStepItem = z.object({
  title: z.string(),
  isEnd: z.boolean(),
  stepList: z.array(z.object({ url: z.string(), learning: z.string() })),
});
export type InsightStepItem = z.infer<typeof insightStepItem>;

export const CHART_KINDS = ["bar", "line", "pie"] as const;
export const reportBlock = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("chart"),
    title: z.string(),
    chartType: z.enum(CHART_KINDS),
    /** The query's first column, whose values are the categories (absent in reports built before it was kept). */
    categoryColumn: z.string().optional(),
    categories: z.array(z.string()),
    series: z.array(z.object({ name: z.string(), data: z.array(z.number()) })),
    sql: z.string(),
  }),
  z.object({
    kind: z.literal("table"),
    title: z.string(),
    columns: z.array(z.string()),
    rows: z.array(z.array(z.union([z.string(), z.number(), z.boolean(), z.null()]))),
    sql: z.string(),
  }),
  z.object({ kind: z.literal("text"), title: z.string(), content: z.string() }),
]);
export type ReportBlock = z.infer<typeof reportBlock>;

export const insightReport = z.object({
  id: z.string(),
  agentId: z.string(),
  agentName: z.string(),
  title: z.string(),
  question: z.string(),
  status: insightStatus,
  blocks: z.array(reportBlock),
  insightStep: z.array(insightStepItem),
  createdTime: z.string(),
  /** When the report last changed (built, edited or refreshed); an edit names it to be refused if it is stale. */
  updateTime: z.string(),
  /** The report agent's special category when it asked (null: a general report). */
  category: z.string().nullable(),
  /** Why a FAILED report failed, for people. */
  error: z.string().nullable(),
  /** Set for the owner only: the page address a share-link holder opens. */
  shareToken: z.string().nullable(),
});
export type InsightReport = z.infer<typeof insightReport>;

export const insightReportItem = insightReport.pick({
  id: true,
  agentId: true,
  agentName: true,
  title: true,
  question: true,
  status: true,
  createdTime: true,
  category: true,
});
export type InsightReportItem = z.infer<typeof insightReportItem>;

export const getInsightUrlQuery = z.object({
  session_id: z.string().min(1).max(64),
  message_id: z.string().min(1).max(64).optional(),
});
/** Not ready: url null with the steps so far; ready: the report page's address. */
export const insightUrlResult = z.object({
  reportId: z.string(),
  status: insightStatus,
  url: z.string().nullable(),
  insightStep: z.array(insightStepItem),
  /** The report agent's special category (chatWord and chatPPT replies offer their file at once). */
  category: z.string().nullable(),
});
export type InsightUrlResult = z.infer<typeof insightUrlResult>;

export const findByAgentIdQuery = z.object({ id: z.string().min(1).max(64) });
export const reportIdQuery = z.object({ id: z.string().min(1).max(64) });
export const sharedReportQuery = z.object({ token: z.string().min(16).max(128) });
/** A report's export formats: a page, Markdown, a printed PDF, a Word document, a slide deck. */
export const REPORT_EXPORT_FORMATS = ["html", "markdown", "pdf", "docx", "pptx"] as const;
export type ReportExportFormat = (typeof REPORT_EXPORT_FORMATS)[number];
export const reportExportQuery = z.object({ id: z.string().min(1).max(64), format: z.enum(REPORT_EXPORT_FORMATS).default("html") });
export const reportShareResult = z.object({ shareToken: z.string() });

/** How the report builder draws a chart or table block. */
export const REPORT_VIEWS = ["bar", "line", "pie", "table"] as const;
export type ReportView = (typeof REPORT_VIEWS)[number];
export const reportViewOf = (b: ReportBlock): ReportView | null => (b.kind === "chart" ? b.chartType : b.kind === "table" ? "table" : null);
/**
 * The report builder's save (ours): the owner's finished report with a new title, its blocks in a
 * new order (each block of the report as read, by position, exactly once), retitled and redrawn.
 * The data and SQL stay the server's: an edit only rearranges what the report holds.
 */
export const reportUpdateRequest = z.object({
  id: z.string().min(1).max(64),
  updateTime: z.string().min(1).max(64),
  title: z.string().trim().min(1).max(200),
  blocks: z
    .array(
      z.object({ from: z.number().int().min(0).max(99), title: z.string().trim().min(1).max(200), view: z.enum(REPORT_VIEWS).optional() }),
    )
    .min(1)
    .max(100),
});
export type ReportUpdateRequest = z.infer<typeof reportUpdateRequest>;

/** The report page address (opened in a new tab): the agent as projectId, its name and type=10, and the report. */
export function reportPageUrl(r: { agentId: string; agentName: string; id: string }) {
  const q = new URLSearchParams({ projectId: r.agentId, name: r.agentName, type: String(INSIGHT_REPORT_PAGE_TYPE), reportId: r.id });
  return `/insight-report?${q}`;
}

/** A report opened read-only by a share-link holder (the share token in the query). */
export function reportSharedUrl(shareToken: string) {
  return `/insight-detail?${new URLSearchParams({ share: shareToken })}`;
}

/** A finished report as a file (the export call; it needs the owner's token or the report token). */
export function reportExportUrl(id: string, format: ReportExportFormat) {
  return `/prod-api/dashboard/tReportBuilder/export?${new URLSearchParams({ id, format })}`;
}

/**
 * Chat insight on ordinary agents (chatOption.enableChatInsight, chatInsightFeatures): after a
 * conversation, its analysis for the agent's owner. The features an agent can ask for; an empty
 * chatInsightFeatures asks for all of them.
 */
export const CHAT_INSIGHT_FEATURES = ["topics", "sentiment", "openQuestions"] as const;
export type ChatInsightFeature = (typeof CHAT_INSIGHT_FEATURES)[number];
export const SENTIMENTS = ["positive", "neutral", "negative"] as const;

export const chatInsightAnalysis = z.object({
  summary: z.string().max(2000),
  topics: z.array(z.string().max(200)).max(20).optional(),
  sentiment: z.enum(SENTIMENTS).optional(),
  openQuestions: z.array(z.string().max(500)).max(20).optional(),
});
export type ChatInsightAnalysis = z.infer<typeof chatInsightAnalysis>;

export const chatInsightItem = z.object({
  id: z.string(),
  agentId: z.string(),
  sessionId: z.string(),
  status: insightStatus,
  analysis: chatInsightAnalysis.nullable(),
  messageCount: z.number().int(),
  error: z.string().nullable(),
  updateTime: z.string(),
});
export type ChatInsightItem = z.infer<typeof chatInsightItem>;

export const CHAT_INSIGHT_PAGE_SIZE = 20;
export const chatInsightListQuery = z.object({
  agent_id: z.string().min(1).max(64),
  page_number: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(CHAT_INSIGHT_PAGE_SIZE),
});
export const chatInsightList = z.object({ list: z.array(chatInsightItem), total: z.number().int() });
