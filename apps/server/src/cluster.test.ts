import { type ChatEvent, parseChatEvents } from "@agentfair/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceOf, ledgerOf, seedCatalog } from "./modules/billing/billing.fixtures.ts";
import { TEST_PASSWORD, insertUser, randomIp } from "./test/factories.ts";
import { type Cluster, clusterUnavailable, startCluster } from "./test/cluster.ts";
import { type LlmServer, startLlmServer } from "./test/llm-server.ts";

/**
 * Two platform processes behind nginx on one PostgreSQL database and one S3 store (see
 * test/cluster.ts). Needs TEST_DATABASE_URL and nginx; otherwise skipped with the reason.
 */
const unavailable = await clusterUnavailable();
if (unavailable) console.warn(`cluster.test.ts skipped: ${unavailable}`);

let c: Cluster;
let llm: LlmServer;

beforeAll(async () => {
  if (unavailable) return;
  llm = await startLlmServer();
  c = await startCluster({ env: { MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k", CHAT_UNREAD_STOP_MS: "2000" } });
}, 90_000);
afterAll(async () => {
  await c?.close();
  await llm?.close();
});

const json = async (res: Response) => (await res.json()) as { code: number; msg: string; data: Record<string, unknown> };
const login = async (base: string, username: string) =>
  json(
    await fetch(`${base}/agent_api/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": randomIp() },
      body: JSON.stringify({ username, password: TEST_PASSWORD, domain: "" }),
    }),
  );
const info = (base: string, token: string) =>
  fetch(`${base}/agent_api/api/userinfo/findUserInfo`, { headers: { authorization: `Bearer ${token}` } });

describe.skipIf(!!unavailable)("a cluster of two processes behind nginx", () => {
  it("a session made through the balancer works on each process", async () => {
    const { user } = await insertUser(c.admin, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
    const signedIn = await login(c.url, user.username);
    expect(signedIn.code).toBe(200);
    const token = signedIn.data.token as string;
    for (const upstream of c.upstreams) {
      const res = await info(upstream, token);
      expect(res.status).toBe(200);
      expect((await json(res)).data).toMatchObject({ username: user.username });
    }
  });

  it("logout on one process revokes the token on the other within a second", async () => {
    const { user } = await insertUser(c.admin);
    const token = (await login(c.upstreams[0]!, user.username)).data.token as string;
    // The other process has the identity cached.
    expect((await info(c.upstreams[1]!, token)).status).toBe(200);
    const loggedOut = await fetch(`${c.upstreams[0]}/agent_api/api/auth/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    expect((await json(loggedOut)).code).toBe(200);
    const start = Date.now();
    let status = 200;
    while (Date.now() - start < 1000) {
      status = (await info(c.upstreams[1]!, token)).status;
      if (status !== 200) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(403);
    expect(Date.now() - start).toBeLessThan(1000);
  });

  it("a reply streams through nginx unbuffered: the first words arrive long before the end", async () => {
    const { user } = await insertUser(c.admin, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
    const token = (await login(c.url, user.username)).data.token as string;
    const created = await fetch(`${c.url}/aiagent_api/agent/quick/add`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{}",
    });
    const agentId = (await json(created)).data.agentId as string;
    llm.script({ chunks: ["一", "二", "三", "四", "五", "六", "七", "八"], delayMs: 150 });
    const start = Date.now();
    const res = await fetch(`${c.url}/agent/agent_runtime/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token, schema_id: agentId, release: false, query: "数到八" }),
    });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    let firstContentAt = 0;
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      text += r.value;
      if (!firstContentAt && text.includes('"type":"content"')) firstContentAt = Date.now() - start;
    }
    const endedAt = Date.now() - start;
    const events = parseChatEvents(text);
    expect(events.filter((e) => e.type === "content").length).toBeGreaterThan(1);
    expect(events.at(-1)).toMatchObject({ type: "stop", status: "done" });
    // Eight chunks 150 ms apart: a buffering proxy would hand everything over at the end.
    expect(endedAt - firstContentAt).toBeGreaterThan(700);
  });

  it("a reply started on one process is read on from the other after the connection drops, and stopped from it", async () => {
    const { user } = await insertUser(c.admin, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
    const token = (await login(c.url, user.username)).data.token as string;
    const created = await fetch(`${c.upstreams[0]}/aiagent_api/agent/quick/add`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{}",
    });
    const agentId = (await json(created)).data.agentId as string;
    const parse = parseChatEvents;
    const contentOf = (evs: ChatEvent[]) => evs.map((e) => (e.type === "content" ? e.delta : "")).join("");
    /** Asks process 0 and drops the connection after `n` content events; the events read so far. */
    const askAndDrop = async (n: number) => {
      const drop = new AbortController();
      const res = await fetch(`${c.upstreams[0]}/agent/agent_runtime/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token, schema_id: agentId, release: false, query: "长回答" }),
        signal: drop.signal,
      });
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = "";
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        text += r.value;
        const whole = parse(text.slice(0, text.lastIndexOf("\n") + 1));
        if (whole.filter((e) => e.type === "content").length >= n) {
          drop.abort();
          return whole;
        }
      }
      throw new Error("the reply ended before the drop");
    };
    const readFrom = (base: string, uuid: string, after: number) =>
      fetch(`${base}/agent/agent_runtime/chat_stream?uuid=${uuid}&after=${after}`, { headers: { authorization: `Bearer ${token}` } });

    const chunks = Array.from({ length: 20 }, (_, i) => `第${i}句。`);
    llm.script({ chunks, delayMs: 40 });
    const first = await askAndDrop(3);
    const session = first[0]!;
    if (session.type !== "session") throw new Error("no session event");
    // The other process reads on from where the connection broke, live, to the end.
    const rest = parse(await (await readFrom(c.upstreams[1]!, session.uuid, first.length)).text());
    expect(rest.at(-1)).toMatchObject({ type: "stop", status: "done" });
    expect(contentOf([...first, ...rest])).toBe(chunks.join(""));

    // A stop sent to the other process stops the reply where it runs.
    llm.script({ chunks: Array.from({ length: 200 }, (_, i) => `片段${i}`), delayMs: 40 });
    const second = await askAndDrop(2);
    const s2 = second[0]!;
    if (s2.type !== "session") throw new Error("no session event");
    const reading = readFrom(c.upstreams[1]!, s2.uuid, second.length).then((r) => r.text());
    const stop = await fetch(`${c.upstreams[1]}/agent/agent_runtime/stop_reply`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ uuid: s2.uuid }),
    });
    expect((await json(stop)).code).toBe(200);
    const stopped = parse(await reading);
    expect(stopped.at(-1)).toMatchObject({ type: "stop", status: "stopped" });
    expect(contentOf(stopped).length).toBeLessThan(200 * 4);

    // Read on the other process only, a reply runs past the unread limit (2 s here) to its end.
    const long = Array.from({ length: 100 }, (_, i) => `长${i}`);
    llm.script({ chunks: long, delayMs: 40 });
    const third = await askAndDrop(2);
    const s3 = third[0]!;
    if (s3.type !== "session") throw new Error("no session event");
    const kept = parse(await (await readFrom(c.upstreams[1]!, s3.uuid, third.length)).text());
    expect(kept.at(-1)).toMatchObject({ type: "stop", status: "done" });
    expect(contentOf([...third, ...kept])).toBe(long.join(""));
  });

  it("queued jobs run once each across both processes", async () => {
    const key = `once-${Date.now()}`;
    const ids = await Promise.all(Array.from({ length: 10 }, (_, i) => c.nodes[i % 2]!.sendProbe({ key })));
    const done = async () =>
      (await c.admin.platform.database.executeSql("SELECT job_id, pid FROM cluster_probe WHERE key = $1 AND phase = 'done'", [key]))
        .rows as {
        job_id: string;
        pid: number;
      }[];
    const until = Date.now() + 10_000;
    while ((await done()).length < 10 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 500));
    const rows = await done();
    expect(rows.map((r) => r.job_id).sort()).toEqual([...ids].sort());
    expect(rows.every((r) => c.nodes.some((n) => n.pid === r.pid))).toBe(true);
  });

  it("a file uploaded on one process is read back through the other (S3)", async () => {
    const { user } = await insertUser(c.admin, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
    const token = (await login(c.url, user.username)).data.token as string;
    const form = new FormData();
    form.append("file", new Blob(["集群里的文件"], { type: "text/plain" }), "cluster.txt");
    const up = await fetch(`${c.upstreams[0]}/agent_api/api/files`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const { presignedUrl } = (await json(up)).data as { presignedUrl: string };
    const back = await fetch(`${c.upstreams[1]}${presignedUrl}`, { headers: { authorization: `Bearer ${token}` } });
    expect(back.status).toBe(200);
    expect(await back.text()).toBe("集群里的文件");
    // And through the balancer, whichever process answers.
    const viaNginx = await fetch(`${c.url}${presignedUrl}`, { headers: { authorization: `Bearer ${token}` } });
    expect(await viaNginx.text()).toBe("集群里的文件");
  });
});

