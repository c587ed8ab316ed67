import { type ChildProcess, fork, spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import S3rver from "s3rver";
import { buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import type { TestApp } from "./harness.ts";
import { defaultScript, FOLLOW_UP_MARKER, type LlmScript, type LlmServer } from "./llm-server.ts";

/**
 * A real cluster on loopback: Debian nginx (with deploy/nginx.conf's proxy settings) in front of
 * platform processes (cluster-node.ts, each its own Node process) sharing one throwaway PostgreSQL
 * database and one S3 store (s3rver). The parent also gets `admin`, an app on the same database
 * that never listens, for factories and direct reads.
 */
export interface Cluster {
  /** The balancer's address. */
  url: string;
  /** Each process's own address, to force a call onto one of them. */
  upstreams: string[];
  nodes: ClusterNode[];
  databaseUrl: string;
  admin: TestApp;
  /** Starts one more process on the same database and store (not behind nginx). */
  addNode(env?: Record<string, string>): Promise<ClusterNode>;
  close(): Promise<void>;
}

export interface ClusterNode {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Queues a probe job from this process; resolves with its pg-boss id. */
  sendProbe(data: { key: string; sleepMs?: number }): Promise<string>;
  /** RSS, CPU time, and event-loop delay (p99, max) since the last call. */
  stats(): Promise<NodeStats>;
  /** Memory after a full collection; with `snapshot`, also writes a heap snapshot to that file. */
  memory(snapshot?: string): Promise<NodeJS.MemoryUsage>;
}

export interface NodeStats {
  rss: number;
  /** CPU time (user and system) since the process started. */
  cpuMs: number;
  lagP99Ms: number;
  lagMaxMs: number;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
export const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

/** Why a cluster cannot start here (no PostgreSQL, no nginx), or null. */
export async function clusterUnavailable(): Promise<string | null> {
  if (!process.env.TEST_DATABASE_URL)
    return "cluster tests need PostgreSQL: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)";
  if (spawnSync(NGINX, ["-v"]).status !== 0) return `cluster tests need nginx (${NGINX}): apt-get install nginx`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
    await admin.end();
  } catch (err) {
    return `cluster tests need PostgreSQL at TEST_DATABASE_URL: ${(err as Error).message}`;
  }
  return null;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });

/** deploy/nginx.conf's proxy settings, with these upstreams and on this loopback port. */
async function nginxConfig(dir: string, port: number, upstreams: string[]) {
  const deploy = await fs.readFile(path.join(root, "deploy/nginx.conf"), "utf8");
  const servers = upstreams.map((u) => `    server ${new URL(u).host} max_fails=3 fail_timeout=10s;`).join("\n");
  const site = deploy
    .replace(/upstream agentfair \{[^}]*\}/, `upstream agentfair {\n${servers}\n    keepalive 32;\n}`)
    .replace(/listen 80;/, `listen 127.0.0.1:${port};`);
  const user = process.getuid?.() === 0 ? "user root;\n" : "";
  return `${user}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${site}
}
`;
}

