// Rendering a long chat reply in Chromium: a ~60 KB Markdown reply (tables, code blocks, lists)
// streamed by the local test model in small chunks, then the same session reopened. Prints, per run:
// - stream: how long after the model's last chunk the whole reply showed formatted (the page
//   catching up); the main thread's blocking time meanwhile (long tasks' time past 50 ms) and its
//   longest task; the time the page spent in scripts, in style and layout, and in all its tasks;
// - reopen: from the reload to the whole reply shown formatted, the blocking time, the longest
//   task and the scripts' time.
// The machine's load sways every figure: compare builds run back to back, alternating.
// Builds the web app first unless WEB_DIST names a build. Run: npm run bench:chat-markdown
// (RUNS, BYTES, CHUNK, DELAY_MS; PROFILE=1 prints where the streaming time went; SCREENSHOT=<file>: the reopened reply's end).
import { execFileSync, fork } from "node:child_process";
import path from "node:path";
import { TOKEN_COOKIE } from "@agentfair/contracts";
import { chromium, type Page } from "playwright-core";
import { startLlmServer } from "../../apps/server/src/test/llm-server.ts";
import { END_MARK, longReply } from "./reply.ts";

const root = path.resolve(import.meta.dirname, "../..");
const RUNS = Number(process.env.RUNS ?? 3);
const BYTES = Number(process.env.BYTES ?? 60_000);
/** Characters per streamed chunk and the pause before each: a fast model, about 8 000 characters a second. */
const CHUNK = Number(process.env.CHUNK ?? 40);
const DELAY_MS = Number(process.env.DELAY_MS ?? 5);

const dist = path.resolve(root, process.env.WEB_DIST ?? ".tmp/bench-web");
if (!process.env.WEB_DIST) {
  console.log("building the web app ...");
  execFileSync("npx", ["vite", "build", "--outDir", dist, "--emptyOutDir", "--logLevel", "warn"], {
    cwd: path.join(root, "apps/web"),
    stdio: "inherit",
  });
}

const reply = longReply(BYTES);
const chunks: string[] = [];
for (let i = 0; i < reply.length; i += CHUNK) chunks.push(reply.slice(i, i + CHUNK));

const llm = await startLlmServer();
const child = fork(new URL("./platform.ts", import.meta.url), {
  execArgv: ["--import", "tsx"],
  env: { ...process.env, WEB_DIST: dist, LLM_URL: llm.url },
});
const { port, token, agentId } = await new Promise<{ port: number; token: string; agentId: string }>((resolve, reject) => {
  child.once("message", resolve as (m: unknown) => void);
  child.once("exit", (code) => reject(new Error(`the platform exited (${code})`)));
});
const base = `http://127.0.0.1:${port}`;

/**
 * In the page from its start: long tasks, and when the reply's end mark first shows formatted. A
 * string, not a function: tsx would add its helpers (__name) to a function's text.
 */
const probe = `
  window.__tasks = [];
  window.__shown = 0;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__tasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch (err) {
    console.error("no long tasks", err);
  }
  const check = () => {
    if (window.__shown) return;
    for (const el of document.querySelectorAll(".chat-markdown:not(.chat-markdown-pending)"))
      if (el.textContent.includes(${JSON.stringify(END_MARK)})) {
        window.__shown = performance.now();
        return;
      }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
`;

const read = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __tasks: { start: number; duration: number }[]; __shown: number };
    return { tasks: w.__tasks, shown: w.__shown, now: performance.now() };
  });
const blocking = (tasks: { start: number; duration: number }[], from: number, to: number) => {
  const inside = tasks.filter((t) => t.start >= from && t.start <= to);
  return { total: inside.reduce((s, t) => s + Math.max(0, t.duration - 50), 0), longest: Math.max(0, ...inside.map((t) => t.duration)) };
};

