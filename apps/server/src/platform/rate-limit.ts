import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { rateCounters } from "../db/schema/index.ts";
import { type AppError, tooMany } from "./errors.ts";

/**
 * Fixed-window counters in the database, so every server process shares them.
 * `hit` counts one event; `assertUnder` refuses once a window holds `limit` events.
 */
export class RateLimiter {
  constructor(private readonly db: Db) {}

  private window(windowSeconds: number, now = Date.now()) {
    const ms = windowSeconds * 1000;
    const start = Math.floor(now / ms) * ms;
    return { start: new Date(start), retryAfter: Math.ceil((start + ms - now) / 1000) };
  }

  async count(key: string, windowSeconds: number): Promise<number> {
    const { start } = this.window(windowSeconds);
    const rows = await this.db
      .select({ count: rateCounters.count })
      .from(rateCounters)
      .where(and(eq(rateCounters.key, key), eq(rateCounters.windowStart, start)));
    return rows[0]?.count ?? 0;
  }

  /** `refuse` builds the error from the seconds left in the window (default: tooMany). */
  async assertUnder(key: string, limit: number, windowSeconds: number, refuse: (retryAfter: number) => AppError = tooMany) {
    if ((await this.count(key, windowSeconds)) >= limit) throw refuse(this.window(windowSeconds).retryAfter);
  }

  async hit(key: string, windowSeconds: number): Promise<number> {
    const { start } = this.window(windowSeconds);
    const rows = await this.db
      .insert(rateCounters)
      .values({ key, windowStart: start, count: 1 })
      .onConflictDoUpdate({
        target: [rateCounters.key, rateCounters.windowStart],
        set: { count: sql`${rateCounters.count} + 1` },
      })
      .returning({ count: rateCounters.count });
    return rows[0].count;
  }

  /** Takes back one event of the current window (an attempt counted up front that turned out fine). */
  async release(key: string, windowSeconds: number) {
    const { start } = this.window(windowSeconds);
    await this.db
      .update(rateCounters)
      .set({ count: sql`greatest(${rateCounters.count} - 1, 0)` })
      .where(and(eq(rateCounters.key, key), eq(rateCounters.windowStart, start)));
  }

  /** Counts the event and refuses it when it goes over the limit. */
  async consume(key: string, limit: number, windowSeconds: number) {
    const count = await this.hit(key, windowSeconds);
    if (count > limit) throw tooMany(this.window(windowSeconds).retryAfter);
  }

  async purge(olderThan: Date) {
    await this.db.delete(rateCounters).where(lt(rateCounters.windowStart, olderThan));
  }
}
