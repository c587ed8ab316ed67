import { randomUUID } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
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
    const { start, retryAfter } = this.window(windowSeconds);
    const [row] = await this.db
      .insert(rateCounters)
      .values({ key, windowStart: start, count: amount })
      .onConflictDoUpdate({
        target: [rateCounters.key, rateCounters.windowStart],
        set: { count: sql`${rateCounters.count} + ${amount}` },
      })
      .returning({ count: rateCounters.count });
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await this.db
        .update(rateCounters)
        .set({ count: sql`greatest(${rateCounters.count} - ${amount}, 0)` })
        .where(and(eq(rateCounters.key, key), eq(rateCounters.windowStart, start)));
    };
    if (row.count > limit) {
      // A refused try is not a try: it does not push the window further past the limit.
      await release();
      throw refuse(retryAfter);
    }
    return { release };
  }

  /**
   * Takes one of `limit` concurrent places of `key` (e.g. a user's running chat streams). The
   * lease is renewed while held and expires `ttlSeconds` after its holder stops renewing it, so
   * a process that dies frees its places. Holders of one key queue on a transaction-scoped
   * advisory lock, so parallel requests neither overrun the limit nor shut each other out.
   */
  async lease(key: string, limit: number, ttlSeconds: number, refuse: () => AppError = () => tooMany(ttlSeconds)): Promise<Lease> {
    const expiry = () => new Date(Date.now() + ttlSeconds * 1000);
    const held = await this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`lease:${key}`}))`);
      // Counted and taken in one statement (one round trip fewer before a reply's first token);
      // it runs after the lock, so it sees every lease committed by an earlier holder.
      const taken = (await tx.execute(sql`
        insert into ${rateLeases} (id, key, expires_at)
        select ${randomUUID()}, ${key}, ${expiry().toISOString()}::timestamptz
        where (select count(*) from ${rateLeases} where key = ${key} and expires_at > ${new Date().toISOString()}::timestamptz) < ${limit}
        returning id`)) as unknown as { rows: { id: string }[] };
      return taken.rows[0] ?? null;
    });
    if (!held) throw refuse();
    let released = false;
    const timer = setInterval(
      () => {
        this.db
          .update(rateLeases)
          .set({ expiresAt: expiry() })
          .where(eq(rateLeases.id, held.id))
          .catch(() => undefined);
      },
      (ttlSeconds * 1000) / 3,
    );
    timer.unref();
    const release = async () => {
      if (released) return;
      released = true;
      clearInterval(timer);
      await this.db.delete(rateLeases).where(eq(rateLeases.id, held.id));
    };
    return { release };
  }

  async purge(olderThan: Date) {
    await this.db.delete(rateCounters).where(lt(rateCounters.windowStart, olderThan));
    await this.db.delete(rateLeases).where(lt(rateLeases.expiresAt, new Date()));
  }
}
