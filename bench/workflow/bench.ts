// Workflows: the engine's overhead per node (ready queue, node rows written behind with group commit, the
// lease) against calling the same node functions in a plain loop, on a chain of nodes; a 100-node parallel
// fan-out joined by one aggregate node; and a chain of nodes that reach outside the run (each waits for the
// rows before it: one write per node). Goal: ≤ 1 ms of overhead per node on
// PostgreSQL. Uses DATABASE_URL (or a throwaway database on TEST_DATABASE_URL), else PGlite in memory.
// Run: npm run bench:workflow (not part of npm test).
import { randomUUID } from "node:crypto";
import type { GraphNode } from "@agentfair/contracts";
import pg from "pg";
import { openDatabase } from "../../apps/server/src/db/client.ts";
import type { NodeContext } from "../../apps/server/src/modules/workflows/engine.ts";
import { checkpointDatabase } from "../../apps/server/src/modules/workflows/checkpoint-db.ts";
import { engineFixture, graphOf } from "../../apps/server/src/modules/workflows/engine-fixture.ts";
import { nodeExecutors } from "../../apps/server/src/modules/workflows/nodes.ts";
import type { Lookup } from "../../apps/server/src/modules/workflows/template.ts";

const CHAIN = Number(process.env.CHAIN ?? 50);
const RUNS = Number(process.env.RUNS ?? 10);
const FAN = 100;

