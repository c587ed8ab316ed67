// One platform process of a test cluster (see cluster.ts): started like main.ts from the
// environment, plus a probe queue whose runs the tests count. It reports its port over IPC and
// takes orders from the parent there: { type: "send", data } queues a probe job, { type: "stats" }
// asks for its RSS, CPU time and event-loop delay.
import type { AddressInfo } from "node:net";
import { monitorEventLoopDelay } from "node:perf_hooks";
import v8 from "node:v8";
import pg from "pg";
import { buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";

const config = loadConfig();
const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir });
const { app, platform, services } = await buildApp(config, database);
await services.tenants.ensureDefault();

// The probe writes its own rows (table made by the parent) with its own connection, so a test can
// count runs even while the platform's pool is being cut.
const probe = new pg.Pool({ connectionString: config.DATABASE_URL, max: 2 });
probe.on("error", () => {});
platform.jobs.define<{ key: string; sleepMs?: number }>(
  "cluster-probe",
  { retryLimit: 3, retryDelaySeconds: 0, expireInSeconds: Number(process.env.PROBE_EXPIRE_SECONDS ?? 60) },
  async (job) => {
    await probe.query("INSERT INTO cluster_probe (key, job_id, pid, phase) VALUES ($1, $2, $3, 'start')", [
      job.data.key,
      job.id,
      process.pid,
    ]);
    if (job.data.sleepMs) await new Promise((r) => setTimeout(r, job.data.sleepMs));
    await probe.query("INSERT INTO cluster_probe (key, job_id, pid, phase) VALUES ($1, $2, $3, 'done')", [
      job.data.key,
      job.id,
      process.pid,
    ]);
  },
);
await platform.jobs.start({
  work: true,
  pollingIntervalSeconds: 0.5,
  maintenanceIntervalSeconds: Number(process.env.JOBS_MAINTENANCE_SECONDS ?? 120),
});
await app.listen({ port: config.PORT, host: "127.0.0.1" });

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
// Event-loop delay since the last "stats" order, for the load bench.
const lag = monitorEventLoopDelay({ resolution: 10 });
lag.enable();
process.on("message", async (m: { type: string; id: number; data?: { key: string; sleepMs?: number } }) => {
  if (m.type === "stats") {
    process.send?.({
      type: "stats",
      id: m.id,
      rss: process.memoryUsage().rss,
      cpuMs: cpuMs(),
      lagP99Ms: lag.percentile(99) / 1e6,
      lagMaxMs: lag.max / 1e6,
    });
    lag.reset();
    return;
  }
  // What the process holds, after a full collection (started with --expose-gc): garbage not yet
  // collected is not memory a stream needs. With `path`, a heap snapshot is written there too.
  if (m.type === "memory") {
    globalThis.gc?.();
    const path = (m as { path?: string }).path;
    if (path) v8.writeHeapSnapshot(path);
    process.send?.({ type: "memory", id: m.id, ...process.memoryUsage() });
    return;
  }
  if (m.type !== "send") return;
  const jobId = await platform.jobs.send("cluster-probe", m.data ?? { key: "x" });
  process.send?.({ type: "sent", id: m.id, jobId });
});

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(1), 10_000).unref();
  await app.close();
  await platform.jobs.stop();
  await database.close();
  await probe.end();
  process.exit(0);
}
process.on("SIGTERM", shutdown);
process.on("disconnect", shutdown);
process.send?.({ type: "ready", port: (app.server.address() as AddressInfo).port, pid: process.pid });
