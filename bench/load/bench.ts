// Load through the balancer: N concurrent streaming chats (nginx in front of two platform
// processes on one PostgreSQL, files on S3) against a slow test model in its own process, with
// uploads and marketplace browsing mixed in, and a bare SSE server (bare-sse.ts) behind its own
// nginx streaming the same answer in the same run, measured the same way: on a shared machine the
// figures that mean something are the differences to it ("added"). Two patterns per N:
// - burst: all N chats start at once; memory per open stream (RSS and heap after a full collection,
//   with all N open) and CPU time per stream;
// - steady: N chats kept open for STEADY_SECONDS, each one that ends replaced at once (about N / 2 s
//   new chats a second): the first token of chats that start while N others stream.
// Prints first-token p50/p95, event-loop delay and errors for each. Run: npm run bench:load
// (LEVELS=100,300,1000 to choose; needs nginx and PostgreSQL, TEST_DATABASE_URL defaults to
// 127.0.0.1; CLUSTER_PROFILE=<dir> for a CPU profile of each platform process).
import { fork } from "node:child_process";
import fs from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { insertUser, randomIp, TEST_PASSWORD } from "../../apps/server/src/test/factories.ts";
import { clusterUnavailable, startBalancer, startCluster } from "../../apps/server/src/test/cluster.ts";
import { ownAgent, pct, streamChat } from "./client.ts";

process.env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
const LEVELS = (process.env.LEVELS ?? "1,100,300").split(",").map(Number);
const STEADY_SECONDS = Number(process.env.STEADY_SECONDS ?? 10);
const CHUNKS = 20;
const DELAY_MS = 100;
const USERS = 50;
const BROWSERS = 5;
const why = await clusterUnavailable();
if (why) {
  console.error(why);
  process.exit(1);
}

/**
 * The moment all `n` streams of a level are open: each has its first token, or one has already
 * ended (so none had yet). Memory is compared there, not at a peak: a peak of RSS is mostly
 * garbage not yet collected (and the uploads and pages mixed in), not what a stream holds.
 */
const allOpen = (n: number) => {
  let firsts = 0;
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, first: () => ++firsts === n && open(), ended: () => open() };
};
type Memory = Pick<NodeJS.MemoryUsage, "rss" | "heapUsed">;
const sum = (ms: Memory[]) => ms.reduce((s, m) => ({ rss: s.rss + m.rss, heapUsed: s.heapUsed + m.heapUsed }), { rss: 0, heapUsed: 0 });
/** Per stream, between two measures taken the same way (after a full collection). */
const perStream = (idle: Memory, open: Memory, n: number) =>
  `${kb((open.rss - idle.rss) / n)} RSS, ${kb((open.heapUsed - idle.heapUsed) / n)} heap`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const ms = (x: number) => `${x.toFixed(0)} ms`;
const firstTokens = (first: number[], bare: number[]) =>
  `first token p50 ${ms(pct(first, 50))} p95 ${ms(pct(first, 95))}; bare p50 ${ms(pct(bare, 50))} p95 ${ms(pct(bare, 95))}: added p50 ${ms(pct(first, 50) - pct(bare, 50))} p95 ${ms(pct(first, 95) - pct(bare, 95))}`;

const child = <T>(file: string, env: Record<string, string>) => {
  const p = fork(new URL(file, import.meta.url), { execArgv: ["--import", "tsx", "--expose-gc"], env: { ...process.env, ...env } });
  return { p, ready: new Promise<T>((resolve) => p.once("message", resolve as (m: unknown) => void)) };
};
const ask = <T>(p: ReturnType<typeof child>["p"], type: string) =>
  new Promise<T>((resolve) => {
    p.once("message", resolve as (m: unknown) => void);
    p.send({ type });
  });
