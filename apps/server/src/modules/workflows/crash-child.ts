/**
 * The crash test's child process: starts a run of a chain of slow nodes on the given database and
 * prints each finished node, until the test kills it (SIGKILL) in the middle of the run.
 * Usage: tsx crash-child.ts <postgres-url | pglite-data-dir>
 */
import { randomUUID } from "node:crypto";
import { openDatabase } from "../../db/client.ts";
import { CRASH_CHAIN, crashGraph } from "./crash-graph.ts";
import { engineFixture } from "./engine-fixture.ts";

const target = process.argv[2] ?? "";
const database = await openDatabase(target.startsWith("postgres") ? { url: target } : { dataDir: target });
const fx = await engineFixture(
  database.db,
  {
    slow: async () => {
      await new Promise((r) => setTimeout(r, 150));
      return { nonce: randomUUID() };
    },
  },
  { leaseMs: 1000 },
);
const run = await fx.newRun(crashGraph());
fx.engine.listen((runId, change) => {
  if (runId === run.id && change.node?.status === "SUCCEEDED") process.stdout.write(`${JSON.stringify({ done: change.node.key })}\n`);
});
process.stdout.write(`${JSON.stringify({ runId: run.id, nodes: CRASH_CHAIN })}\n`);
await fx.engine.execute(run.id);
process.stdout.write(`${JSON.stringify({ finished: true })}\n`);
await database.close();
