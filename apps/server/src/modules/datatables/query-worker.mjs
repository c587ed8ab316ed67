// Runs data-table SQL for a PGlite platform in a thread of its own, on an in-memory PGlite that holds
// copies of the tables the queries read. PGlite runs a query to its end in the thread that asked
// (no statement timeout can interrupt WebAssembly), so a query on the platform's own database would
// hold every request; here the server ends a query that outlives its time by ending this thread.
// The WebAssembly heap is capped, so a query that builds huge values fails with "out of memory".
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";

const HEAP_BYTES = (workerData?.heapMb ?? 1024) * 1024 * 1024;
const grow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function (delta) {
  if (this.buffer.byteLength + delta * 65536 > HEAP_BYTES) throw new RangeError("query memory limit");
  return grow.call(this, delta);
};

const db = await PGlite.create();
await db.exec(`CREATE SCHEMA "${workerData.schema}"`);

/** Replaces a table with the rows given (a JSON array of row objects, as json_agg writes them). */
async function load(table) {
  await db.transaction(async (tx) => {
    await tx.exec(`DROP TABLE IF EXISTS ${table.name}; ${table.ddl}`);
    await tx.query(`INSERT INTO ${table.name} SELECT * FROM json_populate_recordset(null::${table.name}, $1::json)`, [table.rows]);
  });
  await db.exec(`ANALYZE ${table.name}`);
}

async function run(job) {
  for (const table of job.load) await load(table);
  return db.transaction(async (tx) => {
    await tx.exec("SET TRANSACTION READ ONLY");
    await tx.exec("SET LOCAL search_path TO ''");
    const plan = await tx.query(`EXPLAIN (FORMAT JSON) ${job.sql}`, job.values);
    let top = plan.rows[0]?.["QUERY PLAN"];
    if (typeof top === "string") top = JSON.parse(top);
    const cost = top?.[0]?.Plan?.["Total Cost"] ?? 0;
    if (cost > job.maxCost) return { tooExpensive: true };
    const result = await tx.query(job.sql, job.values);
    return { rows: result.rows, fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })) };
  });
}

parentPort.on("message", async (job) => {
  try {
    parentPort.postMessage({ id: job.id, ok: true, result: await run(job) });
  } catch (e) {
    parentPort.postMessage({ id: job.id, ok: false, error: { code: e?.code, message: String(e?.message ?? e) } });
  }
});
parentPort.postMessage({ ready: true });
