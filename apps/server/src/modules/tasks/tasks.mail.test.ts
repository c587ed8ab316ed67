import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import hoodiecrow from "hoodiecrow-imap";
import MailComposer from "nodemailer/lib/mail-composer/index.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { scheduledTasks, taskRuns } from "../../db/schema/index.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";
import { dingtalkSignature, webhookSignature } from "../robots/protocols.ts";

/**
 * E-mail-triggered tasks against a local IMAP server (hoodiecrow, in memory), and task results
 * delivered by chat robots to a local server that plays WeCom, Feishu, DingTalk and a webhook receiver.
 */
let t: TestApp;
let llm: LlmServer;
let alice: TestUser;
let bob: TestUser;
let agentId: string;
let imap: ReturnType<typeof hoodiecrow>;
let imapPort: number;
let platform: http.Server;
let base: string;
const sent: { path: string; body: Record<string, unknown>; headers: http.IncomingHttpHeaders }[] = [];
const HOOK_SECRET = "task-hook-secret";
const DING_SECRET = "task-ding-secret";
/** The Feishu tenant token the local server accepts now (it rotates to show a refused token is fetched again). */
let feishuToken = "FS_TOKEN_1";
const feishuTokenCalls: Record<string, unknown>[] = [];

const call = async (user: TestUser, method: "GET" | "POST" | "PUT", url: string, payload?: unknown) => {
  const res = await t.app.inject({ method, url: `/aiagent_api${url}`, payload: payload as never, headers: user.headers });
  // biome-ignore lint/suspicious/noExplicitAny: route answers of many shapes, checked by the assertions
  return { status: res.statusCode, ...(res.json() as { code: number; msg: string; data: any }) };
};

const mailTask = (over: Record<string, unknown> = {}) => ({
  name: "邮件助手",
  targetType: "agent",
  targetId: agentId,
  prompt: "请总结这封邮件",
  triggerType: "email",
  mailHost: "127.0.0.1",
  mailPort: imapPort,
  mailProtocol: "imap",
  mailAccount: "bot@example.com",
  mailPassword: "imap-pass",
  delivery: "in_app",
  ...over,
});

/** A mail as a mail client sends it (encoded headers, a transfer-encoded body). */
const mail = async (subject: string, text: string) =>
  (await new MailComposer({ from: "Carol <carol@example.com>", to: "bot@example.com", subject, text }).compile().build()).toString(
    "latin1",
  );

async function runsOf(user: TestUser, taskId: string) {
  return (await call(user, "GET", `/task/${taskId}/runs?pageNo=1`)).data.list as {
    id: string;
    status: string;
    input: string;
    output: string;
    trigger: string;
  }[];
}

