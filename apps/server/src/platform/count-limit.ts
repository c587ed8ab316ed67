import { sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client.ts";

/**
 * Creates one row of a set whose size is limited (a user's tasks, an agent's keys, a day's
 * reports): in one transaction, the set's advisory lock, then its count, then the insert. Parallel
 * creates of one set queue on the lock, and each counts (in a statement after the lock, so with a
 * snapshot taken after it) the rows the ones before it committed: no more than `limit` get through.
 * A count and an insert as two separate steps let every parallel request count the same number
 * below the limit and insert.
 *
 * `set` names the set (e.g. `tasks:<userId>`); `limit` null means no limit, the insert alone.
 * `adding` is how much the insert adds to the count (1 unless told: several rows at once, or a
 * sum such as bytes); the insert goes through when count + adding stays within `limit`.
 * `refuse(limit, counted)` is thrown when it would not, and then nothing is inserted.
 */
export async function insertWithinLimit<T>(
  db: Db,
  set: string,
  limit: number | null,
  steps: {
    count: (tx: Tx) => Promise<number>;
    refuse: (limit: number, counted: number) => Error;
    insert: (tx: Tx) => Promise<T>;
    adding?: number;
  },
): Promise<T> {
  return db.transaction(async (tx) => {
    if (limit !== null) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`count-limit:${set}`}))`);
      const counted = await steps.count(tx);
      if (counted + (steps.adding ?? 1) > limit) throw steps.refuse(limit, counted);
    }
    return steps.insert(tx);
  });
}
