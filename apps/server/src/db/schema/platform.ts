import { integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

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
