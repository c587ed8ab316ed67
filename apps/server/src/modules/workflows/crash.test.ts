import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/client.ts";
import { CRASH_CHAIN } from "./crash-graph.ts";
import { engineFixture } from "./engine-fixture.ts";

/** The lease of both processes (the child's too, see crash-child.ts). */
const LEASE_MS = 1000;
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../../../..");
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

/** A database both processes open: a throwaway PostgreSQL database, else a PGlite directory (one process at a time). */
async function sharedDatabase(): Promise<string> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wf-crash-"));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  }
  const name = `agentfair_crash_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  cleanups.push(async () => {
    const d = new pg.Client({ connectionString: admin });
    await d.connect();
    await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await d.end();
  });
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

describe("a run survives its process", () => {
  it("continues from the last checkpoint after the process is killed, never running a finished node again", async () => {
    const target = await sharedDatabase();
    const child = spawn(process.execPath, ["--import", "tsx", path.join(here, "crash-child.ts"), target], {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let runId = "";
    const done: string[] = [];
    await new Promise<void>((resolve, reject) => {
      let buf = "";
      child.stdout.on("data", (chunk) => {
        buf += chunk;
        let i = buf.indexOf("\n");
        while (i >= 0) {
          const msg = JSON.parse(buf.slice(0, i));
          buf = buf.slice(i + 1);
          if (msg.runId) runId = msg.runId;
          if (msg.done) done.push(msg.done);
          // start, n1 and n2 finished: kill it in the middle of n3.
          if (done.length === 3) {
            child.kill("SIGKILL");
            resolve();
          }
          i = buf.indexOf("\n");
        }
      });
      child.on("exit", () => resolve());
      child.on("error", reject);
    });
    await new Promise((r) => (child.exitCode !== null || child.signalCode ? r(null) : child.on("exit", r)));
    const killedAt = Date.now();
    expect(done).toEqual(["start", "n1", "n2"]);

    // The restarted process: the run is RUNNING with the dead process's lease; its sweep takes it over
    // once the lease lapses.
    const database = await openDatabase(target.startsWith("postgres") ? { url: target } : { dataDir: target });
    cleanups.push(() => database.close());
    let executed = 0;
    const fx = await engineFixture(
      database.db,
      {
        slow: async () => {
          executed++;
          return { nonce: randomUUID() };
        },
      },
      { leaseMs: LEASE_MS },
    );
    const before = await fx.nodes(runId);
    const finishedBefore = Object.values(before).filter((r) => r.status === "SUCCEEDED");
    expect(finishedBefore.map((r) => r.key).sort()).toEqual(["n1", "n2", "start"]);

    let resumedAt = 0;
    fx.engine.listen((id, change) => {
      if (id === runId && change.node && !resumedAt) resumedAt = Date.now();
    });
    const upAt = Date.now();
    const stop = fx.engine.sweepEvery();
    cleanups.push(async () => stop());
    let run = await fx.repo.run(runId);
    for (let i = 0; i < 200 && run?.status === "RUNNING"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      run = await fx.repo.run(runId);
    }
    expect(run?.status).toBe("SUCCEEDED");
    // The bound: once the process is up and the dead one's lease has lapsed, the run goes on within one
    // sweep (half a lease), with room for a loaded machine.
    expect(resumedAt).toBeGreaterThan(0);
    expect(resumedAt - Math.max(upAt, killedAt + LEASE_MS)).toBeLessThanOrEqual(LEASE_MS / 2 + 1000);

    const after = await fx.nodes(runId);
    for (const r of finishedBefore) expect(after[r.key].output).toEqual(r.output);
    expect(executed).toBe(CRASH_CHAIN.length - 2);
    expect(run?.outputs?.n1).toEqual((before.n1.output as { nonce: string }).nonce);
  }, 90_000);
});
