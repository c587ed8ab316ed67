// First-load JavaScript of the web app: opens /login, /index and /agent-execute in Chromium with
// an empty cache, and adds up the scripts each loads, as sent gzipped. Prints them against the
// goals: the chat route at most 390 KB, and no script of a first load over 500 kB before
// compression. Also prints each page's Largest Contentful Paint. Builds the web app first unless
// WEB_DIST names a build. Run: npm run bench:web.
import { execFileSync, fork } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { TOKEN_COOKIE } from "@agentfair/contracts";
import { chromium } from "playwright-core";

const root = path.resolve(import.meta.dirname, "../..");
const KB = 1024;
const CHAT_GOAL = 390 * KB;
const CHUNK_LIMIT = 500 * 1000; // as Vite counts its chunk size warning
const dist = path.resolve(root, process.env.WEB_DIST ?? ".tmp/bench-web");
if (!process.env.WEB_DIST) {
  console.log("building the web app ...");
  execFileSync("npx", ["vite", "build", "--outDir", dist, "--emptyOutDir", "--logLevel", "warn"], {
    cwd: path.join(root, "apps/web"),
    stdio: "inherit",
  });
}

const child = fork(new URL("./platform.ts", import.meta.url), { execArgv: ["--import", "tsx"], env: { ...process.env, WEB_DIST: dist } });
const { port, token, agentId } = await new Promise<{ port: number; token: string; agentId: string }>((resolve, reject) => {
  child.once("message", resolve as (m: unknown) => void);
  child.once("exit", (code) => reject(new Error(`the platform exited (${code})`)));
});
const base = `http://127.0.0.1:${port}`;

/** The bytes the server sends for a URL when the browser accepts gzip only. */
const gzipBytes = (url: string) =>
  new Promise<number>((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": "gzip" } }, (res) => {
        let n = 0;
        res.on("data", (c: Buffer) => {
          n += c.length;
        });
        res.on("end", () => resolve(n));
      })
      .on("error", reject);
  });

/** Each page, and what shows once it is usable. */
const routes = [
  { path: "/login", signedIn: false, ready: "input[autocomplete=current-password]", goal: undefined },
  { path: "/index", signedIn: true, ready: "[data-testid=user-menu]", goal: undefined },
  { path: `/agent-execute?id=${agentId}`, signedIn: true, ready: "textarea", goal: CHAT_GOAL },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/lib/chromium/chromium-headless-shell",
  args: ["--headless", "--no-sandbox", "--disable-gpu"],
});
let missed = false;
const rows: string[] = [];
try {
  for (const route of routes) {
    const context = await browser.newContext({ locale: "zh-CN" });
    if (route.signedIn) await context.addCookies([{ name: TOKEN_COOKIE, value: token, url: base }]);
    const page = await context.newPage();
    const scripts = new Set<string>();
    page.on("request", (r) => {
      if (r.resourceType() === "script" && r.url().startsWith(base)) scripts.add(r.url().split("?")[0]);
    });
    await page.goto(base + route.path, { waitUntil: "networkidle" });
    await page.waitForSelector(route.ready, { timeout: 30_000 });
    // Largest Contentful Paint as Chromium reports it (headless, no throttling: compare runs, not sites).
    const lcp = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) => resolve(list.getEntries().at(-1)?.startTime ?? -1)).observe({
            type: "largest-contentful-paint",
            buffered: true,
          });
          setTimeout(() => resolve(-1), 2000);
        }),
    );
    const landed = new URL(page.url()).pathname;
    await context.close();
    if (landed !== route.path.split("?")[0]) throw new Error(`${route.path} ended on ${landed}`);
    let gz = 0;
    const big: string[] = [];
    const sizes: [string, number][] = [];
    for (const url of scripts) {
      const bytes = await gzipBytes(url);
      gz += bytes;
      sizes.push([path.basename(url), bytes]);
      const raw = fs.statSync(path.join(dist, new URL(url).pathname)).size;
      if (raw > CHUNK_LIMIT) big.push(`${path.basename(url)} ${(raw / 1000).toFixed(0)} kB`);
    }
    // VERBOSE=1: every script of the first load, largest first.
    if (process.env.VERBOSE)
      for (const [name, bytes] of sizes.sort((a, b) => b[1] - a[1])) rows.push(`    ${(bytes / KB).toFixed(1).padStart(7)} KB  ${name}`);
    const over = (route.goal !== undefined && gz > route.goal) || big.length > 0;
    missed ||= over;
    const goal = route.goal === undefined ? "" : `goal <= ${route.goal / KB} KB`;
    rows.push(
      `${route.path.split("?")[0].padEnd(16)} ${String(scripts.size).padStart(3)} scripts  ${(gz / KB).toFixed(1).padStart(7)} KB gzipped  ${goal.padEnd(16)} LCP ${lcp < 0 ? "n/a" : `${Math.round(lcp)} ms`.padStart(7)}  ${over ? "OVER" : "ok"}${big.length ? `  chunks over 500 kB: ${big.join(", ")}` : ""}`,
    );
  }
} finally {
  await browser.close();
  child.disconnect();
}
console.log("\nfirst-load JavaScript (empty cache)");
for (const r of rows) console.log(r);
const heavy = fs
  .readdirSync(path.join(dist, "assets"))
  .filter((f) => f.endsWith(".js") && fs.statSync(path.join(dist, "assets", f)).size > CHUNK_LIMIT);
if (heavy.length) console.log(`\nall chunks over 500 kB (most load only on demand): ${heavy.join(", ")}`);
if (missed) process.exitCode = 1;