const pace = { CHUNKS: String(CHUNKS), DELAY_MS: String(DELAY_MS) };
const model = child<{ url: string }>("./model.ts", pace);
const bare = child<{ port: number }>("./bare-sse.ts", pace);
const c = await startCluster({
  env: {
    MODEL_BASE_URL: (await model.ready).url,
    MODEL_NAME: "test-model",
    MODEL_API_KEY: "k",
    CHAT_PER_MINUTE: "1000000",
    CHAT_PER_MINUTE_PER_IP: "1000000",
    CHAT_STREAMS_PER_USER: "100000",
  },
});
const bareDir = await fs.mkdtemp(path.join(os.tmpdir(), "agentfair-bare-"));
const bareBalancer = await startBalancer(bareDir, [`http://127.0.0.1:${(await bare.ready).port}`]);
const bareMemory = () => ask<Memory & { cpuMs: number }>(bare.p, "memory");
/** One stream of the bare SSE server through its balancer; resolves with its first-token time. */
const bareStream = (level?: ReturnType<typeof allOpen>) =>
  new Promise<number>((resolve) => {
    const sent = performance.now();
    let first = Number.NaN;
    const ended = () => {
      level?.ended();
      resolve(first);
    };
    http
      .get(`${bareBalancer.url}/`, { agent: false }, (res) => {
        res.on("data", () => {
          if (!Number.isNaN(first)) return;
          first = performance.now() - sent;
          level?.first();
        });
        res.on("end", ended);
      })
      .on("error", ended);
  });
const platformMemory = async () => sum(await Promise.all(c.nodes.map((x) => x.memory())));
/** The platform processes' event-loop delay since the last call, and their CPU time so far. */
const platformStats = async () => {
  const stats = await Promise.all(c.nodes.map((x) => x.stats()));
  return {
    cpuMs: stats.reduce((s, x) => s + x.cpuMs, 0),
    lag: `event-loop delay p99 ${stats.map((s) => ms(s.lagP99Ms)).join("/")} max ${stats.map((s) => ms(s.lagMaxMs)).join("/")}`,
  };
};

