// Tools: the time an HTTP plugin call adds over calling the same local endpoint directly, and the
// JavaScript (QuickJS) and Python (Pyodide) sandboxes' cold and warm call times.
// "Through the platform" is measured twice: the plugin runner (parameter rows, safe fetch with its
// connect-time address check, response cap, JSON parse) and the whole test-run call
// (POST /aiagent_api/plugin/{id}/test: auth, access check, database read, runner). The direct call
// uses Node's http client with a kept-alive connection, as the safe fetch does.
// Run: npm run bench:tools (not part of npm test).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Sandboxes } from "../../apps/server/src/platform/sandbox/index.ts";
import { createUser } from "../../apps/server/src/test/factories.ts";
import { createTestApp } from "../../apps/server/src/test/harness.ts";

const RUNS = Number(process.env.RUNS ?? 200);
const WARMUP = 20;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (n: number) => `${n.toFixed(2)} ms`;
const summary = (xs: number[]) => `p50 ${ms(pct(xs, 50))}  p90 ${ms(pct(xs, 90))}  p99 ${ms(pct(xs, 99))}`;

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const started = process.hrtime.bigint();
  const out = await fn();
  return [Number(process.hrtime.bigint() - started) / 1e6, out];
}

const api = await new Promise<http.Server>((resolve) => {
  const s = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: true, url: req.url, weather: "晴", max: 28 }));
  });
  s.keepAliveTimeout = 60_000;
  s.listen(0, "127.0.0.1", () => resolve(s));
});
const port = (api.address() as AddressInfo).port;
const agent = new http.Agent({ keepAlive: true });
const direct = () =>
  new Promise<unknown>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/weather/%E4%B8%8A%E6%B5%B7?unit=c", agent }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          body += c;
        });
        res.on("end", () => resolve(JSON.parse(body)));
      })
      .on("error", reject);
  });

const t = await createTestApp({ NET_ALLOW_HOSTS: `127.0.0.1:${port}` });
const user = await createUser(t);
const created = await t.app.inject({
  method: "POST",
  url: "/aiagent_api/plugin",
  headers: user.headers,
  payload: {
    pluginName: "天气查询",
    pluginDescription: "查询城市天气",
    pluginIcon: "1",
    pluginType: "HTTP",
    pluginCallableName: "get_weather",
    pluginTags: ["政务"],
    url: `http://127.0.0.1:${port}/weather/{city}`,
    method: "GET",
    pathVariables: [{ name: "city", required: true }],
    parameters: [{ name: "unit", options: ["c", "f"] }],
  },
});
const pluginId = created.json().data.id as string;
const row = (await t.services.tools.repo.byId(pluginId)).plugin;
const args = { city: "上海", unit: "c" };
const viaRunner = () => t.services.tools.execute(row, args);
const viaRoute = () =>
  t.app.inject({ method: "POST", url: `/aiagent_api/plugin/${pluginId}/test`, headers: user.headers, payload: { params: args } });

const d: number[] = [];
const r: number[] = [];
const q: number[] = [];
for (let i = 0; i < WARMUP + RUNS; i++) {
  // Interleaved, so the machine's load falls on all three alike.
  const [a] = await time(direct);
  const [b, res] = await time(viaRunner);
  const [c, routed] = await time(viaRoute);
  if (!res.ok || routed.statusCode !== 200) throw new Error(`the plugin call failed: ${res.error ?? routed.body}`);
  if (i >= WARMUP) {
    d.push(a);
    r.push(b);
    q.push(c);
  }
}
console.log(`HTTP plugin call, ${RUNS} runs (${t.platform.database.driver})`);
console.log(`  direct:                 ${summary(d)}`);
console.log(`  plugin runner:          ${summary(r)}`);
console.log(`  test-run call (route):  ${summary(q)}`);
console.log(`  added by the runner:    p50 ${ms(pct(r, 50) - pct(d, 50))}   (goal ≤ 2 ms)`);
console.log(`  added by the route:     p50 ${ms(pct(q, 50) - pct(d, 50))}`);
await t.close();
api.close();
agent.destroy();

async function sandboxBench(language: "javascript" | "python", code: string, goal: number) {
  const sandboxes = new Sandboxes({ timeoutMs: 120_000, memoryMb: 64, jsWorkers: 1, pyWorkers: 1 });
  const job = { tenantKey: "bench", ownerKey: "bench", code, params: { a: 20, b: 22 } };
  const [cold, first] = await time(() => sandboxes.run(language, job));
  if (!first.ok) throw new Error(`${language}: ${first.error}`);
  const warm: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const [w, out] = await time(() => sandboxes.run(language, job));
    if (!out.ok || (out.result as { sum?: number })?.sum !== 42) throw new Error(`${language}: ${out.error ?? JSON.stringify(out.result)}`);
    if (i >= WARMUP) warm.push(w);
  }
  console.log(`${language} sandbox: cold (worker start + first call) ${ms(cold)}; warm ${summary(warm)}   (goal warm ≤ ${goal} ms)`);
  await sandboxes.close();
}
await sandboxBench("javascript", "function main(p) { return { sum: p.a + p.b, at: 'x'.repeat(3) }; }", 5);
await sandboxBench("python", "def main(p):\n    return {'sum': p['a'] + p['b']}", 20);
