import { buildApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import { openDatabase } from "./db/client.ts";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from "./seed/demo.ts";

const config = loadConfig();
const database = await openDatabase({ url: config.DATABASE_URL || undefined, dataDir: config.dataDir });
const { app, platform, services } = await buildApp(config, database);

await services.tenants.ensureDefault();
const seeded = config.SEED_DEMO ? await seedDemo(platform.db, services.tenants) : false;
const admins = await services.auth.ensureAdmins();

// Web processes only send jobs; the others also run them.
await platform.jobs.start({ work: config.ROLE !== "web" });
if (config.ROLE !== "web") services.workflows.startRecovery();
if (config.ROLE !== "worker") {
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  const url = config.PUBLIC_URL || address.replace("0.0.0.0", "localhost").replace("[::]", "localhost");
  const lines = [
    "",
    `Agentfair is running: ${url}`,
    `  database: ${database.driver === "pglite" ? `PGlite in ${config.dataDir}` : "PostgreSQL"}   API docs: ${url}/docs`,
  ];
  if (admins.length) lines.push(`  administrator accounts created with ADMIN_PASSWORD: ${admins.join(", ")}`);
  if (config.SEED_DEMO) {
    lines.push(`  demo accounts (password ${DEMO_PASSWORD}; change them before real use)${seeded ? " - created now" : ""}:`);
    for (const a of DEMO_ACCOUNTS) lines.push(`    ${a.username.padEnd(8)} ${a.note}  ${url}${a.tenant ? `/${a.tenant}` : ""}/login`);
  }
  console.log(lines.join("\n"));
}

// SIGTERM: stop accepting (/readyz answers 503), end the reply streams with an error event and
// save them, finish other requests, hand running jobs back, then exit; forced after 30 s.
let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(1), 30_000).unref();
  await app.close();
  await platform.jobs.stop();
  await database.close();
  process.exit(0);
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
