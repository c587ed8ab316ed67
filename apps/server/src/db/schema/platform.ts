import { index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { id } from "./columns.ts";

/** Key-value settings shared by every server process (e.g. the generated secret key). */
export const platformSettings = pgTable("platform_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/** Fixed-window counters for rate limits, shared across processes. */
export const rateCounters = pgTable(
  "rate_counters",
  {
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

/** Concurrent places (e.g. running chat streams) held by a process; renewed while held, so a dead process's expire. */
export const rateLeases = pgTable(
  "rate_leases",
  {
    id: id(),
    key: text("key").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("rate_leases_key_idx").on(t.key, t.expiresAt)],
);
