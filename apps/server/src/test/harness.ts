import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import { buildApp, type BuiltApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { openDatabase, type Database } from "../db/client.ts";

/**
 * A whole app on a fresh database for one test file: PGlite in memory, or a throwaway
 * PostgreSQL database when TEST_DATABASE_URL is set (dropped again by close()).
 */
export interface TestApp extends BuiltApp {
  /** The PostgreSQL database of this app (none on PGlite). */
  databaseUrl?: string;
  close(): Promise<void>;
}

export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig({ CAPTCHA: "off", LOG_LEVEL: "silent", SEED_DEMO: "0", DATA_DIR: "/tmp/agentfair-test", ...env });
  const { database, url, drop } = await testDatabase();
  const built = await buildApp(config, database);
  await built.services.tenants.ensureDefault();
  await built.app.ready();
  return {
    ...built,
    databaseUrl: url,
    async close() {
      await built.app.close();
      await database.close();
      await drop();
    },
  };
}

/** A second process of the same platform: another app on the first one's PostgreSQL database (`config`: what differs, e.g. its ROLE). */
export async function createPeerApp(first: TestApp, config: Partial<TestApp["platform"]["config"]> = {}): Promise<TestApp> {
  if (!first.databaseUrl) throw new Error("a peer process needs PostgreSQL (TEST_DATABASE_URL)");
  const database = await openDatabase({ url: first.databaseUrl });
  const built = await buildApp({ ...first.platform.config, ...config }, database);
  await built.app.ready();
  return {
    ...built,
    databaseUrl: first.databaseUrl,
    async close() {
      await built.app.close();
      await database.close();
    },
  };
}

async function testDatabase(): Promise<{ database: Database; url?: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return { database: await openDatabase({ snapshot: await migratedSnapshot() }), drop: async () => {} };
  const name = `agentfair_test_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
  const template = await migratedTemplate(adminUrl);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  return {
    database,
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/*
 * Every test file starts from a migrated database. Migrating once and copying is much cheaper than
 * migrating per file: on PGlite a dumped data dir (kept per worker: vitest reuses workers across
 * files), on PostgreSQL a template database named after the migrations, so a changed migration
 * gets a new one.
 */
let snapshot: Promise<Blob> | undefined;

function migratedSnapshot(): Promise<Blob> {
  snapshot ??= (async () => {
    const database = await openDatabase({});
    const dump = await (database.dump as () => Promise<Blob>)();
    await database.close();
    return dump;
  })();
  return snapshot;
}

async function migratedTemplate(adminUrl: string): Promise<string> {
  const folder = new URL("../db/migrations/", import.meta.url);
  const hash = createHash("sha256");
  const migrations = fs.readdirSync(folder).filter((f) => f.endsWith(".sql"));
  for (const file of migrations.sort()) hash.update(fs.readFileSync(new URL(file, folder)));
  const template = `agentfair_template_${hash.digest("hex").slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const found = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [template]);
    if (found.rowCount) return template;
    // Built under a private name and renamed at the end: a worker that loses the race, or a run
    // killed half-way, never leaves a half-migrated template under the shared name.
    const building = `agentfair_building_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
    await admin.query(`CREATE DATABASE ${building}`);
    const url = new URL(adminUrl);
    url.pathname = `/${building}`;
    const database = await openDatabase({ url: url.toString() });
    await database.close();
    try {
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
    } catch {
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    }
    return template;
  } finally {
    await admin.end();
  }
}