const login = async (username: string) =>
  (
    (await (
      await fetch(`${c.url}/agent_api/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": randomIp() },
        body: JSON.stringify({ username, password: TEST_PASSWORD, domain: "" }),
      })
    ).json()) as { data: { token: string } }
  ).data.token;

/**
 * Keeps `n` streams open for `seconds`, starting another as each ends; the first-token times of
 * those started after the first round (the opening burst is the burst pattern's).
 */
async function steady(n: number, seconds: number, start: (i: number) => Promise<{ first: number; failed: boolean }>) {
  const until = performance.now() + seconds * 1000;
  const settled = performance.now() + (CHUNKS * DELAY_MS + 1000);
  const first: number[] = [];
  let failed = 0;
  let started = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (performance.now() < until) {
        const at = performance.now();
        const run = await start(started++);
        if (run.failed) failed += 1;
        if (at >= settled) first.push(run.first);
      }
    }),
  );
  return { first, failed, started };
}

try {
  const people = await Promise.all(Array.from({ length: USERS }, () => insertUser(c.admin, { memberLevel: "PER_FLAGSHIP_MONTHLY" })));
  const tokens = await Promise.all(people.map((p) => login(p.user.username)));
  const agents = await Promise.all(tokens.map((t, i) => ownAgent(c.upstreams[i % 2]!, t)));

  const upload = async (token: string) => {
    const form = new FormData();
    form.append("file", new Blob([`负载测试文件 ${"内容".repeat(2000)}`], { type: "text/plain" }), "load.txt");
    const res = await fetch(`${c.url}/agent_api/api/files`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
    await res.arrayBuffer();
    return res.status === 200 ? 0 : 1;
  };
  const browse = async (token: string, until: () => boolean) => {
    let n = 0;
    let errors = 0;
    while (!until()) {
      const res = await fetch(`${c.url}/agent_api/api/agent/launch/page`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({}),
      });
      await res.arrayBuffer();
      n += 1;
      if (res.status !== 200) errors += 1;
      // People browse: a page every quarter second each, not a tight loop that starves the chats.
      await new Promise((r) => setTimeout(r, 250));
    }
    return { n, errors };
  };
  /** The i-th chat of a level (one in 20 with an upload beside it); failed unless it ends done. */
  const chat = async (i: number, level?: ReturnType<typeof allOpen>) => {
    const token = tokens[i % USERS]!;
    const [run, upErrors] = await Promise.all([
      streamChat(c.url, { token, schema_id: agents[i % USERS], release: false, query: `第${i}个问题` }, level?.first).finally(level?.ended),
      i % 20 === 0 ? upload(token) : Promise.resolve(0),
    ]);
    const done = run.status === 200 && (run.events.at(-1) as { status?: string } | undefined)?.status === "done";
    return { run, first: run.firstTokenMs, failed: !done || upErrors > 0 };
  };
  const mixedIn = () => {
    let on = true;
    const browsing = Array.from({ length: BROWSERS }, (_, i) => browse(tokens[i]!, () => !on));
    return async () => {
      on = false;
      const b = await Promise.all(browsing);
      return { pages: b.reduce((s, x) => s + x.n, 0), errors: b.reduce((s, x) => s + x.errors, 0) };
    };
  };
  // Warm both servers the same way (caches, JIT, connection pools) before measuring.
  await Promise.all(tokens.map((_, i) => chat(i)));
  await Promise.all(tokens.map(() => bareStream()));

  console.log(
    `host: ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} before the run`,
  );
  for (const n of LEVELS) {
    // Burst: all n at once.
    await new Promise((r) => setTimeout(r, 1000));
    const idle = await platformMemory();
    const cpu0 = (await platformStats()).cpuMs;
    const level = allOpen(n);
    const atOpen = level.opened.then(platformMemory);
    const stop = mixedIn();
    const started = performance.now();
    const runs = await Promise.all(Array.from({ length: n }, (_, i) => chat(i, level)));
    const wall = performance.now() - started;
    const browsed = await stop();
    const open = await atOpen;
    const after = await platformStats();
    const cpu = after.cpuMs - cpu0;
    const failed = runs.filter((r) => r.failed);

    const bareIdle = await bareMemory();
    const bareLevel = allOpen(n);
    const bareAtOpen = bareLevel.opened.then(bareMemory);
    const bareFirst = await Promise.all(Array.from({ length: n }, () => bareStream(bareLevel)));
    const bareOpen = await bareAtOpen;
    const bareCpu = (await bareMemory()).cpuMs - bareIdle.cpuMs;
    console.log(
      [
        `N=${String(n).padStart(4)} burst (all at once; the model's first chunk comes after ${DELAY_MS} ms)`,
        firstTokens(
          runs.map((r) => r.first),
          bareFirst,
        ),
        after.lag,
        `memory per open stream ${perStream(idle, open, n)} (idle ${(idle.rss / 2 ** 20).toFixed(0)} MB RSS for 2 processes); bare ${perStream(bareIdle, bareOpen, n)}: added ${kb((open.heapUsed - idle.heapUsed - (bareOpen.heapUsed - bareIdle.heapUsed)) / n)} heap`,
        `CPU per stream ${ms(cpu / n)} (2 processes, with the pages and uploads); bare ${(bareCpu / n).toFixed(1)} ms`,
        `errors ${failed.length + browsed.errors} (${failed.length} chats or uploads failed${failed[0] ? `, e.g. ${failed[0].run.status} ${failed[0].run.failure ?? JSON.stringify(failed[0].run.events.at(-1))}` : ""}); ${browsed.pages} marketplace pages, ${Math.ceil(n / 20)} uploads; ${(wall / 1000).toFixed(1)} s`,
      ].join("\n  "),
    );

    // Steady: n kept open.
    await new Promise((r) => setTimeout(r, 1000));
    await platformStats();
    const stopSteady = mixedIn();
    const s = await steady(n, STEADY_SECONDS, (i) => chat(i));
    const steadyBrowsed = await stopSteady();
    const steadyLag = (await platformStats()).lag;
    const b = await steady(n, STEADY_SECONDS, async () => ({ first: await bareStream(), failed: false }));
    console.log(
      [
        `N=${String(n).padStart(4)} steady (${n} open for ${STEADY_SECONDS} s, each replaced as it ends: ${s.started} chats, ${b.started} bare)`,
        firstTokens(s.first, b.first),
        steadyLag,
        `errors ${s.failed + steadyBrowsed.errors}; ${steadyBrowsed.pages} marketplace pages`,
        `load average ${os.loadavg()[0]!.toFixed(1)}`,
      ].join("\n  "),
    );
  }
} finally {
  model.p.disconnect();
  bare.p.disconnect();
  await bareBalancer.close();
  await fs.rm(bareDir, { recursive: true, force: true });
  await c.close();
}
process.exit(0);
