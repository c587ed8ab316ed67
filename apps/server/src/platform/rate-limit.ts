import { randomUUID } from "node:crypto";
import { and, eq, lt, or, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { rateCounters, rateLeases } from "../db/schema/index.ts";
import { type AppError, tooMany } from "./errors.ts";

/** A try counted in a window; `release` gives it back (a try that turned out fine). */
export interface Claim {
  release(): Promise<void>;
}

/** A held place among a key's concurrent leases; `release` frees it (idempotent). */
export interface Lease {
  release(): Promise<void>;
}

/**
 * Fixed-window counters and concurrent leases in the database, so every server process shares them.
 *
 * There is no "check, then count": `take` counts the try first and refuses it when the window
 * then holds more than the limit, so parallel requests cannot all slip under the limit together.
 */
/** When a lease taken or renewed now expires. */
const expiryAfter = (ttlSeconds: number) => new Date(Date.now() + ttlSeconds * 1000);

export class RateLimiter {
  constructor(private readonly db: Db) {}

  private window(windowSeconds: number, now = Date.now()) {
    const ms = windowSeconds * 1000;
    const start = Math.floor(now / ms) * ms;
    return { start: new Date(start), retryAfter: Math.ceil((start + ms - now) / 1000) };
  }

  /**
   * Claims one try of `key` in the current window; refused (`refuse`, default tooMany) when the
   * window already held `limit`. Limits on failures claim every try and give back the ones that
   * did not fail.
   */
  async take(
    key: string,
    limit: number,
    windowSeconds: number,
    refuse: (retryAfter: number) => AppError = tooMany,
    /** How much this try counts (e.g. tokens used); 1 by default. */
    amount = 1,
  ): Promise<Claim> {
    return this.takeAll([{ key, limit, windowSeconds, refuse, amount }]);
  }

  /**
   * Claims one try of each key (distinct keys) in one statement: a request under several limits
   * makes one round trip, not one per limit. Refused as a whole, with the first refusing limit's
   * error, when any window then holds more than its limit; the tries are then given back.
   */
  async takeAll(
    claims: { key: string; limit: number; windowSeconds: number; refuse?: (retryAfter: number) => AppError; amount?: number }[],
  ): Promise<Claim> {
    const now = Date.now();
    const counted = claims.map((c) => ({ ...c, amount: c.amount ?? 1, ...this.window(c.windowSeconds, now) }));
    const rows = await this.db
      .insert(rateCounters)
      .values(counted.map((c) => ({ key: c.key, windowStart: c.start, count: c.amount })))
      .onConflictDoUpdate({
        target: [rateCounters.key, rateCounters.windowStart],
        set: { count: sql`${rateCounters.count} + excluded.count` },
      })
      .returning({ key: rateCounters.key, count: rateCounters.count });
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await this.db
        .update(rateCounters)
        .set({
          count: sql`greatest(${rateCounters.count} - (${sql.join(
            counted.map((c) => sql`case when ${rateCounters.key} = ${c.key} then ${c.amount}::int else 0 end`),
            sql` + `,
          )}), 0)`,
        })
        .where(or(...counted.map((c) => and(eq(rateCounters.key, c.key), eq(rateCounters.windowStart, c.start)))));
    };
    const over = counted.find((c) => (rows.find((r) => r.key === c.key)?.count ?? 0) > c.limit);
    if (over) {
      // A refused try is not a try: it does not push the window further past the limit.
      await release();
      throw (over.refuse ?? tooMany)(over.retryAfter);
    }
    return { release };
  }

  /**
   * Takes one of `limit` concurrent places of `key` (e.g. a user's running chat streams). The
   * lease is renewed while held and expires `ttlSeconds` after its holder stops renewing it, so
   * a process that dies frees its places. Holders of one key queue on an advisory lock held
   * for the one statement that takes it, so parallel requests neither overrun the limit nor shut each other out.
   */
  async lease(key: string, limit: number, ttlSeconds: number, refuse: () => AppError = () => tooMany(ttlSeconds)): Promise<Lease> {
    const id = randomUUID();
    // One statement (see migration 0031): the key's advisory lock, then counted and taken.
    const result = (await this.db.execute(
      sql`select take_lease(${id}, ${key}, ${expiryAfter(ttlSeconds).toISOString()}::timestamptz, ${new Date().toISOString()}::timestamptz, ${limit}) as held`,
    )) as unknown as { rows: { held: boolean }[] };
    if (!result.rows[0]?.held) throw refuse();
    const db = this.db;
    let released = false;
    const timer = setInterval(
      () => {
        db.update(rateLeases)
          .set({ expiresAt: expiryAfter(ttlSeconds) })
          .where(eq(rateLeases.id, id))
          .catch(() => undefined);
      },
      (ttlSeconds * 1000) / 3,
    );
    timer.unref();
    // A method, not a named arrow: a lease is held for as long as its reply streams, and under tsx
    // every named function made per call carries a property table of its own.
    return {
      async release() {
        if (released) return;
        released = true;
        clearInterval(timer);
        await db.delete(rateLeases).where(eq(rateLeases.id, id));
      },
    };
  }

  async purge(olderThan: Date) {
    await this.db.delete(rateCounters).where(lt(rateCounters.windowStart, olderThan));
    await this.db.delete(rateLeases).where(lt(rateLeases.expiresAt, new Date()));
  }
}
