import { sql } from "drizzle-orm";
import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { agents } from "./agents.ts";
import { createdAt, id } from "./columns.ts";
import { tenants } from "./tenants.ts";
import { users } from "./users.ts";

/**
 * API keys that expose a released agent as an MCP server. Only a keyed hash of the key is kept
 * (HMAC-SHA256 under the platform secret) and a short prefix to recognise it by; the key itself
 * is shown once, when it is made. Limits are per minute; 0 disables one.
 */
export const mcpKeys = pgTable(
  "mcp_keys",
  {
    id: id(),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    name: text("name").notNull(),
    keyHash: text("key_hash").notNull(),
    prefix: text("prefix").notNull(),
    /** Whether MCP clients also get `search_knowledge` over the agent's bound knowledge bases. */
    searchKnowledge: boolean("search_knowledge").notNull().default(false),
    requestsPerMinute: integer("requests_per_minute").notNull().default(0),
    inputTokensPerMinute: integer("input_tokens_per_minute").notNull().default(0),
    outputTokensPerMinute: integer("output_tokens_per_minute").notNull().default(0),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("mcp_keys_hash").on(t.keyHash), index("mcp_keys_agent").on(t.agentId, t.createdAt)],
);

/**
 * MCP sessions live here, not in a process: any process behind a load balancer serves any
 * request of a session (streamable HTTP), and SSE replies reach the process holding the stream.
 */
export const mcpSessions = pgTable(
  "mcp_sessions",
  {
    id: id(),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    keyId: text("key_id")
      .notNull()
      .references(() => mcpKeys.id, { onDelete: "cascade" }),
    transport: text("transport").notNull().default("http"),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("mcp_sessions_seen").on(t.lastSeenAt)],
);

/** Replies for an SSE session waiting for the process that holds its stream (read once, then deleted). */
export const mcpOutbox = pgTable(
  "mcp_outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => mcpSessions.id, { onDelete: "cascade" }),
    message: jsonb("message").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index("mcp_outbox_session").on(t.sessionId, t.id)],
);
