import { createHash, randomInt, randomUUID } from "node:crypto";
import {
  type ChatRobot,
  type ChatRobotType,
  ROBOT_BIND_CODE_SECONDS,
  ROBOT_BIND_PATTERN,
  ROBOT_DEFAULT_BASE_URL,
  ROBOT_FIELDS,
  ROBOT_TEXT_MAX,
  type RobotInput,
  chatRequest,
  robotCallbackPath,
  robotInput,
} from "@agentfair/contracts";
import { AppError, badRequest, notFound } from "../../platform/errors.ts";
import { type Caller, callerOfUser } from "../../platform/auth.ts";
import { translate } from "../../platform/messages.ts";
import { createSafeFetch } from "../../platform/net.ts";
import type { Platform } from "../../platform/platform.ts";
import type { Lease } from "../../platform/rate-limit.ts";
import { openSecret, sealSecret } from "../../platform/secret.ts";
import type { ChatService } from "../chat/chat.service.ts";
import {
  DINGTALK_MAX_SKEW_MS,
  WEBHOOK_MAX_SKEW_MS,
  dingtalkSignature,
  feishuDecrypt,
  feishuSignature,
  sameText,
  webhookSignature,
  wecomDecrypt,
  wecomSignature,
  xmlField,
} from "./protocols.ts";
import { type RobotRow, RobotsRepository } from "./robots.repository.ts";

const SECRET_PURPOSE = "robots";
export const REPLY_JOB = "robots.reply";
/** Send-message calls give up after this long (the job retries). */
const SEND_TIMEOUT_MS = 15_000;
/** A report agent's answer waits this long for its report, then sends its link. */
const REPORT_WAIT_MS = 3 * 60_000;
/** Access tokens are renewed this long before the platform says they expire. */
const TOKEN_MARGIN_S = 300;

/** What the robots need of the agents: the agent must be released and readable by the robot's owner. */
export interface AgentsForRobots {
  releaseSchema(caller: Caller | null, id: string): Promise<{ agentName: string }>;
}
/** What the robots need of the chat runtime: the same prepare and run a chat request takes. */
export type ChatForRobots = Pick<ChatService, "admit" | "prepare" | "answer">;

/** What a callback answers the platform, at once. */
export interface CallbackAnswer {
  status: number;
  contentType: string;
  body: string;
}
const text = (status: number, body: string): CallbackAnswer => ({ status, contentType: "text/plain; charset=utf-8", body });
const json = (body: unknown, status = 200): CallbackAnswer => ({
  status,
  contentType: "application/json; charset=utf-8",
  body: JSON.stringify(body),
});
const refused = () => text(401, "invalid signature");

/** An incoming message that passed its platform's checks. */
interface Inbound {
  externalId: string;
  externalUserId: string;
  nickname: string;
  text: string;
  replyTo: Record<string, string>;
}

type Headers = Record<string, string | string[] | undefined>;
const header = (h: Headers, name: string) => {
  const v = h[name.toLowerCase()];
  return (Array.isArray(v) ? v[0] : v) ?? "";
};

/**
 * Chat robots: a released agent answering on WeCom, DingTalk, Feishu or a generic webhook.
 * Each robot belongs to its owner in its tenant. Callbacks are checked by the platform's own
 * signature and encryption, recorded once per message id, acknowledged at once and answered by a
 * job that runs the agent through the chat runtime as the robot user's guest account.
 */
export class RobotsService {
  readonly repo: RobotsRepository;
  private readonly tokens = new Map<string, { token: string; until: number }>();

  constructor(
    private readonly platform: Platform,
    private readonly deps: { agents: () => AgentsForRobots; chat: () => ChatForRobots },
  ) {
    this.repo = new RobotsRepository(platform.db);
    platform.jobs.define<{ messageId: string }>(
      REPLY_JOB,
      { retryLimit: 2, retryDelaySeconds: 5, expireInSeconds: 600, concurrency: 8 },
      async (job) => {
        try {
          await this.answer(job.data.messageId, job.id);
        } catch (err) {
          // The last try failed: the message is given up, and the robot user's next message gets its turn.
          if (job.retryCount >= job.retryLimit) await this.giveUp(job.data.messageId, err);
          throw err;
        }
      },
    );
  }