async function waitForPort(port: number, timeoutMs = 5000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, "127.0.0.1", () => {
        s.end();
        resolve(true);
      });
      s.on("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nothing listens on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startCluster(opts: { processes?: number; env?: Record<string, string> } = {}): Promise<Cluster> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("a cluster needs TEST_DATABASE_URL");
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "agentfair-cluster-"));
  const cleanups: (() => Promise<unknown>)[] = [() => fs.rm(dir, { recursive: true, force: true })];
  const close = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  };
  try {
    // The database: created and migrated once here, so the processes do not race the migrations.
    const name = `agentfair_cluster_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
    const a = new pg.Client({ connectionString: adminUrl });
    await a.connect();
    await a.query(`CREATE DATABASE ${name}`);
    await a.end();
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    });
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const databaseUrl = url.toString();

    const s3dir = path.join(dir, "s3");
    await fs.mkdir(s3dir);
    const s3 = new S3rver({
      address: "127.0.0.1",
      port: 0,
      silent: true,
      directory: s3dir,
      configureBuckets: [{ name: "agentfair", configs: [] }],
    });
    const s3port = (await s3.run()).port;
    cleanups.push(() => s3.close());

    const env: Record<string, string> = {
      DATABASE_URL: databaseUrl,
      SECRET_KEY: "cluster-test-secret-key-0123456789abcdef",
      CAPTCHA: "off",
      LOG_LEVEL: "silent",
      SEED_DEMO: "0",
      S3_BUCKET: "agentfair",
      S3_ENDPOINT: `http://127.0.0.1:${s3port}`,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      ...opts.env,
    };
    // Migrated here, before any process starts, so that they do not race the migrations.
    const database = await openDatabase({ url: databaseUrl });
    cleanups.push(() => database.close());
    await database.executeSql(
      "CREATE TABLE cluster_probe (key text NOT NULL, job_id text NOT NULL, pid int NOT NULL, phase text NOT NULL, at timestamptz NOT NULL DEFAULT now())",
      [],
    );
    const adminApp = (async (): Promise<TestApp> => {
      const built = await buildApp(loadConfig({ ...env, DATA_DIR: path.join(dir, "admin") }), database);
      cleanups.push(() => built.app.close());
      await built.services.tenants.ensureDefault();
      await built.app.ready();
      // Closed with the cluster.
      return { ...built, databaseUrl, close: async () => {} };
    })();

    const nodes: ClusterNode[] = [];
    const addNode = async (extra: Record<string, string> = {}) => {
      const child = fork(path.join(root, "apps/server/src/test/cluster-node.ts"), {
        cwd: root,
        // CLUSTER_PROFILE=<dir>: a CPU profile of each process, written when it exits (bench:load).
        execArgv: [
          "--import",
          "tsx",
          // For memory(): measured after a full collection.
          "--expose-gc",
          ...(process.env.CLUSTER_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.CLUSTER_PROFILE}`] : []),
        ],
        env: { ...process.env, NODE_NO_WARNINGS: "1", ...env, DATA_DIR: path.join(dir, `node-${nodes.length}`), PORT: "0", ...extra },
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      });
      cleanups.push(async () => {
        if (child.exitCode !== null || child.signalCode) return;
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      });
      const pending = new Map<number, (answer: never) => void>();
      let nextId = 0;
      const ready = await new Promise<{ port: number; pid: number }>((resolve, reject) => {
        child.on("message", (m: { type: string; port: number; pid: number; id: number; jobId: string }) => {
          if (m.type === "ready") resolve(m);
          if (m.type === "sent") pending.get(m.id)?.(m.jobId as never);
          if (m.type === "stats" || m.type === "memory") pending.get(m.id)?.(m as never);
          pending.delete(m.id);
        });
        child.once("exit", (code) => reject(new Error(`a cluster process exited at start (${code})`)));
      });
      const node: ClusterNode = {
        url: `http://127.0.0.1:${ready.port}`,
        pid: ready.pid,
        child,
        sendProbe: (data) =>
          new Promise((resolve) => {
            const id = nextId++;
            pending.set(id, resolve);
            child.send({ type: "send", id, data });
          }),
        stats: () =>
          new Promise((resolve) => {
            const id = nextId++;
            pending.set(id, resolve);
            child.send({ type: "stats", id });
          }),
        memory: (snapshot) =>
          new Promise((resolve) => {
            const id = nextId++;
            pending.set(id, resolve);
            child.send({ type: "memory", id, path: snapshot });
          }),
      };
      nodes.push(node);
      return node;
    };
    const starting = Array.from({ length: opts.processes ?? 2 }, () => addNode());
    const settled = await Promise.allSettled([adminApp, ...starting]);
    const failure = settled.find((r) => r.status === "rejected");
    if (failure) throw failure.reason;
    const admin = await adminApp;
    const upstreams = nodes.map((n) => n.url);

    const balancer = await startBalancer(dir, upstreams);
    cleanups.push(balancer.close);
    return { url: balancer.url, upstreams, nodes, databaseUrl, admin, addNode, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Debian nginx with deploy/nginx.conf's proxy settings in front of these upstreams, its files in `dir`. */
export async function startBalancer(dir: string, upstreams: string[]) {
  const port = await freePort();
  await fs.writeFile(path.join(dir, "nginx.conf"), await nginxConfig(dir, port, upstreams));
  const nginx = spawn(NGINX, ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-g", "daemon off;"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const close = async () => {
    if (nginx.exitCode !== null) return;
    const exited = new Promise((r) => nginx.once("exit", r));
    nginx.kill("SIGQUIT");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
    if (nginx.exitCode === null) nginx.kill("SIGKILL");
  };
  try {
    await waitForPort(port);
  } catch (err) {
    await close();
    throw err;
  }
  return { url: `http://127.0.0.1:${port}`, pid: nginx.pid, close };
}

/**
 * Makes the test model answer every chat with these chunks (follow-up suggestions as usual), for
 * the next `count` requests.
 */
export function slowAnswers(llm: LlmServer, answer: LlmScript, count = 10_000) {
  const script = (body: Record<string, unknown>): LlmScript =>
    JSON.stringify(body.messages ?? "").includes(FOLLOW_UP_MARKER) ? defaultScript(body) : answer;
  for (let i = 0; i < count; i += 1000) llm.script(...Array.from({ length: Math.min(1000, count - i) }, () => script));
}
