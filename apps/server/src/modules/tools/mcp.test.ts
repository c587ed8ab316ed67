import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";

// The reference MCP server, started on loopback by this test on free ports.
const EVERYTHING = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist/index.js",
);
let STREAMABLE_PORT = 0;
let SSE_PORT = 0;
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = http.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
const servers: ChildProcess[] = [];
let t: TestApp;
let inner: http.Server;
let innerPort: number;
let user: TestUser;
let admin: TestUser;

async function startEverything(mode: string, port: number) {
  const child = spawn(process.execPath, [EVERYTHING, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  servers.push(child);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${mode} server did not start`)), 30_000);
    child.stderr?.on("data", (d: Buffer) => {
      if (/running on port|listening on port/i.test(d.toString())) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on("exit", (code) => reject(new Error(`${mode} server exited ${code}`)));
  });
}

beforeAll(async () => {
  [STREAMABLE_PORT, SSE_PORT] = [await freePort(), await freePort()];
  await Promise.all([startEverything("streamableHttp", STREAMABLE_PORT), startEverything("sse", SSE_PORT)]);
  inner = await new Promise<http.Server>((resolve) => {
    const s = http.createServer((_req, res) => res.end("inner secret"));
    s.listen(0, "127.0.0.1", () => resolve(s));
  });
  innerPort = (inner.address() as AddressInfo).port;
  t = await createTestApp({
    ADMIN_USERNAMES: "boss",
    // Loopback is allowed for the two test servers only.
    NET_ALLOW_HOSTS: `127.0.0.1:${STREAMABLE_PORT},127.0.0.1:${SSE_PORT}`,
    MCP_STDIO_COMMANDS: `everything=${process.execPath} ${EVERYTHING} stdio`,
  });
  user = await createUser(t);
  admin = await createUser(t, { username: "boss" });
}, 60_000);
afterAll(async () => {
  await t.close();
  inner.close();
  for (const s of servers) s.kill();
});

const post = async (who: TestUser, url: string, payload: unknown) =>
  (
    await t.app.inject({
      method: "POST",
      url: `/aiagent_api${url}`,
      headers: { ...who.headers, "accept-language": "en" },
      payload: payload as object,
    })
  ).json();

describe("MCP servers", () => {
  it("lists a streamable HTTP server's tools into MCP plugins and calls them", async () => {
    const r = await post(user, "/plugin/mcp", { serverUrl: `http://127.0.0.1:${STREAMABLE_PORT}/mcp`, pluginTags: ["工具箱"] });
    expect(r.code, JSON.stringify(r)).toBe(200);
    expect(r.data.ids.length).toBeGreaterThan(3);
    const page = await post(user, "/plugin/page", { pluginTypes: 3 });
    const echo = page.data.content.find((p: { pluginName: string }) => p.pluginName === "echo");
    expect(echo).toMatchObject({ pluginType: "MCP", pluginCallableName: "echo", editable: false, pluginTags: ["工具箱"] });
    expect(echo.mcp.inputSchema).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
    const run = await post(user, `/plugin/${echo.id}/test`, { params: { message: "你好 MCP" } });
    expect(run.data).toMatchObject({ ok: true, error: null });
    expect(JSON.stringify(run.data.result)).toContain("你好 MCP");
    const put = await t.app.inject({
      method: "PUT",
      url: `/aiagent_api/plugin/${echo.id}`,
      headers: { ...user.headers, "accept-language": "en" },
      payload: {},
    });
    expect(put.json().msg).toBe("MCP and built-in plugins cannot be modified");
  }, 60_000);

  it("falls back to SSE for an older server", async () => {
    const r = await post(user, "/plugin/mcp", { serverUrl: `http://127.0.0.1:${SSE_PORT}/sse` });
    expect(r.code, JSON.stringify(r)).toBe(200);
    const page = await post(user, "/plugin/page", { pluginTypes: 3, pluginName: "echo" });
    const sse = page.data.content.find((p: { mcp: { serverUrl: string } }) => p.mcp.serverUrl.endsWith("/sse"));
    const run = await post(user, `/plugin/${sse.id}/test`, { params: { message: "over sse" } });
    expect(JSON.stringify(run.data.result)).toContain("over sse");
  }, 60_000);

  it("refuses MCP URLs at private addresses, at save and at connect", async () => {
    for (const serverUrl of [
      `http://127.0.0.1:${innerPort}/mcp`,
      `http://localhost:${STREAMABLE_PORT}/mcp`,
      "http://[::1]/mcp",
      "http://169.254.169.254/",
      "file:///etc/passwd",
    ]) {
      const r = await post(user, "/plugin/mcp", { serverUrl });
      expect(r.code, serverUrl).toBe(400);
      expect(JSON.stringify(r)).not.toContain("inner secret");
    }
    // A stored MCP plugin whose server is not allowed (e.g. the allow-list changed) is refused when it connects.
    const page = await post(user, "/plugin/page", { pluginTypes: 3, pluginName: "echo" });
    const echo = page.data.content[0];
    const { plugins } = await import("../../db/schema/index.ts");
    const { eq } = await import("drizzle-orm");
    const [row] = await t.platform.db.select().from(plugins).where(eq(plugins.id, echo.id));
    const definition = { ...row.definition, mcp: { serverUrl: `http://127.0.0.1:${innerPort}/mcp`, toolName: "echo" } };
    await t.platform.db.update(plugins).set({ definition }).where(eq(plugins.id, echo.id));
    const run = await post(user, `/plugin/${echo.id}/test`, { params: { message: "x" } });
    expect(run.data.ok).toBe(false);
    expect(run.data.error).toMatch(/refused|blocked/);
  }, 60_000);

  it("starts stdio servers only for administrators, only from their list", async () => {
    expect((await post(user, "/plugin/mcp", { serverUrl: "stdio:everything" })).msg).toBe(
      "this command is not on the administrators' list of MCP commands",
    );
    expect((await post(admin, "/plugin/mcp", { serverUrl: "stdio:npx -c id" })).code).toBe(400);
    expect((await post(admin, "/plugin/mcp", { serverUrl: "stdio:other" })).code).toBe(400);
    const r = await post(admin, "/plugin/mcp", { serverUrl: "stdio:everything" });
    expect(r.code, JSON.stringify(r)).toBe(200);
    expect(r.data.ids.length).toBeGreaterThan(3);
  }, 60_000);
});
