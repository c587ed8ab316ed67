// Runs data-table SQL for a PGlite platform in a thread of its own, on an in-memory PGlite that holds
// copies of the tables the queries read. PGlite runs a query to its end in the thread that asked
// (no statement timeout can interrupt WebAssembly), so a query on the platform's own database would
// hold every request; here the server ends a query that outlives its time by ending this thread.
// The WebAssembly heap is capped, so a query that builds huge values fails with "out of memory".
import fs from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";

const HEAP_BYTES = (workerData?.heapMb ?? 1024) * 1024 * 1024;
const grow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function (delta) {
  if (this.buffer.byteLength + delta * 65536 > HEAP_BYTES) throw new RangeError("query memory limit");
  return grow.call(this, delta);
};

/**
 * An empty database: loaded from the template file when there is one (about 250 MB of WebAssembly
 * memory); otherwise made by initdb, which keeps about 650 MB for the worker's life, and written
 * as the template for the next start.
 */
async function open() {
  // The package does not export its package.json: read beside its entry (dist/index.js).
  const { version } = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.resolve("@electric-sql/pglite")), "utf8"));
  const template = `${workerData.templateDir}/pglite-${version}-query.tgz`;
  if (fs.existsSync(template)) {
    try {
      return await PGlite.create({ loadDataDir: new Blob([fs.readFileSync(template)]) });
    } catch {
      fs.rmSync(template, { force: true });
    }
  }
  const fresh = await PGlite.create();
  try {
    const dump = Buffer.from(await (await fresh.dumpDataDir("gzip")).arrayBuffer());
    fs.mkdirSync(workerData.templateDir, { recursive: true });
    const partial = `${template}.${process.pid}.${Date.now()}`;
    fs.writeFileSync(partial, dump);
    fs.renameSync(partial, template);
  } catch {
    // no template this time: the next start runs initdb again
  }
  return fresh;
}

const db = await open();
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
