import type { ChatInsightAnalysis, InsightStepItem, ReportBlock } from "@agentfair/contracts";
import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { agents } from "./agents.ts";
import { chatSessions } from "./chat.ts";
import { createdAt, id, updatedAt } from "./columns.ts";
import { ownedColumns } from "./owned.ts";

/** The analysis a report agent planned: one SELECT per step and how its result is drawn. */
export interface InsightPlanStep {
  title: string;
  sql: string;
  chart: "bar" | "line" | "pie" | "table";
}

/** A knowledge-base passage an industry report draws on. */
export interface InsightSource {
  n: number;
  source: string;
  text: string;
}

/**
 * Reports of report agents: asked in a chat (session and reply message), built by the
 * `insight.build` job. Only the asker reads a report, or whoever holds its share token.
 */
export const insightReports = pgTable(
  "insight_reports",
  {
    id: id(),
    ...ownedColumns({ ownerOnDelete: "cascade" }),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    agentName: text("agent_name").notNull().default(""),
    sessionId: text("session_id"),
    messageId: text("message_id"),
    /** The model chosen for the agent (null: the tenant's default). */
    modelId: text("model_id"),
    question: text("question").notNull(),
    /** The asker's language: the steps and the report's headings are written in it. */
    lang: text("lang").notNull().default("zh"),
    title: text("title").notNull().default(""),
    status: text("status").notNull().default("PENDING"),
    plan: jsonb("plan").$type<InsightPlanStep[]>().notNull().default([]),
    steps: jsonb("steps").$type<InsightStepItem[]>().notNull().default([]),
    blocks: jsonb("blocks").$type<ReportBlock[]>().notNull().default([]),
    error: text("error"),
    shareToken: text("share_token"),
    /** The report agent's special category when asked (chatBi, chatWord, ...; null: a general report). */
    category: text("category"),
    /** Industry reports: the passages found in the agent's knowledge bases when asked, quoted as [n]. */
    sources: jsonb("sources").$type<InsightSource[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("insight_reports_owner_idx").on(t.ownerId, t.agentId),
    index("insight_reports_session_idx").on(t.sessionId),
    uniqueIndex("insight_reports_share_idx").on(t.shareToken),
  ],
);

/**
 * Chat insight (doc 2 §3 chatOption.enableChatInsight): one analysis per conversation with an
 * ordinary agent, for the agent's owner only. Refreshed by the `insight.chat` job after replies.
 */
export const chatInsights = pgTable(
  "chat_insights",
  {
    id: id(),
    /** ownerId: the agent's owner, the only reader. */
    ...ownedColumns({ ownerOnDelete: "cascade" }),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    /** A conversation its user deletes takes its analysis with it. */
    sessionId: text("session_id")
      .notNull()
      .references(() => chatSessions.id, { onDelete: "cascade" }),
    /** Who chatted (named to the owner by the session, not by account). */
    userId: text("user_id").notNull(),
    modelId: text("model_id"),
    /** The features the agent asked for (chatInsightFeatures) when the analysis was queued. */
    features: jsonb("features").$type<string[]>().notNull().default([]),
    lang: text("lang").notNull().default("zh"),
    /** PENDING (queued), RUNNING, DONE, FAILED. */
    status: text("status").notNull().default("PENDING"),
    analysis: jsonb("analysis").$type<ChatInsightAnalysis | null>(),
    messageCount: integer("message_count").notNull().default(0),
    error: text("error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("chat_insights_session_idx").on(t.sessionId), index("chat_insights_owner_idx").on(t.ownerId, t.agentId, t.updatedAt)],
);
