// Fault suite on a real cluster (two platform processes behind nginx, one PostgreSQL, one S3):
//  1. every PostgreSQL connection of the platform cut (pg_terminate_backend) during 50 streams;
//  2. a process killed (SIGKILL) while it runs a job: the job finishes on the other.
// The quick faults (a payment notification replayed, one benefit code redeemed 200× across
// processes) run in npm test: apps/server/src/cluster.test.ts.
// Run: npm run bench:faults (needs nginx and PostgreSQL; TEST_DATABASE_URL defaults to 127.0.0.1).
import { insertUser, randomIp, TEST_PASSWORD } from "../../apps/server/src/test/factories.ts";
import { clusterUnavailable, slowAnswers, startCluster } from "../../apps/server/src/test/cluster.ts";
import { startLlmServer } from "../../apps/server/src/test/llm-server.ts";
import { streamChat } from "../load/client.ts";

process.env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
const STREAMS = Number(process.env.STREAMS ?? 50);
const why = await clusterUnavailable();
if (why) {
  console.error(why);
  process.exit(1);
}

const llm = await startLlmServer();
const c = await startCluster({
  env: {
    MODEL_BASE_URL: llm.url,
    MODEL_NAME: "test-model",
    MODEL_API_KEY: "k",
    CHAT_PER_MINUTE: "100000",
    CHAT_PER_MINUTE_PER_IP: "100000",
    PROBE_EXPIRE_SECONDS: "4",
    JOBS_MAINTENANCE_SECONDS: "2",
  },
});
const sql = async <T>(text: string, values: unknown[] = []) => (await c.admin.platform.database.executeSql(text, values)).rows as T[];
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
const results: { fault: string; ok: boolean; detail: string }[] = [];
const check = (fault: string, ok: boolean, detail: string) => {
  results.push({ fault, ok, detail });
  console.log(`${ok ? "ok  " : "FAIL"} ${fault}: ${detail}`);
};

