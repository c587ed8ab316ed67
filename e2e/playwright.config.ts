import path from "node:path";
import { defineConfig } from "@playwright/test";

const root = path.resolve(import.meta.dirname, "..");

/**
 * e2e against started platforms, each on fresh PGlite data with the demo seed:
 * - PORT: CAPTCHA off, shared by the specs (they configure models, buy plans, ...);
 * - CAPTCHA_PORT: the captcha on, for the one test that needs it;
 * - BARE_PORT: CAPTCHA off and never configured by any spec (e.g. no model), for tests that need
 *   the state of a new installation while other specs change the shared one in parallel.
 * The shared platform's default LLM is seeded from the environment and points at one test model
 * server (TEST_LLM_PORT) that lives as long as the run: specs that chat rely on it and never change
 * it, so no spec's teardown (a stopped server, a removed default) can break another spec's reply.
 */
export const PORT = Number(process.env.E2E_PORT ?? 8190);
export const CAPTCHA_PORT = PORT + 1;
export const BARE_PORT = PORT + 2;
/** The local OpenAI-compatible test model (apps/server/src/test/llm-server.ts) behind the shared default LLM. */
export const TEST_LLM_PORT = PORT + 3;
/** Local services the tools specs start (an MCP server, an HTTP API): the administrator's allow-list lets only them through. */
export const TOOLS_MCP_PORT = PORT + 4;
export const TOOLS_API_PORT = PORT + 5;
/** The HTTP API the workflows chain spec's HTTP node calls. */
export const WORKFLOWS_API_PORT = PORT + 13;

const server = (port: number, captcha: "on" | "off", model: Record<string, string> = {}) => ({
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
    // Every spec's chats come from 127.0.0.1: the per-IP minute (route-tested) would refuse some.
    CHAT_PER_MINUTE_PER_IP: "5000",
    NET_ALLOW_HOSTS: `127.0.0.1:${TOOLS_MCP_PORT},127.0.0.1:${TOOLS_API_PORT},127.0.0.1:${WORKFLOWS_API_PORT}`,
    // /rpa is offered on this host only (the RPA spec also opens it on localhost, where it is not)
    RPA_HOST: "127.0.0.1",
    ...model,
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
  // Two retries in CI: a serial file retries from its first test, which also proves each spec is retry-safe.
  retries: process.env.CI ? 2 : 0,
  reporter: [["list"], ["json", { outputFile: path.join(root, ".tmp/e2e-report.json") }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    locale: "zh-CN",
    // The app turns antd's animations off for it: no click lands on a dropdown still sliding in,
    // and no step waits for a modal to finish zooming.
    reducedMotion: "reduce",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/lib/chromium/chromium-headless-shell",
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
  webServer: [
    {
      command: "node --import tsx apps/server/src/test/llm-server.ts",
      cwd: root,
      url: `http://127.0.0.1:${TEST_LLM_PORT}/v1/models`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { LLM_PORT: String(TEST_LLM_PORT) },
      stdout: "ignore" as const,
      stderr: "pipe" as const,
    },
    server(PORT, "off", { MODEL_BASE_URL: `http://127.0.0.1:${TEST_LLM_PORT}/v1`, MODEL_NAME: "test-model", MODEL_API_KEY: "sk-test" }),
    server(CAPTCHA_PORT, "on"),
    server(BARE_PORT, "off"),
  ],
});