let dropDb: (() => Promise<void>) | null = null;
async function target() {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL };
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) return {};
  const name = `agentfair_bench_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  dropDb = async () => {
    const d = new pg.Client({ connectionString: admin });
    await d.connect();
    await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await d.end();
  };
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString() };
}

const where = await target();
const database = await openDatabase(where);
// As the platform does on PostgreSQL: node checkpoints through the asynchronous-commit pool.
const checkpoints = where.url ? checkpointDatabase(where.url) : null;
// A step standing for a node that reaches outside the run (a code node here): it starts only once the
// rows before it are written, so a chain of them pays one write per node.
const step = () => ({ v: 1 });
const fx = await engineFixture(database.db, { step }, { concurrency: 8 }, checkpoints?.db);
const executors = nodeExecutors({});

// A chain start → t1 → … → tN → end of template nodes, each adding to the text of the one before.
const chainNodes: Record<string, { type: string; data?: Record<string, unknown> }> = { start: { type: "start" } };
for (let i = 1; i <= CHAIN; i++)
  chainNodes[`t${i}`] = { type: "template", data: { template: `{{${i === 1 ? "start" : `t${i - 1}`}.output}}.` } };
chainNodes.end = { type: "end", data: { outputs: { text: `{{t${CHAIN}.output}}` } } };
const order = ["start", ...Array.from({ length: CHAIN }, (_, i) => `t${i + 1}`), "end"];
const chain = graphOf(
  chainNodes,
  order.slice(1).map((n, i) => `${order[i]}>${n}`),
);

const effectNodes: Record<string, { type: string; data?: Record<string, unknown> }> = { start: { type: "start" } };
for (let i = 1; i <= CHAIN; i++) effectNodes[`c${i}`] = { type: "code", data: { code: "step" } };
effectNodes.end = { type: "end", data: { outputs: {} } };
const effectOrder = ["start", ...Array.from({ length: CHAIN }, (_, i) => `c${i + 1}`), "end"];
const effects = graphOf(
  effectNodes,
  effectOrder.slice(1).map((n, i) => `${effectOrder[i]}>${n}`),
);

const fanNodes: Record<string, { type: string; data?: Record<string, unknown> }> = { start: { type: "start" } };
for (let i = 1; i <= FAN; i++) fanNodes[`f${i}`] = { type: "template", data: { template: `branch ${i}` } };
fanNodes.join = { type: "aggregate", data: { mode: "array", variables: Array.from({ length: FAN }, (_, i) => `{{f${i + 1}.output}}`) } };
fanNodes.end = { type: "end", data: { outputs: { n: "{{join.output}}" } } };
const fan = graphOf(fanNodes, [
  ...Array.from({ length: FAN }, (_, i) => `start>f${i + 1}`),
  ...Array.from({ length: FAN }, (_, i) => `f${i + 1}>join`),
  "join>end",
]);

/** The same node functions in a plain loop: no queue, no rows, no lease. */
async function plain(graph: typeof chain) {
  const outputs = new Map<string, unknown>();
  const lookup: Lookup = (id) => outputs.get(id);
  const run = { inputs: {} } as never;
  for (const node of graph.nodes as GraphNode[]) {
    const ctx = { run, node, data: node.data, scope: "", lookup, signal: new AbortController().signal } as unknown as NodeContext;
    const data = (await import("@agentfair/contracts")).nodeData[node.type].parse(node.data);
    const r = await executors[node.type]({ ...ctx, data });
    outputs.set(node.id, r.output);
  }
}

async function time(fn: () => Promise<unknown>) {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function engineRun(graph: typeof chain) {
  const run = await fx.newRun(graph);
  await fx.engine.execute(run.id);
  const done = await fx.repo.run(run.id);
  if (done?.status !== "SUCCEEDED") throw new Error(`run ${done?.status}: ${done?.error}`);
}

// Warm up both paths.
for (let i = 0; i < 2; i++) {
  await plain(chain);
  await engineRun(chain);
}
const plainTimes: number[] = [];
const engineTimes: number[] = [];
const cpu = { plain: 0, engine: 0 };
const cpuOf = async (fn: () => Promise<unknown>) => {
  const c0 = process.cpuUsage();
  const ms = await time(fn);
  const c = process.cpuUsage(c0);
  return [ms, (c.user + c.system) / 1000] as const;
};
for (let i = 0; i < RUNS; i++) {
  const [p, pc] = await cpuOf(() => plain(chain));
  const [e, ec] = await cpuOf(() => engineRun(chain));
  plainTimes.push(p);
  engineTimes.push(e);
  cpu.plain += pc;
  cpu.engine += ec;
}
const nodes = CHAIN + 2;
const plainMs = median(plainTimes);
const engineMs = median(engineTimes);
const overhead = (engineMs - plainMs) / nodes;
const fanTimes: number[] = [];
for (let i = 0; i < Math.max(3, Math.floor(RUNS / 2)); i++) fanTimes.push(await time(() => engineRun(fan)));
const fanMs = median(fanTimes);
const effectTimes: number[] = [];
for (let i = 0; i < Math.max(3, Math.floor(RUNS / 2)); i++) effectTimes.push(await time(() => engineRun(effects)));
const effectMs = median(effectTimes);

console.log(`database: ${database.driver}`);
console.log(`chain of ${nodes} nodes (median of ${RUNS}): plain loop ${plainMs.toFixed(2)} ms, engine ${engineMs.toFixed(2)} ms`);
console.log(`engine overhead per node: ${overhead.toFixed(3)} ms (goal ≤ 1 ms on PostgreSQL) ${overhead <= 1 ? "OK" : "OVER"}`);
console.log(
  `CPU of this process per node: plain ${(cpu.plain / RUNS / nodes).toFixed(3)} ms, engine ${(cpu.engine / RUNS / nodes).toFixed(3)} ms (wall time above includes waiting for the database and, on a loaded machine, for a core)`,
);
console.log(`ratio engine / plain: ${(engineMs / Math.max(plainMs, 0.001)).toFixed(1)}×`);
console.log(
  `fan-out of ${FAN} parallel nodes + join (${FAN + 3} nodes): ${fanMs.toFixed(1)} ms, ${(fanMs / (FAN + 3)).toFixed(3)} ms per node`,
);
console.log(
  `chain of ${nodes} nodes that reach outside the run (each starts once the rows before it are written): ${effectMs.toFixed(1)} ms, ${(effectMs / nodes).toFixed(3)} ms per node`,
);
await checkpoints?.close();
await database.close();
await dropDb?.();
