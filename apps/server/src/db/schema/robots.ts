import { boolean, index, jsonb, pgTable, text, timestamp, unique } from "drizzle-orm/pg-core";
import { agents } from "./agents.ts";
import { createdAt, id, updatedAt } from "./columns.ts";
import { ownedColumns } from "./owned.ts";
import { users } from "./users.ts";

/** A chat robot: a released agent answering on WeCom, DingTalk, Feishu or a generic webhook. */
export const robots = pgTable(
  "robots",
  {
    id: id(),
    ...ownedColumns({ ownerOnDelete: "cascade" }),
    name: text("name").notNull(),
    /** wecom | dingtalk | feishu | webhook */
    type: text("type").notNull(),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    enabled: boolean("enabled").notNull().default(true),
    /** The platform's public fields (corp id, app id, base URL, reply URL): shown to the owner. */
    settings: jsonb("settings").$type<Record<string, string>>().notNull().default({}),
    /** The platform's secrets as sealed JSON (AES-256-GCM, purpose "robots"); never returned. */
    secretsEnc: text("secrets_enc").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("robots_owner").on(t.ownerId, t.tenantId)],
);

/** Every callback message once: a retried callback finds its row and is not answered again. */
export const robotMessages = pgTable(
  "robot_messages",
  {
    id: id(),
    robotId: text("robot_id")
      .notNull()
      .references(() => robots.id, { onDelete: "cascade" }),
    /** The platform's message (or event) id. */
    externalId: text("external_id").notNull(),
    externalUserId: text("external_user_id").notNull(),
    text: text("text").notNull(),
    /** Where the answer goes (chat id, message id, DingTalk session webhook). */
    replyTo: jsonb("reply_to").$type<Record<string, string>>().notNull().default({}),
    /** received | answered | failed */
    status: text("status").notNull().default("received"),
    answer: text("answer").notNull().default(""),
    error: text("error"),
    /** The reply job answering it: one robot user's messages are answered one at a time, in order. */
    claimedBy: text("claimed_by"),
    createdAt: createdAt(),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
  },
  (t) => [
    unique("robot_messages_external").on(t.robotId, t.externalId),
    index("robot_messages_user").on(t.robotId, t.externalUserId, t.createdAt),
  ],
);

/** The password hash of a robot's guest account: nothing signs in with it. */
export const ROBOT_GUEST_PASSWORD_HASH = "robot-guest:no-sign-in";

/** A robot's user on the platform: a guest of the robot (or a bound platform user), with their conversation. */
export const robotUsers = pgTable(
  "robot_users",
  {
    id: id(),
    robotId: text("robot_id")
      .notNull()
      .references(() => robots.id, { onDelete: "cascade" }),
    externalUserId: text("external_user_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The chat session the conversation continues in, and whose it is. */
    sessionId: text("session_id"),
    sessionUserId: text("session_user_id"),
    createdAt: createdAt(),
  },
  (t) => [unique("robot_users_external").on(t.robotId, t.externalUserId)],
);

/**
 * One-time codes a platform user makes to bind their account to a robot chat ("绑定 CODE"): that
 * robot user's messages are then theirs (history, billing). Stored hashed; valid minutes; once.
 */
export const robotBindCodes = pgTable("robot_bind_codes", {
  codeHash: text("code_hash").primaryKey(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  tenantId: text("tenant_id").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
  createdAt: createdAt(),
});