describe.skipIf(!!unavailable)("faults across the two processes", () => {
  const post = (base: string, url: string, token: string, body: object) =>
    fetch(`${base}/agent_api/api${url}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("one payment notification replayed 20× at once on both processes changes the order once", async () => {
    const plans = await seedCatalog(c.admin);
    const { user } = await insertUser(c.admin);
    const token = (await login(c.url, user.username)).data.token as string;
    const order = (await json(await post(c.url, `/order/${plans.MONTHLY!.id}/create`, token, {}))).data as { orderNo: string };
    // Signed with the cluster's secret, as the payment provider would.
    const n = c.admin.services.billing.sandbox.signedNotification({ orderNo: order.orderNo, amountCents: 2900 });
    const results = await Promise.all(
      Array.from({ length: 20 }, async (_, i) =>
        json(
          await fetch(`${c.upstreams[i % 2]}/agent_api/api/order/notify/sandbox`, {
            method: "POST",
            headers: { ...n.headers, "content-type": "application/json" },
            body: n.body,
          }),
        ),
      ),
    );
    const outcomes = results.map((r) => r.data.outcome);
    expect(outcomes.filter((x) => x === "settled")).toHaveLength(1);
    expect(outcomes.filter((x) => x === "duplicate")).toHaveLength(19);
    expect((await ledgerOf(c.admin, user.id)).filter((l) => l.kind === "MEMBERSHIP")).toHaveLength(1);
    expect((await balanceOf(c.admin, user.id)).memberLevel).toBe("MONTHLY");
  });

  it("200 redemptions of one benefit code at once on both processes: one succeeds", async () => {
    await insertUser(c.admin, { username: "admin" });
    const adminToken = (await login(c.upstreams[0]!, "admin")).data.token as string;
    const batch = (
      await json(
        await post(c.upstreams[0]!, "/admin/billing/benefit-batches", adminToken, {
          name: "集群并发",
          grant: "AMOUNT",
          amount: 5,
          count: 1,
        }),
      )
    ).data as { codes: string[] };
    const code = batch.codes[0]!;
    const people = await Promise.all(Array.from({ length: 10 }, () => insertUser(c.admin)));
    const tokens = await Promise.all(people.map(async (p, i) => (await login(c.upstreams[i % 2]!, p.user.username)).data.token as string));
    const results = await Promise.all(
      Array.from(
        { length: 200 },
        async (_, i) => (await post(c.upstreams[i % 2]!, "/benefit/useCode", tokens[i % 10]!, { benefitCode: code })).status,
      ),
    );
    expect(results.filter((s) => s === 200)).toHaveLength(1);
    const balances = await Promise.all(people.map((p) => balanceOf(c.admin, p.user.id)));
    expect(balances.reduce((s, u) => s + u.balanceCents, 0)).toBe(500);
  });
});
