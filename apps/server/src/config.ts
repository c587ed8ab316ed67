import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";

const bool = (dflt: boolean) =>
  z
    .enum(["0", "1", "true", "false", "on", "off", "yes", "no"])
    .optional()
    .transform((v) => (v === undefined ? dflt : ["1", "true", "on", "yes"].includes(v)));
const list = (dflt: string) =>
  z
    .string()
    .default(dflt)
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    );

/** Every setting, read once from the environment. README lists each one. */
const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default("0.0.0.0"),
  /** Peers whose X-Forwarded-For is believed (proxy-addr list); others cannot pick their own IP for the rate limits. */
  TRUST_PROXY: z.string().default("loopback"),
  PUBLIC_URL: z.string().default(""),
  /** Prometheus metrics at /metrics for scrapers sending this bearer token; unset, /metrics does not exist. */
  METRICS_TOKEN: z.string().default(""),
  DATA_DIR: z.string().default("./data"),
  /** Uploaded files on an S3-compatible store instead of DATA_DIR/files (every process must share one store). */
  S3_BUCKET: z.string().default(""),
  /** The store's address; empty for AWS S3 itself. */
  S3_ENDPOINT: z.string().default(""),
  /** The store's address as browsers reach it: downloads then go there by presigned URL (and the CSP allows it). Empty: through the app. */
  S3_PUBLIC_ENDPOINT: z.string().default(""),
  S3_REGION: z.string().default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().default(""),
  S3_SECRET_ACCESS_KEY: z.string().default(""),
  /** Bucket in the path (https://host/bucket/key), as MinIO and most self-hosted stores need. */
  S3_FORCE_PATH_STYLE: bool(true),
  DATABASE_URL: z.string().default(""),
  SEED_DEMO: bool(true),
  /** Creates the ADMIN_USERNAMES accounts that do not exist yet with this password at start (their names cannot be registered). */
  ADMIN_PASSWORD: z.string().default(""),
  CAPTCHA: z.enum(["on", "off"]).default("on"),
  SMTP_URL: z.string().default(""),
  SMTP_FROM: z.string().default("Agentfair <no-reply@agentfair.local>"),
  ADMIN_USERNAMES: list("admin"),
  HOME_USERNAME: z.string().default("admin"),
  EXEMPT_USERNAME: z.string().default("admin"),
  ENTERPRISE_TENANT: z.string().default(""),
  RPA_HOST: z.string().default(""),
  /**
   * The Chromium that prints report PDFs (GET .../tReportBuilder/export?format=pdf): Debian's headless
   * shell, or the full browser where only that is installed.
   */
  CHROMIUM_PATH: z.string().default(() => [HEADLESS_SHELL, "/usr/bin/chromium"].find((p) => fs.existsSync(p)) ?? HEADLESS_SHELL),
  RECORD_FILING: z.string().default(""),
  BANK_TRANSFER: bool(false),
  SECRET_KEY: z.string().default(""),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** A request answered under 400 within this many ms is logged at debug; 0 logs every request at info. */
  REQUEST_LOG_SLOW_MS: z.coerce.number().int().min(0).default(1000),
  ROLE: z.enum(["all", "web", "worker"]).default("all"),
  WEB_DIST: z.string().default(""),
  // billing: payment provider (sandbox | wechatpay) and WeChat Pay API v3 merchant settings
  PAYMENT_PROVIDER: z.enum(["sandbox", "wechatpay"]).default("sandbox"),
  ORDER_EXPIRE_MINUTES: z.coerce.number().int().min(5).max(1440).default(120),
  WECHATPAY_BASE_URL: z.string().default("https://api.mch.weixin.qq.com"),
  WECHATPAY_MCHID: z.string().default(""),
  WECHATPAY_APPID: z.string().default(""),
  WECHATPAY_SERIAL_NO: z.string().default(""),
  WECHATPAY_PRIVATE_KEY: z.string().default(""),
  WECHATPAY_APIV3_KEY: z.string().default(""),
  WECHATPAY_PLATFORM_CERTS: z.string().default(""),
  WECHATPAY_PUBLIC_KEY_ID: z.string().default(""),
  WECHATPAY_PUBLIC_KEY: z.string().default(""),
  WECHATPAY_NOTIFY_URL: z.string().default(""),
  // chat and models: seeded into Model management on first start
  MODEL_BASE_URL: z.string().default(""),
  MODEL_API_KEY: z.string().default(""),
  MODEL_NAME: z.string().default(""),
  EMBEDDING_MODEL: z.string().default(""),
  AUDIO_MODEL: z.string().default(""),
  RERANK_MODEL: z.string().default(""),
  /** With the demo data and no MODEL_BASE_URL: seed the offline demo models (modules/models/offline.ts) once. */
  OFFLINE_MODEL: bool(true),
  /** Hosts (or host:port) that outbound calls may reach even when private, e.g. a local Ollama. */
  NET_ALLOW_HOSTS: list(""),
  /** Origins the designer's map widgets may load styles and tiles from (added to the page's content security policy). */
  MAP_ORIGINS: list("").refine(
    (l) => l.every((o) => /^https?:\/\/[A-Za-z0-9.-]+(:\d+)?$/.test(o)),
    "MAP_ORIGINS: origins such as https://tiles.example.com",
  ),
  CHAT_STEP_LIMIT: z.coerce.number().int().min(1).max(20).default(5),
  /** Chat requests a user may start per minute, and replies a user may have streaming at once (every process together). */
  CHAT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  CHAT_STREAMS_PER_USER: z.coerce.number().int().min(1).default(3),
  /** Chat requests per minute from one client address, whoever signs them (share-link visitors, many accounts). */
  CHAT_PER_MINUTE_PER_IP: z.coerce.number().int().min(1).default(120),
  /** A model stream that sends nothing for this long is ended as failed. */
  CHAT_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  /**
   * A reply outlives its asker's connection (a reload, a dropped network reads it on); one that nobody reads
   * anywhere for this long is stopped, and saved as stopped with what it wrote.
   */
  CHAT_UNREAD_STOP_MS: z.coerce.number().int().min(100).default(120_000),
  // tools: plugin calls and the code sandboxes
  /** Wall-clock limit of one plugin call (HTTP, code, MCP). */
  PLUGIN_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
  /** Largest plugin answer read; longer answers are cut off. */
  PLUGIN_RESPONSE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(50 * 1024 * 1024)
    .default(1024 * 1024),
  /** Memory of one sandboxed call (QuickJS limit; the Python heap is 4× this). */
  SANDBOX_MEMORY_MB: z.coerce.number().int().min(8).max(1024).default(64),
  SANDBOX_JS_WORKERS: z.coerce.number().int().min(1).max(64).default(2),
  SANDBOX_PY_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
  /** Workflows: branches of one run (or one loop pass) that run at once. */
  WORKFLOW_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** Workflows: node executions of one run (loop passes count each node). */
  WORKFLOW_MAX_STEPS: z.coerce.number().int().min(10).max(100_000).default(1000),
  /** Workflows: wall-clock limit of one execution of a run (a resume starts a new one). */
  WORKFLOW_MAX_RUN_MS: z.coerce.number().int().min(1000).max(86_400_000).default(600_000),
  /** stdio MCP servers administrators may start: `name=command arg arg;name=command ...` (fixed arguments). */
  MCP_STDIO_COMMANDS: z.string().default(""),
});

export type Config = z.infer<typeof schema> & { dataDir: string };

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) };
}

/**
 * RECORD_FILING: record-filing numbers by site origin, "origin=text" separated by ";".
 * Three variants by default, chosen by the page's origin on the web.
 */
export function recordFilingVariants(config: Config) {
  const raw = config.RECORD_FILING || "agentfair.cn=京ICP备2024000001号-1;agentfair.com.cn=京ICP备2024000001号-2;*=京ICP备2024000001号-3";
  return raw
    .split(";")
    .map((pair) => pair.split("="))
    .filter((p) => p.length === 2)
    .map(([origin, text]) => ({ origin: origin.trim(), text: text.trim() }));
}
