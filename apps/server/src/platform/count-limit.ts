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
 * `refuse(limit)` is thrown when the set is full, and then nothing is inserted.
 */
export async function insertWithinLimit<T>(
  db: Db,
  set: string,
  limit: number | null,
  steps: { count: (tx: Tx) => Promise<number>; refuse: (limit: number) => Error; insert: (tx: Tx) => Promise<T> },
): Promise<T> {
  return db.transaction(async (tx) => {
    if (limit !== null) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`count-limit:${set}`}))`);
      if ((await steps.count(tx)) >= limit) throw steps.refuse(limit);
    }
    return steps.insert(tx);
  });
}
