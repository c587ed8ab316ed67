import { boolean, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns.ts";
import { tenants } from "./tenants.ts";
import { users } from "./users.ts";

/** RPA robots of a tenant: the machine whose screen is watched and the stream it publishes. */
export const rpaRobots = pgTable(
  "rpa_robots",
  {
    id: id(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    robotName: text("robot_name").notNull(),
    robotType: text("robot_type").notNull().default("desktop"),
    /** The VNC target: only ever taken from this row, never from a client. */
    vncHost: text("vnc_host").notNull().default(""),
    vncPort: integer("vnc_port").notNull().default(5900),
    /** AES-256-GCM under the platform secret (purpose "rpa-vnc"); never returned, never sent to a browser. */
    vncPasswordEnc: text("vnc_password_enc"),
    /** The robot's FLV stream; served to viewers only through a short-lived signed URL on this platform. */
    streamUrl: text("stream_url").notNull().default(""),
    /** 1: not shown in the live list; anything else: listed. */
    livePolicy: integer("live_policy").notNull().default(0),
    /** Set by a platform administrator: the targets may be private (the operator's own network). */
    allowPrivate: boolean("allow_private").notNull().default(false),
    createdBy: text("created_by").references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("rpa_robots_tenant").on(t.tenantId)],
);

/** A robot task started for a chat session: what the session's live panel shows (its playInfo). */
export const rpaTasks = pgTable(
  "rpa_tasks",
  {
    id: id(),
    tenantId: text("tenant_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    /** The chat session the live panel belongs to. */
    sessionId: text("session_id").notNull(),
    robotId: text("robot_id")
      .notNull()
      .references(() => rpaRobots.id, { onDelete: "cascade" }),
    /** live | remote | iframe */
    playContainer: text("play_container").notNull(),
    /** iframe panels: the page to show (http or https). */
    iframeUrl: text("iframe_url").notNull().default(""),
    playControls: integer("play_controls").notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [index("rpa_tasks_session").on(t.sessionId, t.createdAt)],
);

/**
 * Single-use tickets for the VNC bridge: valid seconds, bound to a user, the robot and the
 * sign-in session that asked (the bridge closes when that session ends). Stored hashed.
 */
export const rpaTickets = pgTable("rpa_tickets", {
  ticketHash: text("ticket_hash").primaryKey(),
  userId: text("user_id").notNull(),
  robotId: text("robot_id").notNull(),
  sessionPairId: text("session_pair_id").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
  createdAt: createdAt(),
});
