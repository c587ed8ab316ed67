import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
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
  (t) => [index("chat_sessions_user_agent").on(t.userId, t.agentId, t.updatedAt)],
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
    questions: jsonb("questions").notNull().default([]),
    files: jsonb("files").notNull().default([]),
    inputTokens: integer("input_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("chat_messages_session").on(t.sessionId, t.createdAt)],
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
