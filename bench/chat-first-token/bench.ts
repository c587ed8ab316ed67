// Time to first token: through the platform (POST /agent/agent_runtime/chat over real HTTP) vs
// calling the same local test model server directly, in one run. Prints both and the overhead.
// Run: npm run bench:chat (not part of npm test).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createTestApp } from "../../apps/server/src/test/harness.ts";
import { createUser } from "../../apps/server/src/test/factories.ts";
import { startLlmServer } from "../../apps/server/src/test/llm-server.ts";

const RUNS = Number(process.env.RUNS ?? 60);
const WARMUP = 8;
const ANSWER = { chunks: ["你好", "，", "世界"] };

/** Time to the first matching line; resolves once the whole answer is in, so replies never overlap the next run. */
function firstLine(port: number, path: string, body: unknown, headers: Record<string, string>, isFirst: (line: string) => boolean) {
  return new Promise<number>((resolve, reject) => {
    let first = 0;
    const started = process.hrtime.bigint();
    const req = http.request(
      { host: "127.0.0.1", port, path, method: "POST", headers: { "content-type": "application/json", ...headers } },
      (res) => {
        let buf = "";
        let done = false;
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          if (done) return;
          buf += chunk;
          for (const line of buf.split("\n")) {
            if (isFirst(line)) {
              done = true;
              first = Number(process.hrtime.bigint() - started) / 1e6;
              break;
            }
          }
        });
        res.on("end", () => (done ? resolve(first) : reject(new Error(`no first token: ${buf.slice(0, 300)}`))));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const llm = await startLlmServer();
const t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k", LOG_LEVEL: "silent" });
await t.app.listen({ port: 0, host: "127.0.0.1" });
const port = (t.app.server.address() as AddressInfo).port;
const user = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
const agentId = (
  await t.app.inject({ method: "POST", url: "/aiagent_api/agent/quick/add", headers: user.headers, payload: { agentName: "Bench" } })
).json().data.agentId;

const direct: number[] = [];
const platform: number[] = [];
const directBody = { model: "test-model", stream: true, messages: [{ role: "user", content: "你好" }] };
for (let i = 0; i < RUNS + WARMUP; i++) {
  // Same scripted answer for both, alternated so drift hits both equally.
  llm.script(ANSWER);
  const d = await firstLine(llm.port, "/v1/chat/completions", directBody, { authorization: "Bearer k" }, (l) =>
    l.includes('"content":"你好"'),
  );
  llm.script(ANSWER, { chunks: ["[]"] });
  const p = await firstLine(
    port,
    "/agent/agent_runtime/chat",
    { token: user.token, schema_id: agentId, release: false, query: "你好" },
    {},
    (l) => l.startsWith('{"type":"content"'),
  );
  if (i >= WARMUP) {
    direct.push(d);
    platform.push(p);
  }
  await new Promise((r) => setTimeout(r, 30));
}

const row = (name: string, xs: number[]) =>
  `${name.padEnd(10)} p50 ${pct(xs, 50).toFixed(2)} ms   p90 ${pct(xs, 90).toFixed(2)} ms   min ${Math.min(...xs).toFixed(2)} ms`;
console.log(`chat first token, ${RUNS} runs (driver ${t.platform.database.driver})`);
console.log(row("direct", direct));
console.log(row("platform", platform));
const overhead = pct(platform, 50) - pct(direct, 50);
console.log(`overhead   p50 +${overhead.toFixed(2)} ms (goal <= 5 ms), ratio ${(pct(platform, 50) / pct(direct, 50)).toFixed(2)}x`);
await t.close();
await llm.close();
