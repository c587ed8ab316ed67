// The marketplace list and name search at growing catalogue sizes: the route over HTTP with
// concurrent clients (this process) against the raw SQL it runs (measured inside the platform's
// process, on the same database, in the same run). Goals (issue 19): the route at >= 0.8x the raw
// query's throughput, and p95 at the largest size <= 1.2x p95 at the smallest, i.e. indexes that
// serve the filter and the order rather than a scan. The route also authenticates, maps,
// validates and serialises 99 cards: the ratio prices that work.
// Run: npm run bench:marketplace  (SIZES=1000,10000,100000 CLIENTS=10 DURATION=5;
// TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres for PostgreSQL, else PGlite).
import { fork } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { type Load, load } from "./load.ts";

const SIZES = (process.env.SIZES ?? "1000,10000,100000").split(",").map(Number);
const CLIENTS = Number(process.env.CLIENTS ?? 10);
const SECONDS = Number(process.env.DURATION ?? 5);

const child = fork(path.join(import.meta.dirname, "platform.ts"), {
  execArgv: ["--import", "tsx", ...(process.env.PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.PROFILE}`] : [])],
});
const ask = async <T>(message: object, key: string): Promise<T> => {
  child.send(message);
  for (;;) {
    const [m] = (await once(child, "message")) as [Record<string, unknown>];
    if (key in m) return m[key] as T;
  }
};
const [ready] = (await once(child, "message")) as [{ port: number; token: string; driver: string }];
const base = `http://127.0.0.1:${ready.port}`;

const route = (body: object) => async () => {
  const res = await fetch(`${base}/agent_api/api/agent/launch/page`, {
    method: "POST",
    headers: { authorization: `Bearer ${ready.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`route answered ${res.status}`);
  await res.arrayBuffer();
};

const line = (l: Load) => `${l.rps.toFixed(0).padStart(5)} req/s p50 ${l.p50.toFixed(1)} ms p95 ${l.p95.toFixed(1)} ms`;
console.log(`marketplace bench on ${ready.driver}: ${CLIENTS} clients, ${SECONDS} s per measure, page size 99`);
const rows: { size: number; what: string; route: Load; raw: Load }[] = [];
for (const size of SIZES) {
  await ask({ grow: size }, "grown");
  for (const [what, name] of [
    ["page 1", undefined],
    ["search 客服", "客服"],
  ] as const) {
    const body = name ? { name } : {};
    await route(body)(); // warm up
    const r = await load(route(body), CLIENTS, SECONDS);
    const q = await ask<Load>({ raw: { name, clients: CLIENTS, seconds: SECONDS } }, "raw");
    rows.push({ size, what, route: r, raw: q });
    console.log(
      `${String(size).padStart(7)} ${what.padEnd(10)} route ${line(r)} | raw SQL ${line(q)} | route/raw ${(r.rps / q.rps).toFixed(2)}x`,
    );
  }
}
for (const what of ["page 1", "search 客服"]) {
  const mine = rows.filter((r) => r.what === what);
  const first = mine[0];
  const last = mine[mine.length - 1];
  if (first && last && first !== last)
    console.log(
      `${what}: route p95 at ${last.size} / p95 at ${first.size} = ${(last.route.p95 / first.route.p95).toFixed(2)}x (goal <= 1.2x)`,
    );
}
child.disconnect();
