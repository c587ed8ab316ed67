import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns.ts";
import { users } from "./users.ts";

/** Sign-in sessions: the token is random and only its SHA-256 is stored. */
export const authSessions = pgTable("auth_sessions", {
  id: id(),
  tokenHash: text("token_hash").notNull().unique(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  /** "web" for the main token, "report" for the report token (doc 1 §4). */
  kind: text("kind").notNull(),
  /** Both tokens of one login share a pair id so logout revokes them together. */
  pairId: text("pair_id").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
  createdAt: createdAt(),
});

export const captchas = pgTable("captchas", {
  id: id(),
  answerHash: text("answer_hash").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

export const checkCodes = pgTable("check_codes", {
  id: id(),
  tenantId: text("tenant_id").notNull(),
  contact: text("contact").notNull(),
  purpose: text("purpose").notNull(),
  codeHash: text("code_hash").notNull(),
  wrongTries: integer("wrong_tries").notNull().default(0),
  usedAt: timestamp("used_at", { withTimezone: true }),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

/** Mail that could not be sent (no SMTP_URL): administrators read it here. */
export const outbox = pgTable("outbox", {
  id: id(),
  recipient: text("recipient").notNull(),
  subject: text("subject").notNull(),
  body: text("body").notNull(),
  createdAt: createdAt(),
});

export const qrTickets = pgTable("qr_tickets", {
  id: id(),
  tenantId: text("tenant_id").notNull(),
  /** WAITING until a signed-in user confirms; the session is handed over once. */
  status: text("status").notNull().default("WAITING"),
  userId: text("user_id"),
  consumedAt: timestamp("consumed_at", { withTimezone: true }),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});
