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
  close(): Promise<void>;
}

export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig({ CAPTCHA: "off", LOG_LEVEL: "silent", SEED_DEMO: "0", DATA_DIR: "/tmp/agentfair-test", ...env });
  const { database, drop } = await testDatabase();
  const built = await buildApp(config, database);
  await built.services.tenants.ensureDefault();
  await built.app.ready();
  return {
    ...built,
    async close() {
      await built.app.close();
      await database.close();
      await drop();
    },
  };
}

async function testDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
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
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
