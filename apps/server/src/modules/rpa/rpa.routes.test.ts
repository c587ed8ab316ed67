import http from "node:http";
import net from "node:net";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { chatSessions, rpaRobots, rpaTickets } from "../../db/schema/index.ts";
import { createTenant, createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";
import { vncAuthResponse } from "./vnc-bridge.ts";

/**
 * Robots, tickets, the VNC bridge and signed streams. The VNC server is a small RFB 3.8 server
 * with VNC authentication written here: it checks the bridge's answer to its challenge and keeps
 * every byte the bridge passes on after the handshake.
 */
const R = "/agent_api/api/rpa";
const VNC_PASSWORD = "s3cret!x";
let t: TestApp;
let base: string;
let origin: string;
let boss: TestUser;
let member: TestUser;
let other: TestUser;
let acmeAdmin: TestUser;
let acmeUser: TestUser;
let vnc: { port: number; connections: number; received: Buffer[]; authOk: boolean[]; close(): void };
let flv: http.Server;
let flvUrl: string;
let robotId: string;
let llm: LlmServer;

function fakeVnc(): Promise<typeof vnc> {
  const state = { connections: 0, received: [] as Buffer[], authOk: [] as boolean[] };
  const server = net.createServer((sock) => {
    state.connections++;
    const challenge = randomBytes(16);
    let stage = 0;
    let buf = Buffer.alloc(0);
    sock.write("RFB 003.008\n");
    sock.on("error", () => {});
    sock.on("data", (d) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        if (stage === 0 && buf.length >= 12) {
          buf = buf.subarray(12);
          sock.write(Buffer.from([1, 2]));
          stage = 1;
        } else if (stage === 1 && buf.length >= 1) {
          buf = buf.subarray(1);
          sock.write(challenge);
          stage = 2;
        } else if (stage === 2 && buf.length >= 16) {
          const good = buf.subarray(0, 16).equals(vncAuthResponse(VNC_PASSWORD, challenge));
          state.authOk.push(good);
          buf = buf.subarray(16);
          sock.write(Buffer.from([0, 0, 0, good ? 0 : 1]));
          if (!good) return sock.end();
          stage = 3;
        } else if (stage === 3 && buf.length >= 1) {
          buf = buf.subarray(1);
          const init = Buffer.alloc(24 + 4);
          init.writeUInt16BE(64, 0);
          init.writeUInt16BE(48, 2);
          init[4] = 32;
          init[5] = 24;
          init.writeUInt32BE(4, 20);
          init.write("demo", 24);
          sock.write(init);
          stage = 4;
        } else if (stage === 4 && buf.length) {
          state.received.push(Buffer.from(buf));
          buf = Buffer.alloc(0);
        } else break;
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(
        Object.assign(state, {
          port: (server.address() as net.AddressInfo).port,
          close: () => server.close(),
        }) as typeof vnc,
      ),
    ),
  );
}

const call = (u: TestUser | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: u?.headers ?? {}, ...(payload === undefined ? {} : { payload: payload as object }) });

const robotBody = (over: Record<string, unknown> = {}) => ({
  robotName: "Demo robot",
  robotType: "desktop",
  vncHost: "127.0.0.1",
  vncPort: vnc.port,
  vncPassword: VNC_PASSWORD,
  streamUrl: flvUrl,
  livePolicy: 0,
  ...over,
});

async function ticketOf(u: TestUser, id = robotId) {
  const res = await call(u, "POST", `${R}/robots/${id}/ticket`);
  expect(res.statusCode).toBe(200);
  return res.json().data.url as string;
}

/** Opens the bridge; resolves with the socket once open, or the HTTP status of a refusal. */
function openWs(path: string, wsOrigin = origin): Promise<{ ws?: WebSocket; status?: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${base.replace("http", "ws")}${path}`, { headers: { origin: wsOrigin } });
    ws.binaryType = "nodebuffer";
    ws.on("open", () => resolve({ ws }));
    ws.on("unexpected-response", (_req, res) => resolve({ status: res.statusCode }));
    ws.on("error", () => resolve({ status: -1 }));
  });
}

/** The browser's side of the handshake: RFB 3.8, security None, ClientInit; resolves with ServerInit. */
function viewerHandshake(ws: WebSocket): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    let stage = 0;
    ws.on("close", () => reject(new Error("closed")));
    ws.on("message", (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      if (stage === 0 && buf.length >= 12) {
        expect(buf.subarray(0, 12).toString()).toBe("RFB 003.008\n");
        buf = buf.subarray(12);
        ws.send(Buffer.from("RFB 003.008\n"));
        stage = 1;
      }
      if (stage === 1 && buf.length >= 2) {
        expect([...buf.subarray(0, 2)]).toEqual([1, 1]);
        buf = buf.subarray(2);
        ws.send(Buffer.from([1]));
        stage = 2;
      }
      if (stage === 2 && buf.length >= 4) {
        expect(buf.readUInt32BE(0)).toBe(0);
        buf = buf.subarray(4);
        ws.send(Buffer.from([0]));
        stage = 3;
      }
      if (stage === 3 && buf.length >= 28) resolve(buf);
    });
  });
}

const waitFor = async (cond: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
};

beforeAll(async () => {
  vnc = await fakeVnc();
  flv = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "video/x-flv" });
    res.end(Buffer.from("FLV\x01\x05\x00\x00\x00\x09", "latin1"));
  });
  await new Promise<void>((r) => flv.listen(0, "127.0.0.1", r));
  flvUrl = `http://127.0.0.1:${(flv.address() as net.AddressInfo).port}/live/demo.flv`;
  llm = await startLlmServer();
  t = await createTestApp({ ADMIN_USERNAMES: "boss", MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model" });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`;
  origin = base;
  await createTenant(t, "acme");
  boss = await createUser(t, { username: "boss" });
  member = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  other = await createUser(t);
  acmeAdmin = await createUser(t, { domain: "acme", username: "ada" });
  acmeUser = await createUser(t, { domain: "acme" });
  expect(
    (await call(boss, "PUT", `/agent_api/api/admin/tenants/${acmeAdmin.tenantId}/role`, { username: "ada", role: "admin" })).statusCode,
  ).toBe(200);
  const created = await call(boss, "POST", `${R}/robots`, robotBody());
  expect(created.statusCode).toBe(200);
  robotId = created.json().data.id;
});

afterAll(async () => {
  await t.close();
  vnc.close();
  flv.close();
  await llm.close();
});

describe("robot management", () => {
  it("keeps the VNC password sealed and never returns it", async () => {
    const list = (await call(boss, "GET", `${R}/robots`)).json().data;
    expect(list[0]).toMatchObject({ robotName: "Demo robot", hasVncPassword: true });
    expect(JSON.stringify(list)).not.toContain(VNC_PASSWORD);
    const [row] = await t.platform.db.select().from(rpaRobots).where(eq(rpaRobots.id, robotId));
    expect(row.vncPasswordEnc).toBeTruthy();
    expect(row.vncPasswordEnc).not.toContain(VNC_PASSWORD);
  });

  it("refuses members and hides other tenants' robots from tenant administrators", async () => {
    expect((await call(member, "POST", `${R}/robots`, robotBody())).statusCode).toBe(401);
    expect((await call(member, "GET", `${R}/robots`)).statusCode).toBe(401);
    expect((await call(acmeAdmin, "GET", `${R}/robots`)).json().data).toEqual([]);
    expect((await call(acmeAdmin, "PUT", `${R}/robots/${robotId}`, robotBody({ vncHost: "10.0.0.9" }))).statusCode).toBe(404);
    expect((await call(acmeAdmin, "DELETE", `${R}/robots/${robotId}`)).statusCode).toBe(404);
    const bad = await call(boss, "POST", `${R}/robots`, robotBody({ vncHost: "a b", vncPort: 70000 }));
    expect(bad.statusCode).toBe(400);
  });
});

describe("VNC bridge", () => {
  it("authenticates on the server side, shows the browser security None, and passes no input on", async () => {
    const url = await ticketOf(member);
    expect(url).not.toContain(VNC_PASSWORD);
    const { ws } = await openWs(url);
    expect(ws).toBeTruthy();
    const init = await viewerHandshake(ws as WebSocket);
    expect(init.readUInt16BE(0)).toBe(64);
    expect(vnc.authOk.at(-1)).toBe(true);
    const before = vnc.received.length;
    const key = Buffer.from([4, 1, 0, 0, 0, 0, 0, 0x61]);
    const pointer = Buffer.from([5, 1, 0, 10, 0, 10]);
    const cut = Buffer.from([6, 0, 0, 0, 0, 0, 0, 3, 0x61, 0x62, 0x63]);
    const resize = Buffer.concat([Buffer.from([251, 0, 0, 64, 0, 48, 1, 0]), Buffer.alloc(16)]);
    const update = Buffer.from([3, 0, 0, 0, 0, 0, 0, 64, 0, 48]);
    const encodings = Buffer.from([2, 0, 0, 2, 0, 0, 0, 0, 0xff, 0xff, 0xfe, 0xc4]); // raw, extended mouse buttons
    (ws as WebSocket).send(Buffer.concat([key, pointer, cut.subarray(0, 5)]));
    (ws as WebSocket).send(Buffer.concat([cut.subarray(5), resize, update, encodings]));
    await waitFor(() => Buffer.concat(vnc.received.slice(before)).length >= 18);
    const got = Buffer.concat(vnc.received.slice(before));
    expect([...got]).toEqual([...update, 2, 0, 0, 1, 0, 0, 0, 0]);
    (ws as WebSocket).close();
  });

  it("connects only to the robot record's target, whatever the client asks", async () => {
    const n = vnc.connections;
    const url = await ticketOf(member);
    const { ws } = await openWs(`${url}&host=169.254.169.254&port=22&target=10.0.0.1:5900`);
    await viewerHandshake(ws as WebSocket);
    expect(vnc.connections).toBe(n + 1);
    (ws as WebSocket).close();
  });

  it("refuses a reused, an expired or an unknown ticket, and a foreign Origin", async () => {
    const url = await ticketOf(member);
    const first = await openWs(url);
    expect(first.ws).toBeTruthy();
    first.ws?.close();
    expect((await openWs(url)).status).toBe(401);
    const expired = await ticketOf(member);
    await t.platform.db.update(rpaTickets).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await openWs(expired)).status).toBe(401);
    expect((await openWs(`${R}/vnc?ticket=made-up`)).status).toBe(401);
    const foreign = await ticketOf(member);
    expect((await openWs(foreign, "https://evil.example")).status).toBe(403);
    // the refused ticket was not spent on the foreign page
    expect((await openWs(foreign)).ws).toBeTruthy();
  });

  it("refuses another tenant's robot, and a tenant administrator's robot on a private address", async () => {
    expect((await call(acmeUser, "POST", `${R}/robots/${robotId}/ticket`)).statusCode).toBe(404);
    const own = await call(acmeAdmin, "POST", `${R}/robots`, robotBody({ robotName: "Acme robot" }));
    expect(own.statusCode).toBe(200);
    const acmeRobot = own.json().data.id;
    expect((await call(member, "POST", `${R}/robots/${acmeRobot}/ticket`)).statusCode).toBe(404);
    const n = vnc.connections;
    const url = await ticketOf(acmeUser, acmeRobot);
    expect((await openWs(url)).status).toBe(502);
    expect(vnc.connections).toBe(n);
  });

  it("a ticket of a signed-out session opens nothing", async () => {
    const u = await createUser(t);
    const url = await ticketOf(u);
    expect((await call(u, "POST", "/agent_api/api/auth/logout")).statusCode).toBe(200);
    expect((await openWs(url)).status).toBe(401);
  });
});

