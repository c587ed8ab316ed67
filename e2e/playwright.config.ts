import path from "node:path";
import { defineConfig } from "@playwright/test";

const root = path.resolve(import.meta.dirname, "..");

/**
 * e2e against started platforms, each on fresh PGlite data with the demo seed:
 * - PORT: CAPTCHA off, shared by the specs (they configure models, buy plans, ...);
 * - CAPTCHA_PORT: the captcha on, for the one test that needs it;
 * - BARE_PORT: CAPTCHA off and never configured by any spec (e.g. no model), for tests that need
 *   the state of a new installation while other specs change the shared one in parallel.
 */
export const PORT = Number(process.env.E2E_PORT ?? 8190);
export const CAPTCHA_PORT = PORT + 1;
export const BARE_PORT = PORT + 2;

const server = (port: number, captcha: "on" | "off") => ({
  command: `node scripts/e2e-server.mjs`,
  cwd: root,
  url: `http://127.0.0.1:${port}/healthz`,
  reuseExistingServer: false,
  timeout: 120_000,
  // Parallel specs share the demo users, and one spec opens 105 sessions: the per-user chat limits
  // (route-tested on the server) are raised here so that they do not decide other specs' outcomes.
  env: {
    PORT: String(port),
    CAPTCHA: captcha,
    E2E_DATA: `.tmp/e2e-data-${port}`,
    CHAT_PER_MINUTE: "1000",
    CHAT_STREAMS_PER_USER: "50",
  },
  stdout: "ignore" as const,
  stderr: "pipe" as const,
});

export default defineConfig({
  testDir: "./specs",
  outputDir: path.join(root, ".tmp/e2e-results"),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 2,
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"], ["json", { outputFile: path.join(root, ".tmp/e2e-report.json") }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    locale: "zh-CN",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: [server(PORT, "off"), server(CAPTCHA_PORT, "on"), server(BARE_PORT, "off")],
});
