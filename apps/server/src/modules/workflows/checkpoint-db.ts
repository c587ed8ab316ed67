import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Db } from "../../db/client.ts";
import * as schema from "../../db/schema/index.ts";

/**
 * The connections that write node checkpoints on PostgreSQL, with `synchronous_commit = off`: a commit
 * returns before its WAL reaches the disk (an fsync costs several ms; a workflow writes two rows per node).
 * Rows are visible to every process at once and a crash of our process loses nothing; only a crash of
 * PostgreSQL itself may lose the last fraction of a second of checkpoints, and those nodes then run again
 * (at least once, never skipped). Run status, money and everything else keep the main, synchronous pool.
 */
export function checkpointDatabase(url: string): { db: Db; close: () => Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: 8, options: "-c synchronous_commit=off" });
  pool.on("error", (err) => console.warn(`PostgreSQL idle connection error (workflow checkpoints): ${err.message}`));
  return { db: drizzle(pool, { schema }) as unknown as Db, close: () => pool.end() };
}
