// Time to first token: through the platform (POST /agent/agent_runtime/chat over real HTTP) vs
// calling the same local test model server directly, in one run. Prints both and the overhead.
// The platform runs in its own process (platform.ts), as in production; this process is the
// client and hosts the test model. Run: npm run bench:chat (not part of npm test).
import { fork } from "node:child_process";
import http from "node:http";
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
const child = fork(new URL("./platform.ts", import.meta.url), {
  execArgv: ["--import", "tsx"],
  env: { ...process.env, LLM_URL: llm.url },
});
const { port, token, agentId, driver } = await new Promise<{ port: number; token: string; agentId: string; driver: string }>(
  (resolve, reject) => {
    child.once("message", resolve as (m: unknown) => void);
    child.once("exit", (code) => reject(new Error(`the platform exited (${code})`)));
  },
);

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
  const p = await firstLine(port, "/agent/agent_runtime/chat", { token, schema_id: agentId, release: true, query: "你好" }, {}, (l) =>
    l.startsWith('{"type":"content"'),
  );
  if (i >= WARMUP) {
    direct.push(d);
    platform.push(p);
  }
  await new Promise((r) => setTimeout(r, 30));
}

const row = (name: string, xs: number[]) =>
  `${name.padEnd(10)} p50 ${pct(xs, 50).toFixed(2)} ms   p90 ${pct(xs, 90).toFixed(2)} ms   min ${Math.min(...xs).toFixed(2)} ms`;
console.log(`chat first token, ${RUNS} runs (driver ${driver}, platform in its own process)`);
console.log(row("direct", direct));
console.log(row("platform", platform));
const overhead = pct(platform, 50) - pct(direct, 50);
console.log(`overhead   p50 +${overhead.toFixed(2)} ms (goal <= 5 ms), ratio ${(pct(platform, 50) / pct(direct, 50)).toFixed(2)}x`);
child.disconnect();
await new Promise((r) => child.once("exit", r));
await llm.close();