try {
  // ---- 1. PostgreSQL connections cut during streams -----------------------------------------
  // Free accounts, each chatting with its own agent: every reply counts once against the day's free chats.
  // Free accounts cannot create agents: each makes one as a member (on the parent's app, so no
  // cluster process caches the membership), then becomes free and signs in to the cluster.
  const people = await Promise.all(Array.from({ length: STREAMS }, () => insertUser(c.admin, { memberLevel: "PER_FLAGSHIP_MONTHLY" })));
  const agents = await Promise.all(
    people.map(async (p) => {
      const res = await c.admin.app.inject({
        method: "POST",
        url: "/agent_api/api/auth/login",
        payload: { username: p.user.username, password: TEST_PASSWORD, domain: "" },
        remoteAddress: randomIp(),
      });
      const created = await c.admin.app.inject({
        method: "POST",
        url: "/aiagent_api/agent/quick/add",
        headers: { authorization: `Bearer ${res.json().data.token}` },
        payload: {},
      });
      return created.json().data.agentId as string;
    }),
  );
  await sql("UPDATE users SET member_level = 'FREE', member_end_at = NULL WHERE id = ANY($1)", [people.map((p) => p.user.id)]);
  const tokens = await Promise.all(people.map((p) => login(p.user.username)));
  // Twenty chunks 150 ms apart: three seconds of streaming to cut into.
  slowAnswers(llm, { chunks: Array.from({ length: 20 }, (_, i) => `第${i + 1}句。`), delayMs: 150 });
  const runs = tokens.map((token, i) => streamChat(c.url, { token, schema_id: agents[i], release: false, query: "讲个故事" }));
  await new Promise((r) => setTimeout(r, 1200));
  const database = new URL(c.databaseUrl).pathname.slice(1);
  const cut = await sql<{ n: string }>(
    "SELECT count(*) AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()) x",
    [database],
  );
  console.log(`cut ${cut[0]?.n} PostgreSQL connections with ${STREAMS} replies streaming`);
  const done = await Promise.all(runs);
  const ended = done.filter((r) => ["stop", "error"].includes(r.events.at(-1)?.type ?? "")).length;
  const errors = done.filter((r) => r.events.some((e) => e.type === "error")).length;
  const completed = done.filter(
    (r) => r.events.at(-1)?.type === "stop" && (r.events.at(-1) as { status?: string }).status === "done",
  ).length;
  if (ended < STREAMS)
    console.log(
      "a stream that did not end with an event:",
      JSON.stringify(done.find((r) => !["stop", "error"].includes(r.events.at(-1)?.type ?? ""))).slice(0, 400),
    );
  check(
    "streams end",
    ended === STREAMS,
    `${ended}/${STREAMS} ended with a stop or error event (${completed} completed, ${errors} with an error event)`,
  );
  const sessions = done.map((r) => (r.events[0]?.type === "session" ? r.events[0].session_id : null)).filter((s): s is string => !!s);
  const saved = await sql<{ session_id: string; n: string }>(
    "SELECT session_id, count(*) AS n FROM chat_messages WHERE role = 'bot' AND session_id = ANY($1) GROUP BY session_id",
    [sessions],
  );
  const twice = saved.filter((s) => Number(s.n) > 1).length;
  check(
    "saved once or not at all",
    twice === 0,
    `${saved.length} replies saved, ${sessions.length - saved.length} not saved, ${twice} saved twice`,
  );
  // A reply the database lost is not reported as done (it ends with an error event, uncharged).
  const savedIn = new Set(saved.map((s) => s.session_id));
  const silent = done.filter((r) => {
    const first = r.events[0];
    const last = r.events.at(-1) as { type?: string; status?: string } | undefined;
    return first?.type === "session" && !savedIn.has(first.session_id) && last?.status === "done";
  }).length;
  check("an unsaved reply says so", silent === 0, `${silent} unsaved replies ended as done`);
  const charges = await sql<{ user_id: string; n: number }>("SELECT user_id, count AS n FROM free_chat_usage WHERE user_id = ANY($1)", [
    people.map((p) => p.user.id),
  ]);
  const overcharged = charges.filter((x) => Number(x.n) > 1).length;
  check("charged at most once", overcharged === 0, `${charges.length} free chats counted once, ${overcharged} more than once`);
  // The pools reconnect: a new chat on each process works without a restart.
  const after = await Promise.all(
    c.upstreams.map((u, i) => streamChat(u, { token: tokens[i]!, schema_id: agents[i], release: false, query: "再讲一个" })),
  );
  const recovered = after.filter((r) => (r.events.at(-1) as { status?: string } | undefined)?.status === "done").length;
  check("pools recover", recovered === after.length, `${recovered}/${after.length} processes answer a new chat afterwards`);

  // ---- 2. a process killed during a job -----------------------------------------------------
  const key = `kill-${Date.now()}`;
  const t0 = Date.now();
  await c.nodes[0]!.sendProbe({ key, sleepMs: 2500 });
  let started: { pid: number } | undefined;
  while (!started && Date.now() - t0 < 15_000) {
    [started] = await sql<{ pid: number }>("SELECT pid FROM cluster_probe WHERE key = $1 AND phase = 'start'", [key]);
    if (!started) await new Promise((r) => setTimeout(r, 100));
  }
  const victim = c.nodes.find((n) => n.pid === started?.pid);
  victim?.child.kill("SIGKILL");
  const killedAt = Date.now();
  let finished: { pid: number }[] = [];
  while (finished.length === 0 && Date.now() - killedAt < 60_000) {
    finished = await sql<{ pid: number }>("SELECT pid FROM cluster_probe WHERE key = $1 AND phase = 'done'", [key]);
    if (finished.length === 0) await new Promise((r) => setTimeout(r, 200));
  }
  const recoveredIn = (Date.now() - killedAt) / 1000;
  await new Promise((r) => setTimeout(r, 3000));
  finished = await sql<{ pid: number }>("SELECT pid FROM cluster_probe WHERE key = $1 AND phase = 'done'", [key]);
  check(
    "killed during a job",
    finished.length === 1 && finished[0]!.pid !== victim?.pid,
    `process ${victim?.pid} killed mid-job; done ${finished.length}× by ${finished.map((f) => f.pid).join(",") || "nobody"}, ${recoveredIn.toFixed(1)} s later (expiry 4 s, maintenance every 2 s)`,
  );
} finally {
  await c.close();
  await llm.close();
}
const failed = results.filter((r) => !r.ok);
console.log(failed.length ? `${failed.length} fault check(s) failed` : "all fault checks passed");
process.exit(failed.length ? 1 : 0);
