// Load through the balancer: N concurrent streaming chats (nginx in front of two platform
// processes on one PostgreSQL, files on S3) against a slow local test model, with uploads and
// marketplace browsing mixed in. Prints first-token p50/p95, the processes' event-loop delay,
// memory per open stream (RSS and heap after a full collection, with all N open) and errors for
// each N, and the first-token p95 and memory per stream of a bare SSE server (bare-sse.ts)
// streaming the same answer in the same run, measured the same way: on a shared machine the figures
// that mean something are the differences to it ("added"). Run: npm run bench:load (LEVELS=100,300,1000 to
// choose; needs nginx and PostgreSQL, TEST_DATABASE_URL defaults to 127.0.0.1; CLUSTER_PROFILE=<dir>
// for a CPU profile of each platform process).
import { fork } from "node:child_process";
import http from "node:http";
import os from "node:os";
import { insertUser, randomIp, TEST_PASSWORD } from "../../apps/server/src/test/factories.ts";
import { clusterUnavailable, slowAnswers, startCluster } from "../../apps/server/src/test/cluster.ts";
import { startLlmServer } from "../../apps/server/src/test/llm-server.ts";
import { ownAgent, pct, streamChat } from "./client.ts";

process.env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
const LEVELS = (process.env.LEVELS ?? "1,100,300").split(",").map(Number);
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

const llm = await startLlmServer();
const c = await startCluster({
  env: {
    MODEL_BASE_URL: llm.url,
    MODEL_NAME: "test-model",
    MODEL_API_KEY: "k",
    CHAT_PER_MINUTE: "100000",
    CHAT_PER_MINUTE_PER_IP: "100000",
    CHAT_STREAMS_PER_USER: "100000",
  },
});
const bare = fork(new URL("./bare-sse.ts", import.meta.url), {
  execArgv: ["--import", "tsx", "--expose-gc"],
  env: { ...process.env, CHUNKS: String(CHUNKS), DELAY_MS: String(DELAY_MS) },
});
const bareReady = await new Promise<{ port: number; pid: number }>((resolve) => bare.once("message", resolve as (m: unknown) => void));
const bareMemory = () =>
  new Promise<Memory>((resolve) => {
    bare.once("message", resolve as (m: unknown) => void);
    bare.send({ type: "memory" });
  });
/** One stream of the bare SSE server; resolves with its first-token time. */
const bareStream = (level?: ReturnType<typeof allOpen>) =>
  new Promise<number>((resolve) => {
    const sent = performance.now();
    let first = Number.NaN;
    const ended = () => {
      level?.ended();
      resolve(first);
    };
    http
      .get({ host: "127.0.0.1", port: bareReady.port, path: "/", agent: false }, (res) => {
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

try {
  const people = await Promise.all(Array.from({ length: USERS }, () => insertUser(c.admin, { memberLevel: "PER_FLAGSHIP_MONTHLY" })));
  const tokens = await Promise.all(people.map((p) => login(p.user.username)));
  const agents = await Promise.all(tokens.map((t, i) => ownAgent(c.upstreams[i % 2]!, t)));
  slowAnswers(llm, { chunks: Array.from({ length: CHUNKS }, (_, i) => `第${i + 1}句。`), delayMs: DELAY_MS }, 100_000);

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
  // Warm both servers the same way (caches, JIT, connection pools) before measuring.
  await Promise.all(tokens.map((token, i) => streamChat(c.url, { token, schema_id: agents[i], release: false, query: "热身" })));
  await Promise.all(tokens.map(() => bareStream()));

  const rows: string[] = [];
  console.log(
    `host: ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} before the run`,
  );
  for (const n of LEVELS) {
    await new Promise((r) => setTimeout(r, 1000));
    const idle = await platformMemory();
    await Promise.all(c.nodes.map((x) => x.stats()));
    const level = allOpen(n);
    const atOpen = level.opened.then(platformMemory);
    let streaming = true;
    const browsing = Array.from({ length: BROWSERS }, (_, i) => browse(tokens[i]!, () => !streaming));
    const started = performance.now();
    const runs = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const token = tokens[i % USERS]!;
        const up = i % 20 === 0 ? upload(token) : Promise.resolve(0);
        const [run, upErrors] = await Promise.all([
          streamChat(c.url, { token, schema_id: agents[i % USERS], release: false, query: `第${i}个问题` }, level.first).finally(
            level.ended,
          ),
          up,
        ]);
        return { run, upErrors };
      }),
    );
    const wall = performance.now() - started;
    streaming = false;
    const open = await atOpen;
    const browsed = await Promise.all(browsing);
    const stats = await Promise.all(c.nodes.map((x) => x.stats()));
    const first = runs.map((r) => r.run.firstTokenMs);
    const failed = runs.filter((r) => r.run.status !== 200 || (r.run.events.at(-1) as { status?: string } | undefined)?.status !== "done");
    const errors = failed.length + runs.reduce((s, r) => s + r.upErrors, 0) + browsed.reduce((s, b) => s + b.errors, 0);

    // The bare SSE server: the same number of streams, same answer and pace.
    const bareIdle = await bareMemory();
    const bareLevel = allOpen(n);
    const bareAtOpen = bareLevel.opened.then(bareMemory);
    const bareFirst = await Promise.all(Array.from({ length: n }, () => bareStream(bareLevel)));
    const bareOpen = await bareAtOpen;
    const line = [
      `N=${String(n).padStart(4)}`,
      `first token p50 ${ms(pct(first, 50))} p95 ${ms(pct(first, 95))} (model's own first chunk after ${DELAY_MS} ms); bare SSE p95 ${ms(pct(bareFirst, 95))}: added p95 ${ms(pct(first, 95) - pct(bareFirst, 95))}`,
      `event-loop delay p99 ${stats.map((s) => ms(s.lagP99Ms)).join("/")} max ${stats.map((s) => ms(s.lagMaxMs)).join("/")}`,
      `memory per open stream ${perStream(idle, open, n)} (idle ${(idle.rss / 2 ** 20).toFixed(0)} MB RSS for 2 processes); bare SSE ${perStream(bareIdle, bareOpen, n)}: added ${kb((open.rss - idle.rss - (bareOpen.rss - bareIdle.rss)) / n)} RSS`,
      `errors ${errors} (${failed.length} chats not completed${failed[0] ? `, e.g. ${failed[0].run.status} ${failed[0].run.failure ?? JSON.stringify(failed[0].run.events.at(-1))}` : ""}); ${browsed.reduce((s, b) => s + b.n, 0)} marketplace pages, ${Math.ceil(n / 20)} uploads; ${(wall / 1000).toFixed(1)} s`,
    ].join("\n  ");
    console.log(line);
    console.log(`  load average ${os.loadavg()[0]!.toFixed(1)}`);
    rows.push(line);
  }
} finally {
  bare.disconnect();
  await c.close();
  await llm.close();
}
process.exit(0);
