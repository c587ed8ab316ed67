import { randomUUID } from "node:crypto";
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
  if (!adminUrl) return { database: await openDatabase({}), drop: async () => {} };
  const name = `agentfair_test_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
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
