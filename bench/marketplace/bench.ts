// The marketplace list and name search at growing catalogue sizes: the route over HTTP with
// concurrent clients (this process) against the raw SQL it runs (measured inside the platform's
// process, on the same database, in the same run). Goals (issue 19): the route at >= 0.8x the raw
// query's throughput, and p95 at the largest size <= 1.2x p95 at the smallest, i.e. indexes that
// serve the filter and the order rather than a scan. The route also authenticates, and maps,
// validates and serialises 99 cards when its page is not cached: the ratio prices that work.
// Run: npm run bench:marketplace  (SIZES=1000,10000,100000 CLIENTS=10 DURATION=3 ROUNDS=3 USES=100;
// TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres for PostgreSQL, else PGlite).
import { fork } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import path from "node:path";
import { type Load, load } from "./load.ts";

const SIZES = (process.env.SIZES ?? "1000,10000,100000").split(",").map(Number);
const CLIENTS = Number(process.env.CLIENTS ?? 10);
const SECONDS = Number(process.env.DURATION ?? 3);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
// Pages are cached until an agent changes; uses counted drop them at most twice a second. The third
// and fourth measures count uses (as replies that end do) while they read, so that pages are read
// from the database now and then, as they are in a marketplace in use.
const USES = Number(process.env.USES ?? 100);

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

// The client shares the machine with the platform and its database: node's http with kept-alive
// connections costs about a third of what fetch does per page read, so the route pays less for
// the bench's own work (the raw SQL is measured without any client).
const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
const route = (body: object) => {
  const payload = JSON.stringify(body);
  const headers = {
    authorization: `Bearer ${ready.token}`,
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(payload)),
  };
  return () =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(`${base}/agent_api/api/agent/launch/page`, { method: "POST", agent, headers }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`route answered ${res.statusCode}`));
        res.on("data", () => {});
        res.on("end", resolve);
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(payload);
    });
};

const MEASURES = [
  ["page 1", undefined, 0],
  ["search 客服", "客服", 0],
  [`page 1, ${USES} uses/s`, undefined, USES],
  [`search 客服, ${USES} uses/s`, "客服", USES],
] as const;
const line = (l: Load) => `${l.rps.toFixed(0).padStart(5)} req/s p50 ${l.p50.toFixed(1)} ms p95 ${l.p95.toFixed(1)} ms`;
console.log(`marketplace bench on ${ready.driver}: ${CLIENTS} clients, ${SECONDS} s per measure, ${ROUNDS} rounds, page size 99`);
const rows: { size: number; what: string; route: Load; raw: Load }[] = [];
for (const size of SIZES) {
  await ask({ grow: size }, "grown");
  // A large growth takes minutes: the server has closed the idle kept-alive connections meanwhile.
  agent.destroy();
  for (const [what, name, uses] of MEASURES) {
    const body = name ? { name } : {};
    await ask({ uses }, "counting");
    await route(body)(); // warm up
    // Other work on the machine comes and goes: the route and its SQL take turns, ROUNDS times,
    // and the round with the median ratio is the figure.
    const rounds: { route: Load; raw: Load }[] = [];
    for (let round = 0; round < ROUNDS; round++)
      rounds.push({
        route: await load(route(body), CLIENTS, SECONDS),
        raw: await ask<Load>({ raw: { name, clients: CLIENTS, seconds: SECONDS } }, "raw"),
      });
    const ratio = (x: { route: Load; raw: Load }) => x.route.rps / x.raw.rps;
    const { route: r, raw: q } = [...rounds].sort((a, b) => ratio(a) - ratio(b))[Math.floor(rounds.length / 2)];
    rows.push({ size, what, route: r, raw: q });
    await ask({ uses: 0 }, "counting");
    console.log(
      `${String(size).padStart(7)} ${what.padEnd(10)} route ${line(r)} | raw SQL ${line(q)} | route/raw ${(r.rps / q.rps).toFixed(2)}x (rounds: ${rounds.map((x) => ratio(x).toFixed(2)).join(" ")})`,
    );
  }
}
for (const [what] of MEASURES) {
  const mine = rows.filter((r) => r.what === what);
  const first = mine[0];
  const last = mine[mine.length - 1];
  if (first && last && first !== last)
    console.log(
      `${what}: p95 at ${last.size} / p95 at ${first.size}: route ${(last.route.p95 / first.route.p95).toFixed(2)}x, SQL ${(last.raw.p95 / first.raw.p95).toFixed(2)}x (goal <= 1.2x)`,
    );
}
agent.destroy();
child.disconnect();
