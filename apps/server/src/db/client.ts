import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import * as schema from "./schema/index.ts";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction or the database: repositories accept either. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0] | Db;

/** Runs raw SQL for pg-boss (and health checks) on whichever driver is in use. */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export interface Database {
  db: Db;
  driver: "pglite" | "postgres";
  executeSql: ExecuteSql;
  /** Connections of the PostgreSQL pool (none on PGlite): for the metrics. */
  pool: null | (() => { total: number; idle: number; waiting: number });
  /**
   * Messages other processes send on a channel (PostgreSQL NOTIFY). Null on PGlite, which only
   * one process can open. `onReconnect` runs when messages may have been missed.
   */
  listen:
    | null
    | ((
        channel: string,
        onMessage: (payload: string) => void,
        onReconnect: () => void,
        onLost: (err: unknown) => void,
      ) => Promise<() => Promise<void>>);
  /** The PGlite data dir as a tarball (undefined on PostgreSQL): see `snapshot`. */
  dump?: () => Promise<Blob>;
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/**
 * DATABASE_URL selects PostgreSQL; otherwise PGlite stores data under dataDir/pglite
 * ("memory://" keeps it in memory, for tests). Migrations run here, at boot.
 * `snapshot` starts an in-memory PGlite from a dumped data dir (tests start from a migrated one:
 * loading it is faster than PGlite's initdb plus every migration).
 */
export async function openDatabase(opts: { url?: string; dataDir?: string; snapshot?: Blob }): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: 10 });
    // An idle connection the server ends (restart, failover, a dropped test database) must not
    // crash the process: the pool replaces it on the next query.
    pool.on("error", (err) => console.warn(`PostgreSQL idle connection error: ${err.message}`));
    // Nor one it ends while checked out, between a transaction's statements (the pool listens only
    // to idle ones; the end can come in the same packet as the previous statement's answer): the
    // next statement fails, its caller hears of it, and the pool drops the connection on release.
    pool.on("connect", (client) => client.on("error", () => {}));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    await migratePg(drizzlePg(pool), { migrationsFolder });
    return {
      db,
      driver: "postgres",
      executeSql: async (text, values) => pool.query(text, values as unknown[]),
      pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      listen: (channel, onMessage, onReconnect, onLost) => listenPg(opts.url as string, channel, onMessage, onReconnect, onLost),
      close: () => pool.end(),
    };
  }
  const dir = opts.dataDir ? path.join(opts.dataDir, "pglite") : "memory://";
  if (opts.dataDir) fs.mkdirSync(dir, { recursive: true });
  // pgvector ships with PGlite: knowledge embeddings get an HNSW index on the embedded database too.
  const client = opts.snapshot
    ? await PGlite.create({ loadDataDir: opts.snapshot, extensions: { vector } })
    : await PGlite.create(dir, { extensions: { vector } });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(drizzlePglite(client), { migrationsFolder });
  // PGlite has no autovacuum, so nothing else would ever give the planner statistics: without them
  // it takes every table for a few rows and reads, say, the marketplace's page 1 through the tenant
  // index, sorting every listed agent. Hourly, as autovacuum would after enough changes; the first
  // time a few minutes after opening, so that a process restarted within the hour (or a database
  // loaded in bulk before it started) is not left without them.
  const analyzeNow = () => {
    client.exec("analyze").catch((err) => console.warn(`PGlite analyze failed: ${(err as Error).message}`));
  };
  const firstAnalyze = setTimeout(analyzeNow, ANALYZE_FIRST_MS);
  firstAnalyze.unref();
  const analyze = setInterval(analyzeNow, ANALYZE_EVERY_MS);
  analyze.unref();
  return {
    db,
    driver: "pglite",
    // pg-boss sends multi-statement scripts without parameters; PGlite's exec runs those.
    executeSql: async (text, values) => {
      if (values && values.length > 0) return client.query(text, values);
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
    listen: null,
    pool: null,
    dump: () => client.dumpDataDir("none"),
    close: () => {
      clearTimeout(firstAnalyze);
      clearInterval(analyze);
      return client.close();
    },
  };
}

/** How often PGlite's statistics are taken again, and when first after opening. */
const ANALYZE_EVERY_MS = 60 * 60_000;
const ANALYZE_FIRST_MS = 5 * 60_000;

/** How the listening connection shows in pg_stat_activity. */
export const LISTENER_NAME = "agentfair-invalidations";

/**
 * LISTEN on its own connection (a pooled one would be handed to queries). A lost connection is
 * replaced, with growing pauses; `onReconnect` then says messages may have been missed.
 */
async function listenPg(
  url: string,
  channel: string,
  onMessage: (payload: string) => void,
  onReconnect: () => void,
  onLost: (err: unknown) => void,
) {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let pause = 500;
  const reconnectLater = () => {
    if (closed) return;
    pause = Math.min(pause * 2, 30_000);
    retry = setTimeout(async () => {
      try {
        await connect();
        if (closed) return;
        pause = 500;
        onReconnect();
      } catch (err) {
        onLost(err);
        reconnectLater();
      }
    }, pause);
    retry.unref();
  };
  const connect = async () => {
    // keepAlive: a connection that died silently (no FIN) is noticed instead of waited on forever.
    const c = new pg.Client({ connectionString: url, keepAlive: true, application_name: LISTENER_NAME });
    c.on("notification", (n) => {
      if (n.channel === channel && n.payload !== undefined) onMessage(n.payload);
    });
    const lost = (err?: unknown) => {
      if (closed || client !== c) return;
      client = null;
      onLost(err ?? new Error("connection ended"));
      c.end().catch(() => undefined);
      reconnectLater();
    };
    c.on("error", lost);
    c.on("end", lost);
    try {
      await c.connect();
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      await c.end().catch(() => undefined);
      throw err;
    }
    // Stopped while connecting: this connection is not kept.
    if (closed) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
  };
  await connect();
  return async () => {
    closed = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
    client = null;
  };
}

/**
 * PostgreSQL's text and jsonb cannot hold U+0000. What a model or a tool sends is stored without it
 * (a request that sends one is refused as bad input by the error handler instead).
 */
export function withoutNul<T>(value: T): T {
  if (typeof value === "string") return (value.includes("\u0000") ? value.replaceAll("\u0000", "") : value) as T;
  if (Array.isArray(value)) return value.map(withoutNul) as T;
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [withoutNul(k), withoutNul(v)])) as T;
  return value;
}
