// Per-request cost of the platform's HTTP stack: trivial routes (/healthz, the platform settings),
// a public route with one query (tenant info) and an authenticated one (findUserInfo) against a
// bare Fastify hello-world, same machine, same run (autocannon, CONNECTIONS connections for
// DURATION seconds each, each route paired with a bare measure just before it, ROUNDS times).
// Goal (issue 19): the trivial route at >= 0.5x the bare server's requests per second. Each route
// also gets the bare server's CPU time per request over its own ("x bare by CPU").
// Run: npm run bench:http  (TEST_DATABASE_URL=... for PostgreSQL, else PGlite; LOG_LEVEL=info;
// REQUEST_LOG_SLOW_MS=0 logs every request, as before 2026-11-27).
import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import autocannon from "autocannon";

const SECONDS = Number(process.env.DURATION ?? 3);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);

async function start(kind: "bare" | "platform") {
  const child = fork(path.join(import.meta.dirname, "servers.ts"), [kind], {
    execArgv: [
      "--import",
      "tsx",
      ...(process.env.PROFILE && kind === "platform" ? ["--cpu-prof", `--cpu-prof-dir=${process.env.PROFILE}`] : []),
    ],
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  // The platform logs each request to stdout, as in production: the pipe is read and dropped.
  child.stdout?.resume();
  const [info] = (await once(child, "message")) as [{ port: number; token?: string; driver?: string }];
  return { child, ...info };
}

/** CPU time (µs) a server process has used so far. */
async function cpuTime(child: ChildProcess) {
  const answer = once(child, "message");
  child.send("cpu");
  return (await answer)[0] as number;
}

async function measure(server: ChildProcess, url: string, headers: Record<string, string> = {}) {
  await autocannon({ url, connections: CONNECTIONS, duration: 1, headers }); // warm up
  const cpu = await cpuTime(server);
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  const cpuPerRequest = ((await cpuTime(server)) - cpu) / r.requests.total;
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, cpuPerRequest };
}

const bare = await start("bare");
// PROFILE=<dir>: a CPU profile of the platform process (written when it exits).
const platform = await start("platform");
const base = `http://127.0.0.1:${platform.port}`;
const routes: [string, string, Record<string, string>?][] = [
  ["trivial route /healthz", `${base}/healthz`],
  ["settings (platform)", `${base}/agent_api/api/platform/settings`],
  ["tenant info (one query)", `${base}/agent_api/api/auth/reg/getTenantInfo?domain=`],
  ["authenticated findUserInfo", `${base}/agent_api/api/userinfo/findUserInfo`, { authorization: `Bearer ${platform.token}` }],
];
// Other work on the machine comes and goes: each route is measured right after the bare server,
// ROUNDS times, and the median of those paired ratios is the figure. Beside it, the ratio of the
// two servers' CPU time per request, which other work on a shared machine moves less.
const ROUNDS = Number(process.env.ROUNDS ?? 3);
type Measure = Awaited<ReturnType<typeof measure>>;
const results = routes.map(() => [] as { ratio: number; cpuRatio: number; r: Measure; b: Measure }[]);
for (let round = 0; round < ROUNDS; round++)
  for (const [i, [, url, headers]] of routes.entries()) {
    const b = await measure(bare.child, `http://127.0.0.1:${bare.port}/`);
    const r = await measure(platform.child, url, headers);
    results[i].push({ ratio: r.rps / b.rps, cpuRatio: b.cpuPerRequest / r.cpuPerRequest, r, b });
  }
const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`HTTP bench on ${platform.driver}: ${CONNECTIONS} connections, ${SECONDS} s each, ${ROUNDS} rounds`);
for (const [i, [name]] of routes.entries()) {
  const rows = results[i];
  const ratios = rows.map((x) => x.ratio.toFixed(2)).join(" ");
  const mid = rows.find((x) => x.ratio === median(rows.map((y) => y.ratio))) ?? rows[0];
  const cpuMid = rows.find((x) => x.cpuRatio === median(rows.map((y) => y.cpuRatio))) ?? rows[0];
  const cpuRatios = rows.map((x) => x.cpuRatio.toFixed(2)).join(" ");
  console.log(
    `${name.padEnd(28)} ${mid.r.rps.toFixed(0).padStart(6)} req/s (bare ${mid.b.rps.toFixed(0)})  p50 ${mid.r.p50} ms  p99 ${mid.r.p99} ms  median ${mid.ratio.toFixed(2)}x bare  (rounds: ${ratios})`,
  );
  console.log(
    `${"".padEnd(28)} CPU per request ${cpuMid.r.cpuPerRequest.toFixed(0)} µs (bare ${cpuMid.b.cpuPerRequest.toFixed(0)})  median ${cpuMid.cpuRatio.toFixed(2)}x bare by CPU  (rounds: ${cpuRatios})`,
  );
}
bare.child.disconnect();
platform.child.disconnect();