  private fetcher() {
    return createSafeFetch({ allowHosts: this.platform.config.NET_ALLOW_HOSTS, maxRedirects: 0 });
  }

  /** The robot's secrets; none for a robot whose keys were never entered (the demo's). */
  private secretsOf(row: RobotRow): Record<string, string> {
    if (!row.secretsEnc) return {};
    return JSON.parse(openSecret(this.platform.secret, SECRET_PURPOSE, row.secretsEnc));
  }

  private toInfo(row: RobotRow, agentName: string): ChatRobot {
    return {
      id: row.id,
      name: row.name,
      type: row.type as ChatRobotType,
      agentId: row.agentId,
      agentName,
      enabled: row.enabled,
      settings: row.settings,
      secretsSet: Object.entries(this.secretsOf(row))
        .filter(([, v]) => !!v)
        .map(([k]) => k),
      callbackPath: robotCallbackPath(row.id),
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  // ---- management --------------------------------------------------------------------------------

  /** The one owner+tenant check: another user's robot is not found. */
  private async own(caller: Caller, id: string) {
    const row = await this.repo.get(id);
    if (!row || row.ownerId !== caller.userId || row.tenantId !== caller.tenantId) throw notFound();
    return row;
  }

  async list(caller: Caller) {
    const rows = await this.repo.listOf(caller.userId, caller.tenantId);
    return rows.map((r) => this.toInfo(r.robot, r.agentName ?? ""));
  }

  /** Checks the fields against the type and merges secrets (an empty one keeps what is stored). */
  private async validated(caller: Caller, raw: RobotInput, stored: Record<string, string>) {
    const input = robotInput.parse(raw);
    const fields = ROBOT_FIELDS[input.type];
    const settings = Object.fromEntries(fields.settings.map((k) => [k, input.settings[k] ?? ""]).filter(([, v]) => v));
    const secrets = Object.fromEntries(fields.secrets.map((k) => [k, input.secrets[k] || stored[k] || ""]).filter(([, v]) => v));
    for (const field of fields.required) if (!settings[field] && !secrets[field]) throw badRequest("robotFieldRequired", { field });
    // The owner must be able to run the agent's release: their own released agent or one they may hire.
    const agent = await this.deps.agents().releaseSchema(caller, input.agentId);
    return { input, settings, secrets, agentName: agent.agentName };
  }

  async create(caller: Caller, raw: RobotInput) {
    const { input, settings, secrets, agentName } = await this.validated(caller, raw, {});
    const row = await this.repo.insert({
      tenantId: caller.tenantId,
      ownerId: caller.userId,
      name: input.name,
      type: input.type,
      agentId: input.agentId,
      enabled: input.enabled,
      settings,
      secretsEnc: sealSecret(this.platform.secret, SECRET_PURPOSE, JSON.stringify(secrets)),
    });
    return this.toInfo(row, agentName);
  }

  async update(caller: Caller, id: string, raw: RobotInput) {
    const existing = await this.own(caller, id);
    // Secrets of another platform type are not carried over.
    const stored = existing.type === raw.type ? this.secretsOf(existing) : {};
    const { input, settings, secrets, agentName } = await this.validated(caller, raw, stored);
    const row = await this.repo.update(id, {
      name: input.name,
      type: input.type,
      agentId: input.agentId,
      enabled: input.enabled,
      settings,
      secretsEnc: sealSecret(this.platform.secret, SECRET_PURPOSE, JSON.stringify(secrets)),
    });
    this.tokens.delete(id);
    return this.toInfo(row, agentName);
  }

  async setEnabled(caller: Caller, id: string, enabled: boolean) {
    await this.own(caller, id);
    const row = await this.repo.update(id, { enabled });
    return this.toInfo(row, await this.repo.agentName(row.agentId));
  }

  async remove(caller: Caller, id: string) {
    await this.own(caller, id);
    await this.repo.remove(id);
    this.tokens.delete(id);
  }

  // ---- deliveries ----------------------------------------------------------------------------------

  /**
   * A scheduled task's result, sent by one of the caller's robots without a message to answer: to a
   * WeCom member, a Feishu user (open_id) or chat (chat_id, "oc_…"), the DingTalk conversation the
   * recipient last wrote in (DingTalk offers robots no other address), or the webhook's reply URL.
   */
  async deliver(caller: Caller, robotId: string, recipient: string, text: string) {
    const robot = await this.own(caller, robotId);
    const secrets = this.secretsOf(robot);
    const missing = ROBOT_FIELDS[robot.type as ChatRobotType].required.find((k) => !secrets[k] && !robot.settings[k]);
    if (missing) throw badRequest("robotFieldRequired", { field: missing });
    let replyTo: Record<string, string> = {};
    if (robot.type === "feishu") replyTo = { receiveId: recipient };
    if (robot.type === "dingtalk") {
      const last = await this.repo.lastMessageOf(robot.id, recipient);
      if (!last?.replyTo.sessionWebhook) throw badRequest("taskRobotNoConversation");
      replyTo = { sessionWebhook: last.replyTo.sessionWebhook };
    }
    await this.send(robot, recipient, replyTo, text, `task:${randomUUID()}`);
  }

  // ---- callbacks -----------------------------------------------------------------------------------

  /** A platform's call to a robot's callback URL: verified, recorded once, answered at once. */
  /** `origin`: the address the platform called, where links in answers (a report's) point without PUBLIC_URL. */
  async callback(
    id: string,
    method: string,
    query: Record<string, string>,
    headers: Headers,
    body: string,
    origin = "",
  ): Promise<CallbackAnswer> {
    const robot = /^[0-9a-f-]{36}$/i.test(id) ? await this.repo.get(id) : undefined;
    if (!robot?.enabled) return text(404, "not found");
    const secrets = this.secretsOf(robot);
    // A robot missing a key it needs answers nothing (an empty key would make every signature valid).
    if (ROBOT_FIELDS[robot.type as ChatRobotType].required.some((k) => !secrets[k] && !robot.settings[k])) return text(404, "not found");
    let result: CallbackAnswer | Inbound | null;
    try {
      switch (robot.type as ChatRobotType) {
        case "wecom":
          result = this.wecom(robot, secrets, method, query, body);
          break;
        case "feishu":
          result = this.feishu(robot, secrets, headers, body);
          break;
        case "dingtalk":
          result = this.dingtalk(robot, secrets, headers, body);
          break;
        case "webhook":
          result = this.webhook(secrets, headers, body);
          break;
        default:
          result = null;
      }
    } catch (err) {
      // Bad encryption, bad padding, another receiver, malformed JSON: refused, never a 500.
      this.platform.log.info({ err: (err as Error).message, robot: robot.id }, "robot callback refused");
      return text(400, "bad request");
    }
    if (!result) return text(400, "bad request");
    if ("status" in result) return result;
    const ack = robot.type === "wecom" ? text(200, "success") : robot.type === "dingtalk" ? json({ msgtype: "empty" }) : json({ code: 0 });
    if (!result.text.trim()) return ack;
    const externalId = result.externalId.slice(0, 200);
    const row = await this.repo.claimMessage({
      robotId: robot.id,
      externalId,
      externalUserId: result.externalUserId.slice(0, 200),
      text: result.text.slice(0, ROBOT_TEXT_MAX),
      replyTo: { ...result.replyTo, nickname: result.nickname.slice(0, 64), origin: origin.slice(0, 200) },
    });
    // A retried callback: already recorded. Unless a job has taken it up, it is queued again (the first
    // call may have failed between recording and queueing; a second job for a message is harmless).
    const pending = row ?? (await this.repo.messageByExternalId(robot.id, externalId));
    if (pending?.status === "received" && !pending.claimedBy) await this.platform.jobs.send(REPLY_JOB, { messageId: pending.id });
    return ack;
  }

  private wecom(robot: RobotRow, secrets: Record<string, string>, method: string, query: Record<string, string>, body: string) {
    const { token = "", encodingAesKey = "" } = secrets;
    const corpId = robot.settings.corpId ?? "";
    const { msg_signature: signature = "", timestamp = "", nonce = "" } = query;
    if (method === "GET") {
      // Callback URL verification: the decrypted echostr proves we hold the key.
      const echostr = query.echostr ?? "";
      if (!echostr || !sameText(wecomSignature(token, timestamp, nonce, echostr), signature)) return refused();
      return text(200, wecomDecrypt(encodingAesKey, corpId, echostr));
    }
    const encrypted = xmlField(body, "Encrypt");
    if (!encrypted || !sameText(wecomSignature(token, timestamp, nonce, encrypted), signature)) return refused();
    const xml = wecomDecrypt(encodingAesKey, corpId, encrypted);
    if (xmlField(xml, "MsgType") !== "text") return text(200, "success");
    const from = xmlField(xml, "FromUserName") ?? "";
    const msgId = xmlField(xml, "MsgId") ?? `${from}:${xmlField(xml, "CreateTime")}`;
    return { externalId: msgId, externalUserId: from, nickname: from, text: xmlField(xml, "Content") ?? "", replyTo: { toUser: from } };
  }

  private feishu(_robot: RobotRow, secrets: Record<string, string>, headers: Headers, body: string): CallbackAnswer | Inbound | null {
    const { encryptKey = "", verificationToken = "" } = secrets;
    let payload = JSON.parse(body);
    if (encryptKey) {
      if (typeof payload.encrypt !== "string") return refused();
      payload = JSON.parse(feishuDecrypt(encryptKey, payload.encrypt));
    }
    const token = payload.header?.token ?? payload.token ?? "";
    if (!sameText(String(token), verificationToken)) return refused();
    if (payload.type === "url_verification") return json({ challenge: String(payload.challenge ?? "") });
    // Event pushes with an encrypt key are signed over the raw body.
    if (encryptKey) {
      const ts = header(headers, "x-lark-request-timestamp");
      const nonce = header(headers, "x-lark-request-nonce");
      if (!sameText(feishuSignature(ts, nonce, encryptKey, body), header(headers, "x-lark-signature"))) return refused();
    }
    if (payload.header?.event_type !== "im.message.receive_v1") return json({ code: 0 });
    const message = payload.event?.message ?? {};
    if (message.message_type !== "text") return json({ code: 0 });
    const sender = payload.event?.sender?.sender_id ?? {};
    const content = JSON.parse(message.content ?? "{}");
    // Mentions arrive as @_user_1 placeholders: the question is what remains.
    const question = String(content.text ?? "")
      .replace(/@_user_\d+/g, "")
      .trim();
    const userId = String(sender.open_id ?? sender.user_id ?? "");
    return {
      externalId: String(message.message_id ?? payload.header?.event_id ?? ""),
      externalUserId: userId,
      nickname: userId,
      text: question,
      replyTo: { messageId: String(message.message_id ?? ""), chatId: String(message.chat_id ?? "") },
    };
  }

  private dingtalk(robot: RobotRow, secrets: Record<string, string>, headers: Headers, body: string): CallbackAnswer | Inbound {
    const ts = header(headers, "timestamp");
    const sign = header(headers, "sign");
    if (!/^\d{10,16}$/.test(ts) || Math.abs(Date.now() - Number(ts)) > DINGTALK_MAX_SKEW_MS) return refused();
    if (!sameText(dingtalkSignature(secrets.appSecret ?? "", ts), sign)) return refused();
    const payload = JSON.parse(body);
    const webhook = String(payload.sessionWebhook ?? "");
    // The answer goes only to the robot's own DingTalk address, whatever a callback names.
    const base = new URL(robot.settings.baseUrl || ROBOT_DEFAULT_BASE_URL.dingtalk);
    let target: URL;
    try {
      target = new URL(webhook);
    } catch {
      return text(400, "bad request");
    }
    if (target.origin !== base.origin) return text(400, "bad request");
    const userId = String(payload.senderStaffId || payload.senderId || "");
    return {
      externalId: String(payload.msgId ?? ""),
      externalUserId: userId,
      nickname: String(payload.senderNick ?? userId),
      text: payload.msgtype === "text" ? String(payload.text?.content ?? "").trim() : "",
      replyTo: { sessionWebhook: target.toString() },
    };
  }

  private webhook(secrets: Record<string, string>, headers: Headers, body: string): CallbackAnswer | Inbound {
    const ts = header(headers, "x-agentfair-timestamp");
    if (!/^\d{10,16}$/.test(ts) || Math.abs(Date.now() - Number(ts)) > WEBHOOK_MAX_SKEW_MS) return refused();
    if (!sameText(webhookSignature(secrets.secret ?? "", ts, body), header(headers, "x-agentfair-signature"))) return refused();
    const payload = JSON.parse(body);
    const userId = String(payload.userId ?? "");
    if (!payload.messageId || !userId) return text(400, "bad request");
    return {
      externalId: String(payload.messageId),
      externalUserId: userId,
      nickname: String(payload.nickname ?? userId),
      text: String(payload.text ?? ""),
      replyTo: {},
    };
  }

  // ---- answers -------------------------------------------------------------------------------------

  /** A caller for a user the robot acts for (read from the database, never from the callback). */
  private async callerOf(userId: string): Promise<Caller | null> {
    const caller = await callerOfUser(this.platform.db, this.platform.config, userId);
    return caller && { ...caller, sessionPairId: "robot" };
  }

  /** The robot user's mapping: a per-robot guest account, created on their first message. */
  private async robotUser(robot: RobotRow, externalUserId: string, nickname: string) {
    const found = await this.repo.robotUser(robot.id, externalUserId);
    if (found) return found;
    await this.repo.createGuest(robot, externalUserId, guestName(robot.id, externalUserId), nickname || externalUserId);
    return (await this.repo.robotUser(robot.id, externalUserId))!;
  }

  /**
   * The job: runs the agent for one recorded message (once) and sends the answer (again on a retry
   * until sent). One robot user's messages take turns in the order they came: a second question
   * continues the conversation the first one's answer belongs to, and a new user gets one session.
   * A message whose turn has not come waits without a job; the end of the one before starts it.
   */
  async answer(messageId: string, jobId: string) {
    const msg = await this.repo.message(messageId);
    if (!msg || msg.status === "answered") return;
    const robot = await this.repo.get(msg.robotId);
    if (!robot) return;
    // Only the job holding the message answers it (its retries too): a second job for it stops here.
    if (!(await this.repo.takeTurn(msg, jobId))) return;
    let answer = msg.answer;
    if (!answer) {
      const bind = msg.text.match(ROBOT_BIND_PATTERN);
      answer = bind
        ? await this.bind(robot, msg.externalUserId, msg.replyTo.nickname ?? "", bind[1])
        : await this.runAgent(robot, msg.externalUserId, msg.replyTo.nickname ?? "", msg.text, msg.replyTo.origin);
      await this.repo.updateMessage(msg.id, { answer });
    }
    try {
      await this.send(robot, msg.externalUserId, msg.replyTo, answer, msg.externalId);
      await this.repo.updateMessage(msg.id, { status: "answered", answeredAt: new Date(), error: null });
    } catch (err) {
      await this.repo.updateMessage(msg.id, { status: "failed", error: String((err as Error).message).slice(0, 500) });
      throw err;
    } finally {
      await this.nextTurn(msg.robotId, msg.externalUserId);
    }
  }

  /** A message given up after its last try (the agent failed each time): the next one may go. */
  private async giveUp(messageId: string, err: unknown) {
    const msg = await this.repo.message(messageId);
    if (msg?.status !== "received") return;
    await this.repo.updateMessage(msg.id, { status: "failed", error: String((err as Error)?.message ?? err).slice(0, 500) });
    await this.nextTurn(msg.robotId, msg.externalUserId);
  }

  private async nextTurn(robotId: string, externalUserId: string) {
    const next = await this.repo.nextUnclaimed(robotId, externalUserId);
    if (next) await this.platform.jobs.send(REPLY_JOB, { messageId: next });
  }

  /** A one-time code for the caller to bind their account in a robot chat of their tenant. */
  async bindCode(caller: Caller) {
    const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    const code = Array.from({ length: 8 }, () => alphabet[randomInt(alphabet.length)]).join("");
    await this.repo.insertBindCode({
      codeHash: createHash("sha256").update(code).digest("hex"),
      userId: caller.userId,
      tenantId: caller.tenantId,
      expiresAt: new Date(Date.now() + ROBOT_BIND_CODE_SECONDS * 1000),
    });
    return { code, expiresIn: ROBOT_BIND_CODE_SECONDS };
  }

  private async bind(robot: RobotRow, externalUserId: string, nickname: string, code: string) {
    const mapping = await this.robotUser(robot, externalUserId, nickname);
    const used = await this.repo.consumeBindCode(createHash("sha256").update(code.toUpperCase()).digest("hex"), robot.tenantId);
    if (!used) return translate("robotBindInvalid", "zh");
    await this.repo.bindUser(mapping.id, used.userId);
    return translate("robotBound", "zh");
  }

  private async runAgent(robot: RobotRow, externalUserId: string, nickname: string, question: string, origin?: string) {
    const mapping = await this.robotUser(robot, externalUserId, nickname);
    const chat = this.deps.chat();
    const signal = AbortSignal.timeout(5 * 60_000);
    const guest = await this.callerOf(mapping.userId);
    const owner = await this.callerOf(robot.ownerId);
    if (!guest || !owner) return translate("robotReplyFailed", "zh");
    // A guest (someone who has not bound an account) chats on the robot owner's quota and balance: a
    // made-up sender id must not bring a new day's free chats.
    const payer = mapping.guest ? owner : guest;
    const attempt = async (caller: Caller) => {
      const sessionId = mapping.sessionUserId === caller.userId ? mapping.sessionId : null;
      const req = chatRequest.parse({ query: question, schema_id: robot.agentId, release: true, session_id: sessionId });
      return { caller, prepared: await chat.prepare(caller, req, signal, caller === guest ? payer : caller) };
    };
    let run: Awaited<ReturnType<typeof attempt>>;
    try {
      run = await attempt(guest).catch((err) => {
        // The owner's own agent that is not shared with the tenant: the owner's account answers (and pays).
        if (err instanceof AppError && err.status === 404) return attempt(owner);
        throw err;
      });
    } catch (err) {
      return refusal(err);
    }
    // The web chat's limits hold here too, for whoever answers: requests per minute and concurrent
    // streams, with the robot user standing in for the client address (a platform's callbacks share one).
    let place: Lease;
    try {
      place = await chat.admit(run.caller, `robot:${robot.id}:${externalUserId}`);
    } catch (err) {
      return refusal(err);
    }
    let reply: Awaited<ReturnType<ChatForRobots["answer"]>>;
    try {
      // The answer is sent after the callback was acknowledged: a report agent's may wait for its report.
      reply = await chat.answer(run.prepared, "zh", signal, { reportWaitMs: REPORT_WAIT_MS, origin });
    } finally {
      await place.release();
    }
    const session = reply.sessionId;
    if (session && (session !== mapping.sessionId || mapping.sessionUserId !== run.caller.userId))
      await this.repo.setConversation(mapping.id, session, run.caller.userId);
    return reply.content || reply.error || translate("robotReplyFailed", "zh");
  }

  private async post(url: string, body: unknown, headers: Record<string, string> = {}) {
    const res = await this.fetcher()(url, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8", ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    const answer = await res.text();
    if (!res.ok) throw new Error(`send failed: HTTP ${res.status}`);
    try {
      return JSON.parse(answer);
    } catch {
      return {};
    }
  }

  /** An access token from the cache, or fetched (WeCom gettoken, Feishu tenant_access_token). */
  private async accessToken(robot: RobotRow, secrets: Record<string, string>) {
    const cached = this.tokens.get(robot.id);
    if (cached && cached.until > Date.now()) return cached.token;
    const base = robot.settings.baseUrl || ROBOT_DEFAULT_BASE_URL[robot.type as ChatRobotType];
    let token: string;
    let expiresIn: number;
    if (robot.type === "wecom") {
      const url = new URL("/cgi-bin/gettoken", base);
      url.searchParams.set("corpid", robot.settings.corpId ?? "");
      url.searchParams.set("corpsecret", secrets.corpSecret ?? "");
      const res = await this.fetcher()(url, { signal: AbortSignal.timeout(SEND_TIMEOUT_MS) });
      const data = (await res.json().catch(() => ({}))) as { errcode?: number; access_token?: string; expires_in?: number };
      if (data.errcode || !data.access_token) throw new Error(`gettoken failed: ${data.errcode ?? res.status}`);
      token = data.access_token;
      expiresIn = data.expires_in ?? 7200;
    } else {
      const data = await this.post(new URL("/open-apis/auth/v3/tenant_access_token/internal", base).toString(), {
        app_id: robot.settings.appId ?? "",
        app_secret: secrets.appSecret ?? "",
      });
      if (data.code || !data.tenant_access_token) throw new Error(`tenant_access_token failed: ${data.code}`);
      token = data.tenant_access_token;
      expiresIn = data.expire ?? 7200;
    }
    this.tokens.set(robot.id, { token, until: Date.now() + Math.max(60, expiresIn - TOKEN_MARGIN_S) * 1000 });
    return token;
  }

  private async send(robot: RobotRow, toUser: string, replyTo: Record<string, string>, answer: string, messageId: string) {
    const secrets = this.secretsOf(robot);
    const base = robot.settings.baseUrl || ROBOT_DEFAULT_BASE_URL[robot.type as ChatRobotType];
    // A token the platform no longer accepts is dropped and fetched once more.
    const withToken = async (call: (token: string) => Promise<boolean>) => {
      if (await call(await this.accessToken(robot, secrets))) return;
      this.tokens.delete(robot.id);
      if (!(await call(await this.accessToken(robot, secrets)))) throw new Error("access token refused");
    };
    switch (robot.type as ChatRobotType) {
      case "wecom":
        return withToken(async (token) => {
          const url = new URL("/cgi-bin/message/send", base);
          url.searchParams.set("access_token", token);
          const data = await this.post(url.toString(), {
            touser: toUser,
            msgtype: "text",
            agentid: Number(robot.settings.appAgentId),
            text: { content: answer },
          });
          if ([40014, 42001, 41001].includes(data.errcode)) return false;
          if (data.errcode) throw new Error(`message/send failed: ${data.errcode}`);
          return true;
        });
      case "feishu":
        return withToken(async (token) => {
          const content = { msg_type: "text", content: JSON.stringify({ text: answer }) };
          let url: URL;
          let body: Record<string, string> = content;
          if (replyTo.receiveId) {
            // Sent unasked (a task's result): a new message to a chat or a user.
            url = new URL("/open-apis/im/v1/messages", base);
            url.searchParams.set("receive_id_type", replyTo.receiveId.startsWith("oc_") ? "chat_id" : "open_id");
            body = { ...content, receive_id: replyTo.receiveId };
          } else url = new URL(`/open-apis/im/v1/messages/${encodeURIComponent(replyTo.messageId ?? "")}/reply`, base);
          const data = await this.post(url.toString(), body, { authorization: `Bearer ${token}` });
          if ([99991663, 99991661, 99991668].includes(data.code)) return false;
          if (data.code) throw new Error(`reply failed: ${data.code}`);
          return true;
        });
      case "dingtalk": {
        const data = await this.post(replyTo.sessionWebhook ?? "", { msgtype: "text", text: { content: answer } });
        if (data.errcode) throw new Error(`session webhook failed: ${data.errcode}`);
        return;
      }
      case "webhook": {
        const body = JSON.stringify({ robotId: robot.id, messageId, userId: toUser, text: answer });
        const ts = String(Date.now());
        const res = await this.fetcher()(robot.settings.replyUrl ?? "", {
          method: "POST",
          headers: {
            "content-type": "application/json; charset=utf-8",
            "x-agentfair-timestamp": ts,
            "x-agentfair-signature": webhookSignature(secrets.secret ?? "", ts, body),
          },
          body,
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        });
        await res.body?.cancel();
        if (!res.ok) throw new Error(`reply URL failed: HTTP ${res.status}`);
        return;
      }
    }
  }
}

/**
 * The username of a robot's guest account for one sender. The ":" keeps it out of reach of people:
 * sign-up and the member form take letters, digits, "_" and Chinese only (a "robot_…" name, as
 * guests had before, someone could take first and receive that sender's conversations).
 */
function guestName(robotId: string, externalUserId: string) {
  return `robot:${createHash("sha256").update(`${robotId}:${externalUserId}`).digest("hex").slice(0, 20)}`;
}

/**
 * What the robot user is told when the chat refuses them (over a limit, the day's chats used up, a
 * membership or balance needed), as the web chat tells its user; anything else fails the job.
 */
function refusal(err: unknown): string {
  if (err instanceof AppError && err.status >= 400 && err.status < 500 && err.status !== 404) return translate(err.key, "zh", err.params);
  throw err;
}