describe("live list, streams and playInfo", () => {
  it("lists the tenant's streams with livePolicy not 1, as signed addresses", async () => {
    await call(boss, "POST", `${R}/robots`, robotBody({ robotName: "Hidden", livePolicy: 1 }));
    const page = (await call(member, "GET", `${R}/live/list?pageNo=1`)).json().data;
    expect(page.rows.map((r: { rpaRobot: { robotName: string } }) => r.rpaRobot.robotName)).toEqual(["Demo robot"]);
    expect(page.total).toBe(1);
    expect(page.rows[0].playInfo).toMatch(/^\/agent_api\/api\/rpa\/stream\/.+\.flv\?exp=\d+&sig=/);
    expect(JSON.stringify(page)).not.toContain(flvUrl);
    expect(
      (await call(acmeUser, "GET", `${R}/live/list`))
        .json()
        .data.rows.map((r: { rpaRobot: { robotName: string } }) => r.rpaRobot.robotName),
    ).toEqual(["Acme robot"]);
    expect((await call(null, "GET", `${R}/live/list`)).statusCode).toBe(403);
  });

  it("proxies the stream for a valid signature only", async () => {
    const { playInfo } = (await call(member, "GET", `${R}/live/list`)).json().data.rows[0];
    const res = await t.app.inject({ method: "GET", url: playInfo });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 3).toString()).toBe("FLV");
    expect((await t.app.inject({ method: "GET", url: playInfo.replace(/sig=./, "sig=A") })).statusCode).toBe(404);
    const old = playInfo.replace(/exp=\d+/, "exp=1000");
    expect((await t.app.inject({ method: "GET", url: old })).statusCode).toBe(404);
  });

  it("attaches a robot task to the caller's own session and answers its playInfo", async () => {
    const [session] = await t.platform.db
      .insert(chatSessions)
      .values({ userId: member.id, tenantId: member.tenantId, agentId: "a1", title: "t" })
      .returning();
    expect((await call(member, "GET", `/agent/agent_runtime/rpa/play_info?session_id=${session.id}`)).json().data).toBeNull();
    expect((await call(other, "POST", `${R}/tasks`, { sessionId: session.id, robotId, playContainer: "remote" })).statusCode).toBe(404);
    const res = await call(member, "POST", `${R}/tasks`, { sessionId: session.id, robotId, playContainer: "remote" });
    expect(res.statusCode).toBe(200);
    const info = (await call(member, "GET", `/agent/agent_runtime/rpa/play_info?session_id=${session.id}`)).json().data;
    expect(info).toMatchObject({ playContainer: "remote", playControls: true, rpaRobot: { robotName: "Demo robot" } });
    expect((await call(other, "GET", `/agent/agent_runtime/rpa/play_info?session_id=${session.id}`)).json().data).toBeNull();
    const iframe = await call(member, "POST", `${R}/tasks`, {
      sessionId: session.id,
      robotId,
      playContainer: "iframe",
      iframeUrl: "javascript:alert(1)",
    });
    expect(iframe.statusCode).toBe(400);
  });

  it("a chat tool starts a robot task and attaches its remote screen to the reply's session", async () => {
    const agent = await call(member, "POST", "/aiagent_api/agent/quick/add", { agentName: "RPA助手" });
    expect(agent.statusCode).toBe(200);
    const res = await t.app.inject({
      method: "POST",
      url: "/agent/agent_runtime/chat",
      payload: {
        token: member.token,
        schema_id: agent.json().data.agentId,
        release: false,
        query: '调用 rpa_start_task {"robotName":"Demo robot","view":"remote"}',
      },
    });
    const lines = res.payload
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.find((l) => l.type === "tool_call_end")).toMatchObject({ error: false });
    const info = (await call(member, "GET", `/agent/agent_runtime/rpa/play_info?session_id=${lines[0].session_id}`)).json().data;
    expect(info).toMatchObject({ playContainer: "remote", rpaRobot: { robotName: "Demo robot" } });
  });
});