beforeAll(async () => {
  llm = await startLlmServer();
  imap = hoodiecrow({
    users: { "bot@example.com": { password: "imap-pass" } },
    storage: { INBOX: { messages: [{ raw: await mail("旧邮件", "这封邮件在任务之前就在了"), uid: 1 }] } },
  });
  await new Promise<void>((r) => imap.listen(0, "127.0.0.1", r));
  imapPort = (imap.server.address() as AddressInfo).port;
  platform = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      const reply = (body: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (url.pathname === "/cgi-bin/gettoken") return reply({ errcode: 0, access_token: "WECOM_TOKEN", expires_in: 7200 });
      if (url.pathname === "/open-apis/auth/v3/tenant_access_token/internal") {
        const asked = JSON.parse(raw);
        feishuTokenCalls.push(asked);
        if (asked.app_id !== "cli_task" || asked.app_secret !== "fs-app-secret") return reply({ code: 10014, msg: "app secret invalid" });
        return reply({ code: 0, tenant_access_token: feishuToken, expire: 7200 });
      }
      // Feishu refuses a stale tenant token with 99991663 (as the real API does).
      if (url.pathname === "/open-apis/im/v1/messages" && req.headers.authorization !== `Bearer ${feishuToken}`)
        return reply({ code: 99991663, msg: "invalid access token" });
      sent.push({ path: url.pathname + url.search, body: raw ? JSON.parse(raw) : {}, headers: req.headers });
      reply({ errcode: 0 });
    });
  });
  await new Promise<void>((r) => platform.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`;
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k", NET_ALLOW_HOSTS: "127.0.0.1" });
  alice = await createUser(t, { domain: "mailacme", memberLevel: "PER_FLAGSHIP_MONTHLY" });
  bob = await createUser(t, { domain: "mailacme", memberLevel: "PER_FLAGSHIP_MONTHLY" });
  agentId = (await call(alice, "POST", "/agent/quick/add", { agentName: "邮件助手" })).data.agentId;
  await t.app.inject({
    method: "POST",
    url: "/agent/agent_runtime/chat",
    payload: { token: alice.token, schema_id: agentId, release: false, query: "调试" },
  });
  expect((await call(alice, "POST", `/agent/release/${agentId}`, { notes: "" })).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await t.close();
  await llm.close();
  imap.close();
  platform.close();
});

describe("e-mail-triggered tasks", () => {
  it("asks for the mailbox's fields and never returns its password", async () => {
    expect((await call(alice, "POST", "/task", mailTask({ mailHost: "" }))).msg).toBe("请输入服务器地址");
    expect((await call(alice, "POST", "/task", mailTask({ mailAccount: "" }))).msg).toBe("请输入邮箱账号");
    expect((await call(alice, "POST", "/task", mailTask({ mailPassword: "" }))).msg).toBe("请输入邮箱密码");
    const created = await call(alice, "POST", "/task", mailTask({ name: "密码检查" }));
    expect(created.data).toMatchObject({ triggerType: "email", mailPasswordSet: true, nextRunAt: null, mailProtocol: "imap" });
    expect(JSON.stringify(created.data)).not.toContain("imap-pass");
    const [row] = await t.platform.db.select().from(scheduledTasks).where(eq(scheduledTasks.id, created.data.id));
    expect(row.mailPasswordEnc).not.toContain("imap-pass");
    // An update with an empty password keeps the stored one.
    const updated = await call(alice, "PUT", `/task/${created.data.id}`, mailTask({ name: "密码检查", mailPassword: "" }));
    expect(updated.data.mailPasswordSet).toBe(true);
    await call(alice, "POST", `/task/${created.data.id}/pause`);
  });

  it("runs the agent once per new mail, with the mail as its input; mail already there does not count", async () => {
    const task = (await call(alice, "POST", "/task", mailTask())).data;
    // The first look only marks where the mailbox stands.
    expect(await t.services.tasks.pollMail()).toEqual([]);
    imap.appendMessage("INBOX", [], false, await mail("季度报告", "第三季度收入增长了百分之十二。"));
    imap.appendMessage("INBOX", [], false, await mail("会议通知", "周五下午三点开会。"));
    // Two processes looking at once: one of them takes the mails.
    const [a, b] = await Promise.all([t.services.tasks.pollMail(), t.services.tasks.pollMail()]);
    expect([...a, ...b]).toHaveLength(2);
    expect(await t.services.tasks.pollMail()).toEqual([]);
    const runs = await runsOf(alice, task.id);
    expect(runs.map((r) => r.trigger)).toEqual(["email", "email"]);
    expect(runs.map((r) => r.input).join("\n")).toContain("Subject: 季度报告");
    expect(runs.map((r) => r.input).join("\n")).not.toContain("旧邮件");
    const quarterly = runs.find((r) => r.input.includes("季度报告"))!;
    await t.services.tasks.execute(quarterly.id);
    const done = (await runsOf(alice, task.id)).find((r) => r.id === quarterly.id)!;
    expect(done.status).toBe("SUCCEEDED");
    // The test model echoes the question: the prompt and the mail were asked.
    expect(done.output).toContain("请总结这封邮件");
    expect(done.output).toContain("第三季度收入增长");
    // Bob sees none of it.
    expect((await call(bob, "GET", `/task/${task.id}/runs?pageNo=1`)).status).toBe(404);
    await call(alice, "POST", `/task/${task.id}/pause`);
  });

  it("records a mailbox that cannot be read: a wrong password, a private address", async () => {
    const wrong = (await call(alice, "POST", "/task", mailTask({ name: "错误密码", mailPassword: "nope" }))).data;
    const privateBox = (await call(alice, "POST", "/task", mailTask({ name: "内网邮箱", mailHost: "10.0.0.8", mailPort: 143 }))).data;
    expect(await t.services.tasks.pollMail()).toEqual([]);
    const list = (await call(alice, "POST", "/task/page", { pageNo: 1, pageSize: 50 })).data.list as {
      id: string;
      mailError: string | null;
    }[];
    expect(list.find((x) => x.id === wrong.id)?.mailError).toBeTruthy();
    expect(list.find((x) => x.id === privateBox.id)?.mailError).toMatch(/10\.0\.0\.8/);
    await call(alice, "POST", `/task/${wrong.id}/pause`);
    await call(alice, "POST", `/task/${privateBox.id}/pause`);
  });
});

describe("an owner with runs enough waiting", () => {
  it("leaves new mail in the mailbox until the runs are done", async () => {
    const carol = await createUser(t, { domain: "mailacme", memberLevel: "PER_FLAGSHIP_MONTHLY" });
    const target = (await call(carol, "POST", "/agent/quick/add", { agentName: "排队邮件助手" })).data.agentId;
    await t.app.inject({
      method: "POST",
      url: "/agent/agent_runtime/chat",
      payload: { token: carol.token, schema_id: target, release: false, query: "调试" },
    });
    await call(carol, "POST", `/agent/release/${target}`, { notes: "" });
    const task = (await call(carol, "POST", "/task", mailTask({ name: "排队邮件", targetId: target }))).data;
    expect(await t.services.tasks.pollMail()).toEqual([]);
    const waiting = Array.from({ length: 30 }, () => ({ taskId: task.id, trigger: "manual", status: "QUEUED", dueAt: new Date() }));
    const queued = await t.platform.db.insert(taskRuns).values(waiting).returning();
    imap.appendMessage("INBOX", [], false, await mail("排队", "这封要等一等。"));
    expect(await t.services.tasks.pollMail()).toEqual([]);
    await t.platform.db.update(taskRuns).set({ status: "SUCCEEDED" }).where(eq(taskRuns.id, queued[0].id));
    expect(await t.services.tasks.pollMail()).toHaveLength(1);
    await call(carol, "POST", `/task/${task.id}/pause`);
  });
});

describe("a mailbox that never finishes", () => {
  it("is given up after the look's time, and the other mailboxes are read meanwhile", async () => {
    // Greets, then answers every command with a line a second and never completes it: the socket never idles out.
    const trickles = new Set<NodeJS.Timeout>();
    const slow = net.createServer((sock) => {
      sock.on("error", () => {});
      sock.write("* OK IMAP4rev1 ready\r\n");
      sock.once("data", () => {
        const timer = setInterval(() => sock.write("* OK still working\r\n"), 200);
        trickles.add(timer);
        sock.on("close", () => clearInterval(timer));
      });
    });
    await new Promise<void>((r) => slow.listen(0, "127.0.0.1", r));
    t.services.tasks.mailLookTimeoutMs = 2000;
    try {
      const stuck = (await call(alice, "POST", "/task", mailTask({ name: "慢邮箱", mailPort: (slow.address() as AddressInfo).port }))).data;
      const good = (await call(alice, "POST", "/task", mailTask({ name: "好邮箱" }))).data;
      const started = Date.now();
      expect(await t.services.tasks.pollMail()).toEqual([]);
      imap.appendMessage("INBOX", [], false, await mail("新订单", "请确认订单。"));
      expect(await t.services.tasks.pollMail()).toHaveLength(1);
      expect(Date.now() - started).toBeLessThan(15_000);
      const [row] = await t.platform.db.select().from(scheduledTasks).where(eq(scheduledTasks.id, stuck.id));
      expect(row.mailError).toBe("邮箱服务器2秒内没有完成读取，下次再试");
      await call(alice, "POST", `/task/${stuck.id}/pause`);
      await call(alice, "POST", `/task/${good.id}/pause`);
    } finally {
      t.services.tasks.mailLookTimeoutMs = 60_000;
      for (const timer of trickles) clearInterval(timer);
      slow.close();
    }
  }, 30_000);
});

describe("task delivery by robot", () => {
  it("sends the result through the owner's WeCom robot and webhook robot; another user's robot cannot be chosen", async () => {
    const wecom = await call(alice, "POST", "/robots", {
      name: "任务企业微信",
      type: "wecom",
      agentId,
      settings: { corpId: "ww0000", appAgentId: "1000002", baseUrl: base },
      secrets: { corpSecret: "corp-secret", token: "tok", encodingAesKey: "a".repeat(43) },
    });
    const hook = await call(alice, "POST", "/robots", {
      name: "任务钩子",
      type: "webhook",
      agentId,
      settings: { replyUrl: `${base}/hook` },
      secrets: { secret: HOOK_SECRET },
    });
    expect((await call(alice, "GET", "/task/robots")).data.map((r: { id: string }) => r.id).sort()).toEqual(
      [wecom.data.id, hook.data.id].sort(),
    );
    const cron = { name: "机器人送达", targetType: "agent", targetId: agentId, prompt: "今日要点", triggerType: "cron", cron: "0 9 * * *" };
    expect((await call(alice, "POST", "/task", { ...cron, delivery: "robot" })).msg).toBe("请选择机器人");
    expect((await call(alice, "POST", "/task", { ...cron, delivery: "robot", robotId: wecom.data.id })).msg).toBe("请输入接收人");
    // Bob may not send through Alice's robot.
    expect((await call(bob, "GET", "/task/robots")).data).toEqual([]);
    const bobAgent = (await call(bob, "POST", "/agent/quick/add", { agentName: "鲍勃" })).data.agentId;
    expect((await call(bob, "POST", "/task", { ...cron, targetId: bobAgent, delivery: "robot", robotId: wecom.data.id })).status).toBe(400);

    const byWecom = (await call(alice, "POST", "/task", { ...cron, delivery: "robot", robotId: wecom.data.id, robotRecipient: "zhangsan" }))
      .data;
    expect(byWecom).toMatchObject({ delivery: "robot", robotName: "任务企业微信", robotRecipient: "zhangsan" });
    await t.services.tasks.execute((await call(alice, "POST", `/task/${byWecom.id}/run`)).data.id);
    const wecomSent = sent.find((s) => s.path.startsWith("/cgi-bin/message/send?"));
    expect(wecomSent?.body).toMatchObject({ touser: "zhangsan", msgtype: "text", agentid: 1000002 });
    expect(JSON.stringify(wecomSent?.body)).toContain("今日要点");

    const byHook = (await call(alice, "POST", "/task", { ...cron, name: "钩子送达", delivery: "robot", robotId: hook.data.id })).data;
    await t.services.tasks.execute((await call(alice, "POST", `/task/${byHook.id}/run`)).data.id);
    const hookSent = sent.find((s) => s.path === "/hook");
    expect(String(hookSent?.body.text)).toContain("今日要点");
    const ts = String(hookSent?.headers["x-agentfair-timestamp"]);
    expect(hookSent?.headers["x-agentfair-signature"]).toBe(webhookSignature(HOOK_SECRET, ts, JSON.stringify(hookSent?.body)));
  });
});

describe("task delivery by Feishu and DingTalk robots", () => {
  const cron = () => ({ targetType: "agent", targetId: agentId, prompt: "飞书要点", triggerType: "cron", cron: "0 9 * * *" });
  const notices = async () => (await call(alice, "GET", "/task/notices")).data.list as { kind: string; title: string; body: string }[];

  it("Feishu: a new message to a user (open_id) or a chat (chat_id) with the tenant token, fetched again when refused", async () => {
    const robot = (
      await call(alice, "POST", "/robots", {
        name: "任务飞书",
        type: "feishu",
        agentId,
        settings: { appId: "cli_task", baseUrl: base },
        secrets: { appSecret: "fs-app-secret", verificationToken: "fs-verify" },
      })
    ).data;
    expect((await call(alice, "POST", "/task", { ...cron(), name: "飞书送达", delivery: "robot", robotId: robot.id })).msg).toBe(
      "请输入接收人",
    );
    const toUser = (
      await call(alice, "POST", "/task", { ...cron(), name: "飞书送人", delivery: "robot", robotId: robot.id, robotRecipient: "ou_lisi" })
    ).data;
    await t.services.tasks.execute((await call(alice, "POST", `/task/${toUser.id}/run`)).data.id);
    const first = sent.find((s) => s.path === "/open-apis/im/v1/messages?receive_id_type=open_id");
    expect(first?.headers.authorization).toBe("Bearer FS_TOKEN_1");
    expect(first?.body).toMatchObject({ receive_id: "ou_lisi", msg_type: "text" });
    expect(JSON.parse(String(first?.body.content)).text).toContain("飞书要点");
    expect(feishuTokenCalls).toEqual([{ app_id: "cli_task", app_secret: "fs-app-secret" }]);

    // The platform moved to a new token: the cached one is refused, fetched again once, and the message goes out.
    feishuToken = "FS_TOKEN_2";
    const toChat = (
      await call(alice, "POST", "/task", { ...cron(), name: "飞书送群", delivery: "robot", robotId: robot.id, robotRecipient: "oc_group1" })
    ).data;
    await t.services.tasks.execute((await call(alice, "POST", `/task/${toChat.id}/run`)).data.id);
    const second = sent.find((s) => s.path === "/open-apis/im/v1/messages?receive_id_type=chat_id");
    expect(second?.headers.authorization).toBe("Bearer FS_TOKEN_2");
    expect(second?.body).toMatchObject({ receive_id: "oc_group1" });
    expect(feishuTokenCalls).toHaveLength(2);
    expect((await notices()).filter((n) => n.title.startsWith("飞书") && n.kind === "failed")).toEqual([]);
  });

  it("DingTalk: sent on the session webhook of the recipient's last signed message; without one the owner gets a notice", async () => {
    const robot = (
      await call(alice, "POST", "/robots", {
        name: "任务钉钉",
        type: "dingtalk",
        agentId,
        settings: { baseUrl: base },
        secrets: { appSecret: DING_SECRET },
      })
    ).data;
    const task = (
      await call(alice, "POST", "/task", { ...cron(), name: "钉钉送达", delivery: "robot", robotId: robot.id, robotRecipient: "zhaoliu" })
    ).data;
    // Nobody called zhaoliu has written to the robot yet: nothing is sent, and the owner is told why.
    const lonely = (await call(alice, "POST", `/task/${task.id}/run`)).data;
    await t.services.tasks.execute(lonely.id);
    expect((await call(alice, "GET", `/task/${task.id}/runs?pageNo=1`)).data.list[0].status).toBe("SUCCEEDED");
    expect((await notices()).find((n) => n.title === "钉钉送达" && n.kind === "failed")?.body).toBe(
      "结果未能通过机器人送达：该接收人还没有在钉钉里和机器人对话过，无法主动发送",
    );

    const callback = (body: Record<string, unknown>, sign?: string) => {
      const ts = String(Date.now());
      return t.app.inject({
        method: "POST",
        url: `/aiagent_api/robots/callback/${robot.id}`,
        headers: { "content-type": "application/json", timestamp: ts, sign: sign ?? dingtalkSignature(DING_SECRET, ts) },
        payload: body,
      });
    };
    const message = (msgId: string, session: string) => ({
      msgtype: "text",
      text: { content: "你好" },
      msgId,
      senderStaffId: "zhaoliu",
      senderNick: "赵六",
      sessionWebhook: `${base}/robot/sendBySession?session=${session}`,
    });
    // The robot's own answer to the message is not this test's business: its job is not run here.
    const queued = vi.spyOn(t.platform.jobs, "send").mockResolvedValue(null);
    // A forged message does not make an address to send to.
    expect((await callback(message("task-ding-0", "forged"), "forged")).statusCode).toBe(401);
    expect((await callback(message("task-ding-1", "real"))).statusCode).toBe(200);
    queued.mockRestore();
    await t.services.tasks.execute((await call(alice, "POST", `/task/${task.id}/run`)).data.id);
    const delivered = sent.filter((s) => s.path.startsWith("/robot/sendBySession") && JSON.stringify(s.body).includes("飞书要点"));
    expect(delivered.map((s) => s.path)).toEqual(["/robot/sendBySession?session=real"]);
    expect(delivered[0].body).toMatchObject({ msgtype: "text" });
  });
});
