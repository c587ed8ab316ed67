// Per-request cost of the platform's HTTP stack: a trivial route (/healthz), a public settings
// route (tenant info) and an authenticated one (findUserInfo) against a bare Fastify hello-world,
// same machine, same run, same load (autocannon, CONNECTIONS connections for DURATION seconds each).
// Goal (issue 19): the trivial route at >= 0.5x the bare server's requests per second.
// Run: npm run bench:http  (TEST_DATABASE_URL=... for PostgreSQL, else PGlite; LOG_LEVEL=info).
import { fork } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import autocannon from "autocannon";

const SECONDS = Number(process.env.DURATION ?? 5);
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

async function measure(url: string, headers: Record<string, string> = {}) {
  await autocannon({ url, connections: CONNECTIONS, duration: 1, headers }); // warm up
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}

const bare = await start("bare");
// PROFILE=<dir>: a CPU profile of the platform process (written when it exits).
const platform = await start("platform");
const base = `http://127.0.0.1:${platform.port}`;
const rows: [string, Awaited<ReturnType<typeof measure>>][] = [
  ["bare Fastify hello-world", await measure(`http://127.0.0.1:${bare.port}/`)],
  ["trivial route /healthz", await measure(`${base}/healthz`)],
  ["settings (tenant info)", await measure(`${base}/agent_api/api/auth/reg/getTenantInfo?domain=`)],
  [
    "authenticated findUserInfo",
    await measure(`${base}/agent_api/api/userinfo/findUserInfo`, { authorization: `Bearer ${platform.token}` }),
  ],
];
console.log(`HTTP bench on ${platform.driver}: ${CONNECTIONS} connections, ${SECONDS} s each`);
const [, first] = rows[0];
for (const [name, r] of rows)
  console.log(
    `${name.padEnd(28)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  ${(r.rps / first.rps).toFixed(2)}x bare`,
  );
bare.child.disconnect();
platform.child.disconnect();
