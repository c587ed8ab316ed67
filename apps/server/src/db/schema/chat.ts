import type { InsightStepItem } from "@agentfair/contracts";
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns.ts";
import { users } from "./users.ts";

/** A chat session of one user with one agent (released or the studio draft). */
export const chatSessions = pgTable(
  "chat_sessions",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tenantId: text("tenant_id").notNull(),
    agentId: text("agent_id").notNull(),
    release: boolean("release").notNull().default(true),
    title: text("title").notNull().default(""),
    /** The agent as it was when the session started, for read-only share views. */
    agentName: text("agent_name").notNull().default(""),
    agentIcon: text("agent_icon").notNull().default(""),
    agentIconBackground: text("agent_icon_background").notNull().default(""),
    /** Titled by the first question (or renamed); until then the web shows 'new chat'. */
    titled: boolean("titled").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("chat_sessions_user_agent").on(t.userId, t.agentId, t.updatedAt),
    // An agent's sessions over time: its owner's conversation details.
    index("chat_sessions_agent_created").on(t.agentId, t.createdAt),
  ],
);

/** Messages; a bot reply is written once, when it ends (done, stopped or failed). */
export const chatMessages = pgTable(
  "chat_messages",
  {
    id: id(),
    sessionId: text("session_id")
      .notNull()
      .references(() => chatSessions.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
    content: text("content").notNull().default(""),
    status: text("status"),
    error: text("error"),
    step: integer("step").notNull().default(0),
    toolCalls: jsonb("tool_calls").notNull().default([]),
    docs: jsonb("docs").notNull().default([]),
    media: jsonb("media").notNull().default([]),
    widgetData: jsonb("widget_data"),
    /** A report agent's reply: the report's generation steps, kept current by the report job. */
    insightStep: jsonb("insight_step").$type<InsightStepItem[]>(),
    questions: jsonb("questions").notNull().default([]),
    files: jsonb("files").notNull().default([]),
    inputTokens: integer("input_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull().default(0),
    /** The asker's feedback on a reply: like | dislike (null: none). */
    feedback: text("feedback"),
    createdAt: createdAt(),
  },
  (t) => [index("chat_messages_session").on(t.sessionId, t.createdAt)],
);

/**
 * Tuning records: the agent owner's note and corrected answer on one reply, which can be pushed
 * into one of the owner's knowledge bases as a Q&A pair.
 */
export const chatTuning = pgTable(
  "chat_tuning",
  {
    id: id(),
    tenantId: text("tenant_id").notNull(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    agentId: text("agent_id").notNull(),
    sessionId: text("session_id")
      .notNull()
      .references(() => chatSessions.id, { onDelete: "cascade" }),
    messageId: text("message_id")
      .notNull()
      .references(() => chatMessages.id, { onDelete: "cascade" }),
    /** The question asked and the reply given, as they were. */
    question: text("question").notNull(),
    answer: text("answer").notNull(),
    correctedAnswer: text("corrected_answer").notNull().default(""),
    note: text("note").notNull().default(""),
    /** The knowledge base the Q&A pair went to, and when. */
    knowledgeId: text("knowledge_id"),
    pushedAt: timestamp("pushed_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("chat_tuning_message").on(t.messageId), index("chat_tuning_agent").on(t.agentId, t.createdAt)],
);

/** Share links: a signed token names one row; revoking the row ends the link. */
export const chatShares = pgTable("chat_shares", {
  id: id(),
  sessionId: text("session_id")
    .notNull()
    .references(() => chatSessions.id, { onDelete: "cascade" }),
  userId: text("user_id").notNull(),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
  createdAt: createdAt(),
});

/** Usage time per user and agent, fed by the 10 s heartbeat. */
export const chatUsage = pgTable(
  "chat_usage",
  {
    id: id(),
    userId: text("user_id").notNull(),
    agentId: text("agent_id").notNull(),
    sessionId: text("session_id"),
    types: text("types"),
    tags: text("tags"),
    categorys: text("categorys"),
    seconds: bigint("seconds", { mode: "number" }).notNull().default(0),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("chat_usage_user_agent").on(t.userId, t.agentId, t.sessionId)],
);

/**
 * A reply being written, readable from any process while it lasts (a reconnect through the balancer,
 * a reopened session). No foreign key: the session row is written only once the reply is under way.
 * `aliveAt` is renewed by the writing process; a stream neither ended nor renewed lost its process.
 */
export const chatStreams = pgTable(
  "chat_streams",
  {
    id: text("id").primaryKey(),
    sessionId: text("session_id").notNull(),
    userId: text("user_id").notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    aliveAt: timestamp("alive_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [index("chat_streams_session").on(t.sessionId, t.createdAt), index("chat_streams_alive").on(t.aliveAt)],
);

/** A stream's events in batches, as written: events fromSeq+1 … toSeq (numbered from 1). */
export const chatStreamEvents = pgTable(
  "chat_stream_events",
  {
    streamId: text("stream_id")
      .notNull()
      .references(() => chatStreams.id, { onDelete: "cascade" }),
    fromSeq: integer("from_seq").notNull(),
    toSeq: integer("to_seq").notNull(),
    events: jsonb("events").notNull(),
  },
  (t) => [primaryKey({ columns: [t.streamId, t.fromSeq] })],
);

/**
 * A user's value of an agent's memory variable: for the user (sessionId '') or for one session
 * (a variable of scope "session"). No row: the variable's default.
 */
export const chatMemory = pgTable(
  "chat_memory",
  {
    id: id(),
    agentId: text("agent_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: text("session_id").notNull().default(""),
    name: text("name").notNull(),
    value: text("value").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("chat_memory_key").on(t.agentId, t.userId, t.sessionId, t.name)],
);