/** PROFILE=1: where the page's time went while it streamed, by function (self time); build with `--minify false` to read the names. */
function topFunctions(profile: {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples?.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    const key = frame ? `${frame.functionName || "(anonymous)"} ${path.basename(frame.url)}:${frame.lineNumber + 1}` : "?";
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
  });
  for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${ms.toFixed(0).padStart(7)} ms  ${name}`);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/lib/chromium/chromium-headless-shell",
  args: ["--headless", "--no-sandbox", "--disable-gpu"],
});
const rows: string[] = [];
try {
  for (let run = 1; run <= RUNS; run++) {
    const context = await browser.newContext({ locale: "zh-CN", viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: TOKEN_COOKIE, value: token, url: base }]);
    await context.addInitScript(probe);
    const page = await context.newPage();
    // The time the page's scripts ran, styled and laid out, and of all its tasks (Chromium's metrics, counted again from 0 after a reload).
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    const cpu = async () => {
      const { metrics } = await cdp.send("Performance.getMetrics");
      const get = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
      return { script: get("ScriptDuration"), layout: get("LayoutDuration") + get("RecalcStyleDuration"), task: get("TaskDuration") };
    };
    page.on("console", (m) => m.type() === "error" && console.log("page:", m.text().slice(0, 300)));
    page.on("pageerror", (e) => console.log("page error:", e.message));
    await page.goto(`${base}/agent-execute?id=${agentId}`, { waitUntil: "networkidle" });
    const input = page.locator(".ant-sender textarea");
    await input.waitFor();
    // The Markdown code loads with the first reply: a short one first, so the long one measures rendering only.
    llm.script({ chunks: ["**好的**"] });
    await input.fill("你好");
    await input.press("Enter");
    await page.locator(".chat-markdown:not(.chat-markdown-pending) strong").first().waitFor();
    await page.locator(".ant-sender [class*='loading-button']").waitFor({ state: "detached", timeout: 20_000 });

    llm.script({ chunks, delayMs: DELAY_MS });
    // The page's clock is the bench's, shifted: when the question left, when the model sent its last chunk.
    const clock = await page.evaluate(() => performance.now() - Date.now());
    const cpuBefore = await cpu();
    if (process.env.PROFILE) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.start");
    }
    const request = llm.requests.length;
    let lastChunkAt = 0;
    const watch = setInterval(() => {
      if (!lastChunkAt && llm.requests[request]?.finished) lastChunkAt = Date.now();
    }, 2);
    const sent = Date.now();
    await input.fill("请给出完整的季度分析报告");
    await input.press("Enter");
    await page
      .waitForFunction(() => (window as unknown as { __shown: number }).__shown > 0, null, {
        timeout: Number(process.env.TIMEOUT_MS ?? 300_000),
        polling: 100,
      })
      .catch(async (err) => {
        await page.screenshot({ path: path.join(root, ".tmp/bench-chat-markdown-failed.png") });
        throw err;
      });
    clearInterval(watch);
    const cpuStreamed = await cpu();
    if (process.env.PROFILE) topFunctions((await cdp.send("Profiler.stop")).profile);
    const streamed = await read(page);
    const from = sent + clock;
    const streamBlocking = blocking(streamed.tasks, from, streamed.shown);
    const behind = streamed.shown - (lastChunkAt + clock);
    const modelTime = lastChunkAt - sent;
    await page.locator(".ant-sender [class*='loading-button']").waitFor({ state: "detached", timeout: 60_000 });
    await page.waitForURL(/sessionId=/);

    // Reopened: the session's address again, the reply from the server in one piece.
    await page.reload();
    await page.waitForFunction(() => (window as unknown as { __shown: number }).__shown > 0, null, { timeout: 120_000, polling: 50 });
    const reopened = await read(page);
    const cpuReopened = await cpu();
    const reopenBlocking = blocking(reopened.tasks, 0, reopened.shown);
    if (process.env.SCREENSHOT) {
      await page.getByText(END_MARK).last().scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.resolve(root, process.env.SCREENSHOT) });
    }
    rows.push(
      `run ${run}: stream ${((streamed.shown - from) / 1000).toFixed(1)} s (model ${(modelTime / 1000).toFixed(1)} s), shown ${Math.round(behind)} ms after the model's end, blocking ${Math.round(streamBlocking.total)} ms, longest task ${Math.round(streamBlocking.longest)} ms, scripts ${Math.round(cpuStreamed.script - cpuBefore.script)} ms, style and layout ${Math.round(cpuStreamed.layout - cpuBefore.layout)} ms, all tasks ${Math.round(cpuStreamed.task - cpuBefore.task)} ms | reopen: shown at ${Math.round(reopened.shown)} ms, blocking ${Math.round(reopenBlocking.total)} ms, longest task ${Math.round(reopenBlocking.longest)} ms, scripts ${Math.round(cpuReopened.script)} ms`,
    );
    console.log(rows.at(-1));
    await context.close();
  }
} finally {
  await browser.close();
  child.disconnect();
  await llm.close();
}
console.log(`\n${reply.length} characters (${Buffer.byteLength(reply)} bytes), ${chunks.length} chunks of ${CHUNK} every ${DELAY_MS} ms`);
for (const r of rows) console.log(r);
