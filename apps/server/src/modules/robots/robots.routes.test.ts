import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { registerRequest } from "@agentfair/contracts";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agents, chatMessages, robotMessages, robotUsers, robots } from "../../db/schema/index.ts";
import { createDataTable, createUser, ORDER_FIELDS, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { defaultScript, type LlmServer, startLlmServer } from "../../test/llm-server.ts";
import { agentSteps } from "../agents/agents.fixtures.ts";
import {
  dingtalkSignature,
  feishuEncrypt,
  feishuSignature,
  webhookSignature,
  wecomEncrypt,
  wecomSignature,
  xmlField,
} from "./protocols.ts";

/**
 * Robots against one local server that plays WeCom, Feishu, DingTalk and a webhook receiver: it
 * hands out access tokens and records what the platform sends. Keys are generated per run.
 */
const M = "/aiagent_api/robots";
let t: TestApp;
let llm: LlmServer;
let alice: TestUser;
let bob: TestUser;
let agentId: string;
let base: string;
const sent: { path: string; body: Record<string, unknown>; headers: http.IncomingHttpHeaders }[] = [];
const tokenCalls: string[] = [];
let platformServer: http.Server;

const AES_KEY = randomBytes(32).toString("base64").slice(0, 43);
const CORP_ID = "ww1234567890abcdef";
const WECOM_TOKEN = "wecomtoken";
const FEISHU_ENCRYPT = "feishu-encrypt-key";
const FEISHU_VERIFY = "feishu-verify";
const DING_SECRET = "ding-app-secret";
const HOOK_SECRET = "hook-secret";

function startPlatform(): Promise<void> {
  platformServer = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      const reply = (body: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (url.pathname === "/cgi-bin/gettoken") {
        tokenCalls.push("wecom");
        if (url.searchParams.get("corpsecret") !== "corp-secret") return reply({ errcode: 40001, errmsg: "invalid credential" });
        return reply({ errcode: 0, access_token: "WECOM_TOKEN", expires_in: 7200 });
      }
      if (url.pathname === "/open-apis/auth/v3/tenant_access_token/internal") {
        tokenCalls.push("feishu");
        return reply({ code: 0, tenant_access_token: "FEISHU_TOKEN", expire: 7200 });
      }
      const body = raw ? JSON.parse(raw) : {};
      sent.push({ path: `${url.pathname}${url.search}`, body, headers: req.headers });
      if (url.pathname === "/cgi-bin/message/send")
        return reply(url.searchParams.get("access_token") === "WECOM_TOKEN" ? { errcode: 0 } : { errcode: 40014 });
      if (url.pathname.startsWith("/open-apis/im/v1/messages/"))
        return reply(req.headers.authorization === "Bearer FEISHU_TOKEN" ? { code: 0 } : { code: 99991663 });
      reply({ errcode: 0 });
    });
  });
  return new Promise((resolve) =>
    platformServer.listen(0, "127.0.0.1", () => {
      base = `http://127.0.0.1:${(platformServer.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

async function waitFor<T>(find: () => T | undefined | Promise<T | undefined>, ms = 8000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await find();
    if (v) return v;
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function createRobot(user: TestUser, payload: Record<string, unknown>) {
  const res = await t.app.inject({ method: "POST", url: M, headers: user.headers, payload: { agentId, enabled: true, ...payload } });
  return res;
}

/** Alice's webhook robot answering to `replyPath` on the local platform server. */
async function webhookRobot(name: string, replyPath: string, extra: Record<string, unknown> = {}) {
  const res = await createRobot(alice, {
    name,
    type: "webhook",
    settings: { replyUrl: `${base}${replyPath}` },
    secrets: { secret: HOOK_SECRET },
    ...extra,
  });
  return res.json().data.id as string;
}

/** A signed webhook callback, as the platform's user sends it. */
function hook(id: string, message: { messageId: string; userId: string; text: string }, headers: Record<string, string> = {}) {
  const body = JSON.stringify(message);
  const ts = String(Date.now());
  return t.app.inject({
    method: "POST",
    url: `${M}/callback/${id}`,
    headers: {
      "content-type": "application/json",
      "x-agentfair-timestamp": ts,
      "x-agentfair-signature": webhookSignature(HOOK_SECRET, ts, body),
      ...headers,
    },
    payload: body,
  });
}

beforeAll(async () => {
  llm = await startLlmServer();
  await startPlatform();
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k", NET_ALLOW_HOSTS: "127.0.0.1" });
  await t.platform.jobs.start({ pollingIntervalSeconds: 0.5 });
  alice = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  bob = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  const added = await t.app.inject({
    method: "POST",
    url: "/aiagent_api/agent/quick/add",
    headers: alice.headers,
    payload: { agentName: "客服" },
  });
  agentId = added.json().data.agentId;
  // A debug run first: an agent is released only after one succeeded.
  await t.app.inject({
    method: "POST",
    url: "/agent/agent_runtime/chat",
    payload: { token: alice.token, schema_id: agentId, release: false, query: "调试" },
  });
});
afterAll(async () => {
  await t.platform.jobs.stop();
  await t.close();
  await llm.close();
  platformServer.close();
});

describe("robot management", () => {
  it("needs a released agent and each platform's fields; secrets are never returned; others see nothing", async () => {
    const wecom = {
      name: "企业微信客服",
      type: "wecom",
      settings: { corpId: CORP_ID, appAgentId: "1000002", baseUrl: base },
      secrets: { corpSecret: "corp-secret", token: WECOM_TOKEN, encodingAesKey: AES_KEY },
    };
    const unreleased = await createRobot(alice, wecom);
    expect(unreleased.json().msg).toBe("智能体未发布");
    const released = await t.app.inject({
      method: "POST",
      url: `/aiagent_api/agent/release/${agentId}`,
      headers: alice.headers,
      payload: { notes: "" },
    });
    expect(released.statusCode).toBe(200);
    const missing = await createRobot(alice, { ...wecom, secrets: { corpSecret: "corp-secret" } });
    expect(missing.statusCode).toBe(400);
    const unknown = await createRobot(alice, { ...wecom, settings: { ...wecom.settings, evil: "x" } });
    expect(unknown.statusCode).toBe(400);
    const ok = await createRobot(alice, wecom);
    expect(ok.statusCode).toBe(200);
    const robot = ok.json().data;
    expect(robot.secretsSet.sort()).toEqual(["corpSecret", "encodingAesKey", "token"]);
    expect(JSON.stringify(robot)).not.toContain("corp-secret");
    expect(robot.callbackPath).toBe(`/aiagent_api/robots/callback/${robot.id}`);
    const [row] = await t.platform.db.select().from(robots).where(eq(robots.id, robot.id));
    expect(row.secretsEnc).not.toContain("corp-secret");
    // An empty secret on update keeps the stored one.
    const edited = await t.app.inject({
      method: "PUT",
      url: `${M}/${robot.id}`,
      headers: alice.headers,
      payload: { ...wecom, agentId, name: "改名", secrets: {} },
    });
    expect(edited.json().data.secretsSet).toHaveLength(3);
    expect((await t.app.inject({ url: M, headers: bob.headers })).json().data).toEqual([]);
    for (const res of [
      await t.app.inject({ method: "PUT", url: `${M}/${robot.id}`, headers: bob.headers, payload: { ...wecom, agentId } }),
      await t.app.inject({ method: "DELETE", url: `${M}/${robot.id}`, headers: bob.headers }),
      await t.app.inject({ method: "POST", url: `${M}/${robot.id}/enabled`, headers: bob.headers, payload: { enabled: false } }),
    ])
      expect(res.statusCode).toBe(404);
    // Bob cannot connect Alice's agent (not listed): not found.
    expect((await createRobot(bob, wecom)).statusCode).toBe(404);
    await t.app.inject({ method: "DELETE", url: `${M}/${robot.id}`, headers: alice.headers });
  });
});

describe("WeCom", () => {
  let id: string;
  const url = () => `${M}/callback/${id}`;
  const post = (xml: string, q: Record<string, string>) =>
    t.app.inject({ method: "POST", url: `${url()}?${new URLSearchParams(q)}`, headers: { "content-type": "text/xml" }, payload: xml });
  const signed = (encrypted: string, forge = false) => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = randomUUID().slice(0, 8);
    return { msg_signature: forge ? "0".repeat(40) : wecomSignature(WECOM_TOKEN, timestamp, nonce, encrypted), timestamp, nonce };
  };
  const message = (msgId: string, content: string, corp = CORP_ID) => {
    const inner = `<xml><ToUserName><![CDATA[${CORP_ID}]]></ToUserName><FromUserName><![CDATA[zhangsan]]></FromUserName><CreateTime>1700000000</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[${content}]]></Content><MsgId>${msgId}</MsgId><AgentID>1000002</AgentID></xml>`;
    const encrypted = wecomEncrypt(AES_KEY, corp, inner);
    return {
      encrypted,
      xml: `<xml><ToUserName><![CDATA[${CORP_ID}]]></ToUserName><AgentID><![CDATA[1000002]]></AgentID><Encrypt><![CDATA[${encrypted}]]></Encrypt></xml>`,
    };
  };

  beforeAll(async () => {
    const res = await createRobot(alice, {
      name: "企业微信",
      type: "wecom",
      settings: { corpId: CORP_ID, appAgentId: "1000002", baseUrl: base },
      secrets: { corpSecret: "corp-secret", token: WECOM_TOKEN, encodingAesKey: AES_KEY },
    });
    id = res.json().data.id;
  });

  it("reads an unsigned body in time linear in its size: spaces after <Encrypt> are refused at once", async () => {
    // A regular expression took seconds for these 3,000 spaces, and the 256 KB allowed held the process for good.
    for (const xml of [`<xml><Encrypt>${" ".repeat(3000)}`, `<xml><Encrypt><![CDATA[${"]]".repeat(3000)}`]) {
      const started = Date.now();
      const res = await post(xml, signed("x"));
      expect(res.statusCode).toBe(401);
      expect(Date.now() - started).toBeLessThan(1000);
    }
    // Text and CDATA, with spaces around them, still read as before.
    expect(xmlField("<xml><A> <![CDATA[ a<b>]]> </A><B>plain </B></xml>", "A")).toBe(" a<b>");
    expect(xmlField("<xml><A> <![CDATA[x]]> </A><B>plain </B></xml>", "B")).toBe("plain ");
    expect(xmlField("<xml><B>x<i/></B></xml>", "B")).toBeUndefined();
  });

  it("verifies the callback URL: the echostr decrypted under a valid signature, refused otherwise", async () => {
    const echostr = wecomEncrypt(AES_KEY, CORP_ID, "echo-12345");
    const good = await t.app.inject({ url: `${url()}?${new URLSearchParams({ ...signed(echostr), echostr })}` });
    expect(good.statusCode).toBe(200);
    expect(good.payload).toBe("echo-12345");
    const forged = await t.app.inject({ url: `${url()}?${new URLSearchParams({ ...signed(echostr, true), echostr })}` });
    expect(forged.statusCode).toBe(401);
    const otherCorp = wecomEncrypt(AES_KEY, "wwOTHER", "echo");
    const wrong = await t.app.inject({ url: `${url()}?${new URLSearchParams({ ...signed(otherCorp), echostr: otherCorp })}` });
    expect(wrong.statusCode).toBe(400);
  });

  it("answers a signed message through message/send once, however often the callback is retried; the token is cached", async () => {
    const m = message("msg-1", "你好企业微信");
    const q = signed(m.encrypted);
    const first = await post(m.xml, q);
    expect(first.statusCode).toBe(200);
    expect(first.payload).toBe("success");
    expect((await post(m.xml, q)).payload).toBe("success");
    const send = await waitFor(() => sent.find((s) => s.path.startsWith("/cgi-bin/message/send")));
    expect(send.path).toContain("access_token=WECOM_TOKEN");
    expect(send.body).toMatchObject({ touser: "zhangsan", msgtype: "text", agentid: 1000002 });
    expect((send.body.text as { content: string }).content).toContain("你好企业微信");
    const m2 = message("msg-2", "第二个问题");
    await post(m2.xml, signed(m2.encrypted));
    await waitFor(() => (sent.filter((s) => s.path.startsWith("/cgi-bin/message/send")).length === 2 ? true : undefined));
    expect(sent.filter((s) => s.path.startsWith("/cgi-bin/message/send"))).toHaveLength(2);
    expect(tokenCalls.filter((c) => c === "wecom")).toHaveLength(1);
    // Marked answered just after the send the platform saw.
    await expect
      .poll(async () => (await t.platform.db.select().from(robotMessages).where(eq(robotMessages.robotId, id))).map((r) => r.status))
      .toEqual(["answered", "answered"]);
    // The robot user got a guest account of the robot; the conversation continues in one session.
    const [mapping] = await t.platform.db.select().from(robotUsers).where(eq(robotUsers.robotId, id));
    expect(mapping.externalUserId).toBe("zhangsan");
    expect(mapping.sessionId).toBeTruthy();
  });

  it("refuses forged signatures, another corp's messages and a disabled robot", async () => {
    const m = message("msg-forged", "伪造");
    expect((await post(m.xml, signed(m.encrypted, true))).statusCode).toBe(401);
    const other = message("msg-other", "别的企业", "wwOTHER");
    expect((await post(other.xml, signed(other.encrypted))).statusCode).toBe(400);
    const garbage = "A".repeat(64);
    expect((await post(`<xml><Encrypt>${garbage}</Encrypt></xml>`, signed(garbage))).statusCode).toBe(400);
    await t.app.inject({ method: "POST", url: `${M}/${id}/enabled`, headers: alice.headers, payload: { enabled: false } });
    const m3 = message("msg-3", "关闭后");
    expect((await post(m3.xml, signed(m3.encrypted))).statusCode).toBe(404);
  });
});

describe("Feishu", () => {
  let id: string;
  const callback = (payload: unknown, opts: { forge?: boolean; encrypted?: boolean } = {}) => {
    const body = JSON.stringify({ encrypt: feishuEncrypt(FEISHU_ENCRYPT, JSON.stringify(payload)) });
    const ts = String(Math.floor(Date.now() / 1000));
    const nonce = randomUUID();
    return t.app.inject({
      method: "POST",
      url: `${M}/callback/${id}`,
      headers: {
        "content-type": "application/json",
        "x-lark-request-timestamp": ts,
        "x-lark-request-nonce": nonce,
        "x-lark-signature": opts.forge ? "f".repeat(64) : feishuSignature(ts, nonce, FEISHU_ENCRYPT, body),
      },
      payload: opts.encrypted === false ? JSON.stringify(payload) : body,
    });
  };
  const event = (messageId: string, text: string) => ({
    schema: "2.0",
    header: { event_id: `ev-${messageId}`, event_type: "im.message.receive_v1", token: FEISHU_VERIFY, app_id: "cli_x" },
    event: {
      sender: { sender_id: { open_id: "ou_lisi" } },
      message: { message_id: messageId, chat_id: "oc_1", message_type: "text", content: JSON.stringify({ text: `@_user_1 ${text}` }) },
    },
  });

  beforeAll(async () => {
    const res = await createRobot(alice, {
      name: "飞书",
      type: "feishu",
      settings: { appId: "cli_x", baseUrl: base },
      secrets: { appSecret: "app-secret", verificationToken: FEISHU_VERIFY, encryptKey: FEISHU_ENCRYPT },
    });
    id = res.json().data.id;
  });

  it("answers the url_verification challenge with the verification token only", async () => {
    const ok = await callback({ type: "url_verification", challenge: "ch-1", token: FEISHU_VERIFY });
    expect(ok.json()).toEqual({ challenge: "ch-1" });
    expect((await callback({ type: "url_verification", challenge: "ch-1", token: "wrong" })).statusCode).toBe(401);
  });

  it("replies to a signed, encrypted message once through the reply API; forged and plain ones are refused", async () => {
    expect((await callback(event("om_1", "飞书你好"))).statusCode).toBe(200);
    expect((await callback(event("om_1", "飞书你好"))).statusCode).toBe(200);
    const reply = await waitFor(() => sent.find((s) => s.path === "/open-apis/im/v1/messages/om_1/reply"));
    expect(reply.headers.authorization).toBe("Bearer FEISHU_TOKEN");
    expect(JSON.parse(reply.body.content as string).text).toContain("飞书你好");
    expect((await callback(event("om_2", "伪造"), { forge: true })).statusCode).toBe(401);
    expect((await callback(event("om_3", "明文"), { encrypted: false })).statusCode).toBe(401);
    // The retried callback queued nothing: one recorded message, one reply.
    expect(await t.platform.db.select().from(robotMessages).where(eq(robotMessages.robotId, id))).toHaveLength(1);
    expect(sent.filter((s) => s.path.includes("/open-apis/im/v1/messages/"))).toHaveLength(1);
  });
});

describe("DingTalk and the generic webhook", () => {
  it("a DingTalk outgoing message with a valid sign is answered on its session webhook; forged, stale or foreign ones are refused", async () => {
    const id = (
      await createRobot(alice, { name: "钉钉", type: "dingtalk", settings: { baseUrl: base }, secrets: { appSecret: DING_SECRET } })
    ).json().data.id;
    const send = (body: Record<string, unknown>, ts = String(Date.now()), sign = dingtalkSignature(DING_SECRET, ts)) =>
      t.app.inject({
        method: "POST",
        url: `${M}/callback/${id}`,
        headers: { "content-type": "application/json", timestamp: ts, sign },
        payload: body,
      });
    const msg = {
      msgtype: "text",
      text: { content: " 钉钉你好 " },
      msgId: "ding-1",
      senderStaffId: "wangwu",
      senderNick: "王五",
      sessionWebhook: `${base}/robot/sendBySession?session=abc`,
    };
    expect((await send(msg)).json()).toEqual({ msgtype: "empty" });
    await send(msg);
    const reply = await waitFor(() => sent.find((s) => s.path.startsWith("/robot/sendBySession")));
    expect((reply.body.text as { content: string }).content).toContain("钉钉你好");
    expect((await send({ ...msg, msgId: "ding-2" }, String(Date.now()), "forged")).statusCode).toBe(401);
    const old = String(Date.now() - 2 * 60 * 60 * 1000);
    expect((await send({ ...msg, msgId: "ding-3" }, old)).statusCode).toBe(401);
    expect((await send({ ...msg, msgId: "ding-4", sessionWebhook: "http://127.0.0.2:1/steal" })).statusCode).toBe(400);
    expect(await t.platform.db.select().from(robotMessages).where(eq(robotMessages.robotId, id))).toHaveLength(1);
    expect(sent.filter((s) => s.path.startsWith("/robot/sendBySession"))).toHaveLength(1);
  });

  it("a webhook robot takes signed messages and posts signed answers to its reply URL", async () => {
    const id = await webhookRobot("网页钩子", "/hook/reply");
    const body = JSON.stringify({ messageId: "h-1", userId: "u-9", text: "钩子你好" });
    const ts = String(Date.now());
    const post = (sig: string) =>
      t.app.inject({
        method: "POST",
        url: `${M}/callback/${id}`,
        headers: { "content-type": "application/json", "x-agentfair-timestamp": ts, "x-agentfair-signature": sig },
        payload: body,
      });
    expect((await post("bad")).statusCode).toBe(401);
    expect((await post(webhookSignature(HOOK_SECRET, ts, body))).statusCode).toBe(200);
    const reply = await waitFor(() => sent.find((s) => s.path === "/hook/reply"));
    expect(reply.body).toMatchObject({ robotId: id, messageId: "h-1", userId: "u-9" });
    const raw = JSON.stringify(reply.body);
    const rts = String(reply.headers["x-agentfair-timestamp"]);
    expect(reply.headers["x-agentfair-signature"]).toBe(webhookSignature(HOOK_SECRET, rts, raw));

    // Bob binds his platform account with a one-time code; a second use of the code is refused.
    const code = (await t.app.inject({ method: "POST", url: `${M}/bind-code`, headers: bob.headers })).json().data.code;
    const say = async (messageId: string, userId: string, text: string) => {
      await hook(id, { messageId, userId, text });
      return waitFor(() => sent.find((s) => s.path === "/hook/reply" && s.body.messageId === messageId));
    };
    expect((await say("h-2", "u-9", `绑定 ${code}`)).body.text).toContain("绑定成功");
    const [mapping] = await t.platform.db.select().from(robotUsers).where(eq(robotUsers.robotId, id));
    expect(mapping.userId).toBe(bob.id);
    expect((await say("h-3", "u-10", `bind ${code}`)).body.text).toBe("绑定码无效或已过期");
  });

  it("an account named like a robot user's guest does not become that robot user: their conversation stays out of it", async () => {
    const id = await webhookRobot("隐私钩子", "/hook/privacy");
    // The guest name a robot user would have had, taken first by someone signing up (the sign-up form accepts it).
    const taken = `robot_${createHash("sha256").update(`${id}:victim-1`).digest("hex").slice(0, 20)}`;
    expect(registerRequest.shape.username.safeParse(taken).success).toBe(true);
    const mallory = await createUser(t, { username: taken, memberLevel: "PER_FLAGSHIP_MONTHLY" });
    await hook(id, { messageId: "p-1", userId: "victim-1", text: "我的体检报告说明了什么" });
    await waitFor(() => sent.find((s) => s.path === "/hook/privacy" && s.body.messageId === "p-1"));
    const [mapping] = await t.platform.db.select().from(robotUsers).where(eq(robotUsers.robotId, id));
    expect(mapping.userId).not.toBe(mallory.id);
    const sessions = await t.app.inject({
      method: "GET",
      url: "/agent/agent_runtime/session_list?page_number=1&page_size=100",
      headers: mallory.headers,
    });
    expect(sessions.json().data.list).toEqual([]);
  });

  it("migration 0038 drops mappings taken over before that fix, and keeps guests and bound accounts", async () => {
    const id = await webhookRobot("旧映射钩子", "/hook/old-mappings");
    const oldGuestName = (sender: string) => `robot_${createHash("sha256").update(`${id}:${sender}`).digest("hex").slice(0, 20)}`;
    const mallory = await createUser(t, { username: oldGuestName("victim-2") });
    const bound = await createUser(t);
    await hook(id, { messageId: "m-1", userId: "guest-2", text: "你好" });
    await waitFor(() => sent.find((s) => s.path === "/hook/old-mappings" && s.body.messageId === "m-1"));
    await t.platform.db.insert(robotUsers).values([
      { robotId: id, externalUserId: "victim-2", userId: mallory.id },
      { robotId: id, externalUserId: "bound-2", userId: bound.id },
    ]);
    const sqlText = fs.readFileSync(new URL("../../db/migrations/0038_robot-guest-takeover.sql", import.meta.url), "utf8");
    await t.platform.db.execute(sql.raw(sqlText));
    const left = await t.platform.db.select().from(robotUsers).where(eq(robotUsers.robotId, id));
    expect(left.map((m) => m.externalUserId).sort()).toEqual(["bound-2", "guest-2"]);
  });

  it("one robot user's messages take turns: answered in order, in one session, each seeing the ones before", async () => {
    const id = await webhookRobot("排队钩子", "/hook/turns");
    // Slow answers, so that three jobs at once would overlap if nothing made them take turns.
    const slow = (body: Record<string, unknown>) => {
      const script = defaultScript(body);
      return JSON.stringify(body.messages).includes("排队问题") ? { ...script, delayMs: 150 } : script;
    };
    llm.script(slow, slow, slow, slow, slow, slow);
    const from = llm.requests.length;
    for (const n of [1, 2, 3])
      expect((await hook(id, { messageId: `q-${n}`, userId: "u-new", text: `排队问题${n}` })).statusCode).toBe(200);
    await waitFor(() => (sent.filter((s) => s.path === "/hook/turns").length === 3 ? true : undefined), 20_000);
    expect(sent.filter((s) => s.path === "/hook/turns").map((s) => s.body.messageId)).toEqual(["q-1", "q-2", "q-3"]);
    // Each question's model call carries the questions before it: one conversation, not three.
    // (the streamed answers only: the follow-up questions are asked without streaming)
    const asked = llm.requests
      .slice(from)
      .filter((r) => r.body.stream === true)
      .map((r) =>
        (r.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === "user").map((m) => JSON.stringify(m.content)),
      )
      .filter((users) => users.some((u) => u.includes("排队问题")));
    expect(asked.map((users) => users.filter((u) => u.includes("排队问题")).length)).toEqual([1, 2, 3]);
    const users = await t.platform.db.select().from(robotUsers).where(eq(robotUsers.robotId, id));
    expect(users).toHaveLength(1);
    const questions = await t.platform.db
      .select({ content: chatMessages.content })
      .from(chatMessages)
      .where(and(eq(chatMessages.sessionId, users[0].sessionId ?? ""), eq(chatMessages.role, "user")));
    expect(questions.map((q) => q.content).sort()).toEqual(["排队问题1", "排队问题2", "排队问题3"]);
    // A message is marked answered once its answer is sent: the third's mark may follow its send.
    const statuses = async () =>
      (await t.platform.db.select().from(robotMessages).where(eq(robotMessages.robotId, id))).map((m) => m.status);
    await waitFor(async () => ((await statuses()).every((s) => s === "answered") ? true : undefined));
    expect(await statuses()).toEqual(["answered", "answered", "answered"]);
  });

  it("a callback retried after its message was recorded but never queued gets it answered, once", async () => {
    const id = await webhookRobot("重试钩子", "/hook/retried");
    // The first call recorded the message and then failed before queueing its job.
    await t.platform.db
      .insert(robotMessages)
      .values({ robotId: id, externalId: "x-1", externalUserId: "u-x", text: "丢了吗", replyTo: {} });
    for (let i = 0; i < 3; i++) await hook(id, { messageId: "x-1", userId: "u-x", text: "丢了吗" });
    await waitFor(() => sent.find((s) => s.path === "/hook/retried"));
    await new Promise((r) => setTimeout(r, 1500));
    expect(sent.filter((s) => s.path === "/hook/retried")).toHaveLength(1);
  });

  it("a report agent's answer is its finished report's findings and link, under the address the platform called", async () => {
    await createDataTable(t, alice, "orders", ORDER_FIELDS, [
      { customer: "张三", amount: 100 },
      { customer: "李四", amount: 300 },
    ]);
    const reportAgent = await agentSteps(t).released(alice, {}, "报告机器人助手");
    await t.platform.db.update(agents).set({ agentType: "insight" }).where(eq(agents.id, reportAgent));
    await t.platform.invalidate("agent", reportAgent);
    const id = await webhookRobot("报告钩子", "/hook/report", { agentId: reportAgent });
    await hook(id, { messageId: "r-1", userId: "u-r", text: "各客户的消费额是多少？" }, { host: "robots.example.com" });
    const reply = await waitFor(() => sent.find((s) => s.path === "/hook/report"), 30_000);
    expect(reply.body.text).toMatch(/^完整报告（图表与明细）：http:\/\/robots\.example\.com\/insight-detail\?share=/);
    expect(reply.body.text).toContain("数据显示");
  });

  it("an unknown robot id is not found", async () => {
    expect((await t.app.inject({ method: "POST", url: `${M}/callback/${randomUUID()}`, payload: "{}" })).statusCode).toBe(404);
    expect((await t.app.inject({ method: "POST", url: `${M}/callback/not-an-id`, payload: "{}" })).statusCode).toBe(404);
    // A robot whose keys were never entered (the demo's) answers nothing, even when enabled.
    const [keyless] = await t.platform.db
      .insert(robots)
      .values({
        tenantId: alice.tenantId,
        ownerId: alice.id,
        name: "无密钥",
        type: "webhook",
        agentId,
        settings: { replyUrl: `${base}/hook/reply` },
        secretsEnc: "",
      })
      .returning();
    const body = JSON.stringify({ messageId: "k-1", userId: "u", text: "hi" });
    const ts = String(Date.now());
    const res = await t.app.inject({
      method: "POST",
      url: `${M}/callback/${keyless.id}`,
      headers: { "content-type": "application/json", "x-agentfair-timestamp": ts, "x-agentfair-signature": webhookSignature("", ts, body) },
      payload: body,
    });
    expect(res.statusCode).toBe(404);
  });
});
