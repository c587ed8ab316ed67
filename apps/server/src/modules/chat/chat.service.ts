import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import {
  type ChatAgentInfo,
  type ChatErrorCode,
  type ChatDoc,
  type ChatEvent,
  type ChatFileRef,
  type ChatMessage,
  type chatRequest,
  FOLLOW_UP_COUNT,
  HEARTBEAT_SECONDS,
  INSIGHT_AGENT_TYPE,
  type InsightStepItem,
  type Language,
  MODE_PRESETS,
  PROGRESS_MAX,
  type ReplyStatus,
  SESSION_TITLE_MAX,
  type SessionDetail,
  type SessionItem,
  type ToolCallInfo,
  type WidgetData,
  chatErrorCode,
  checkPluginsOf,
  readWidgetDataList,
} from "@agentfair/contracts";
import type { z } from "zod";
import { LinkedAbortController } from "../../platform/abort.ts";
import { type Caller, requireAccess } from "../../platform/auth.ts";
import { AppError, badRequest, notFound } from "../../platform/errors.ts";
import { type MessageKey, translate } from "../../platform/messages.ts";
import { BlockedAddressError } from "../../platform/net.ts";
import type { Platform } from "../../platform/platform.ts";
import type { Lease } from "../../platform/rate-limit.ts";
import { followUpQuestions } from "../../runtime/follow-ups.ts";
import { type Attachment, assembleMessages } from "../../runtime/prompt.ts";
import { runReply } from "../../runtime/reply.ts";
import type { ToolRegistry } from "../../runtime/tool-registry.ts";
import type { AgentsForRuntime, RuntimeAgent } from "../agents/runtime-agent.ts";
import type { Billing, ChatCharge } from "../billing/billing.seam.ts";
import type { KnowledgeForRuntime } from "../knowledge/knowledge.runtime.ts";
import type { ModelsService } from "../models/models.service.ts";
import { type ResolvedModel, replyModelOf } from "../models/provider.ts";
import { ChatRepository, type MessageRow, type SessionRow } from "./chat.repository.ts";
import { ownerReadsConversations } from "./conversations.repository.ts";
import { ChatMemory } from "./memory.ts";
import { ReplyStreams, type StreamWriter } from "./reply-streams.ts";

/** Where chat attachments come from: the caller's own uploads only (another user's id is not found). */
export interface AttachmentSource {
  load(caller: Caller, refs: ChatFileRef[]): Promise<Attachment[]>;
}

export interface ChatDeps {
  agents: () => AgentsForRuntime | undefined;
  billing: () => Billing | undefined;
  models: ModelsService;
  tools: ToolRegistry;
  attachments: () => AttachmentSource | undefined;
  /** Direct answers from an agent's knowledge bases (the "answer directly" option). */
  knowledge?: () => KnowledgeForRuntime | undefined;
  /** Report agents (agentType insight): a question starts a report job instead of a model reply. */
  insight?: () => InsightForChat | undefined;
  /** Multi-agent self-orchestration: a bound workflow that replies instead of the model. */
  orchestrator?: () => ChatOrchestrator | undefined;
  /** The design an agent shows with its replies (designer). */
  replyWidgets?: () => ReplyWidgets | undefined;
}

/** The card or form an agent shows with every reply (its bound design), fed by the reply's result. */
export interface ReplyWidgets {
  forReply(agent: RuntimeAgent, reply: { content: string; toolResults: (string | undefined)[] }): Promise<WidgetData | null>;
}

export interface InsightForChat {
  start(ctx: {
    caller: Caller;
    agent: RuntimeAgent;
    sessionId: string;
    messageId: string;
    query: string;
    lang: Language;
  }): Promise<{ reportId: string; insightStep: InsightStepItem[]; content: string }>;
  /** A report reply for a channel without the report page: bounded wait, then findings and a link (see InsightService.settle). */
  settle(
    caller: Caller,
    reportId: string,
    opts: { waitMs: number; signal: AbortSignal; lang: Language; origin?: string },
  ): Promise<{ status: "done" | "pending" | "failed"; content: string; url: string | null }>;
  /** A reply ended done: an agent with chat insight queues the conversation's analysis for its owner. */
  replied(ctx: { caller: Caller; agent: RuntimeAgent; sessionId: string; lang: Language }): Promise<void>;
}

/** Replies of agents in self-orchestration mode; null when the agent is not in that mode (the model replies). */
export interface ChatOrchestrator {
  reply(
    caller: Caller,
    agent: RuntimeAgent,
    query: string,
    signal: AbortSignal,
    emit: (event: ChatEvent) => void,
    /** The asker's language, for what the reply says itself (a run waiting for a person). */
    lang: Language,
  ): Promise<{ content: string } | null>;
}

interface Prepared {
  caller: Caller;
  agent: RuntimeAgent;
  session: SessionRow;
  /** The session row is not written yet. */
  isNew: boolean;
  history: MessageRow[];
  /** The model that answers; null when none is usable (the reply then says where to add one). */
  model: ResolvedModel | null;
  query: string;
  files: ChatFileRef[];
  attachments: Attachment[];
  reload: boolean;
  /** What billing took for this reply, given back when the reply cannot be saved. */
  charge: ChatCharge | null;
}

/** Speech-to-text calls per user and hour (each forwards up to 15 MB to the audio model). */
export const SPEECH_PER_HOUR = 120;

/** A stream's place is renewed while it runs and freed this long after its process stops renewing it. */
const STREAM_LEASE_S = 60;

/** Waits before each new try at refunding an unsaved reply. */
const REFUND_RETRIES_MS = [200, 1000, 3000];

/** Longest wait before the question is written when no token has come yet. */
const WRITE_DELAY_MS = 300;

const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

const titleOf = (query: string, files: ChatFileRef[]) => (query.trim() || files[0]?.name || "").slice(0, SESSION_TITLE_MAX);

/** The catalogue text of each reply error code. */
const ERROR_TEXT: Record<ChatErrorCode, MessageKey> = {
  noModel: "noModel",
  modelTimeout: "chatModelTimeout",
  modelUnavailable: "chatModelUnavailable",
  modelRejected: "chatModelRejected",
  modelRateLimited: "modelRateLimited",
  modelBlockedAddress: "modelBlockedAddress",
  stepLimit: "chatToolStepLimit",
  internal: "internal",
  restarting: "chatServerRestarting",
  notSaved: "chatReplyNotSaved",
};

/** A saved reply error: a code (worded in the reader's language), or the text of an older reply. */
function errorOf(saved: string | null, lang: Language) {
  const code = chatErrorCode.safeParse(saved);
  if (!code.success) return { error: saved, error_code: null };
  return { error: translate(ERROR_TEXT[code.data], lang), error_code: code.data };
}

/** Why the model gave no reply, as a code for people (addresses, keys and raw texts stay in the log). */
export function failureCode(err: unknown, timedOut = false): ChatErrorCode {
  if (timedOut) return "modelTimeout";
  let e: unknown = err;
  for (let i = 0; i < 5 && e; i++) {
    if (e instanceof BlockedAddressError) return "modelBlockedAddress";
    if (e instanceof AppError && e.key === "modelRateLimited") return "modelRateLimited";
    const status = (e as { statusCode?: number }).statusCode;
    if (status === 429) return "modelRateLimited";
    if (status === 408 || status === 504 || (e as Error)?.name === "AbortError" || (e as Error)?.name === "TimeoutError")
      return "modelTimeout";
    if (status && status >= 400 && status < 500) return "modelRejected";
    if (status) return "modelUnavailable";
    e = (e as { cause?: unknown }).cause ?? (e as { lastError?: unknown }).lastError ?? (e as { errors?: unknown[] }).errors?.at(-1);
  }
  return "modelUnavailable";
}

/** The Markdown export's times when the reader's zone is not known (the product's home zone). */
/** A message's cards on the wire: all of them in order, and the first as the spec's `widgetData`. */
const widgetFields = (list: WidgetData[]) => (list.length ? { widgetData: list[0], widgetDataList: list } : {});

const DEFAULT_TIME_ZONE = "Asia/Shanghai";

/** Times as "2026-06-15 14:03:09" in a zone; an unknown zone falls back to the default one. */
function readableTime(timeZone: string) {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("sv-SE", { timeZone, dateStyle: "short", timeStyle: "medium" });
  } catch {
    format = new Intl.DateTimeFormat("sv-SE", { timeZone: DEFAULT_TIME_ZONE, dateStyle: "short", timeStyle: "medium" });
  }
  return (iso: string) => format.format(new Date(iso));
}

/** Chat sessions, messages, the reply runtime, share links and usage. */
export class ChatService {
  private readonly repo: ChatRepository;
  /** Replies as streams any process can read and stop. */
  readonly replies: ReplyStreams;
  /** Each user's values of the agents' memory variables. */
  readonly memory: ChatMemory;

  constructor(
    private readonly platform: Platform,
    private readonly deps: ChatDeps,
  ) {
    this.repo = new ChatRepository(platform.db);
    this.replies = new ReplyStreams(platform);
    this.memory = new ChatMemory(platform);
    deps.tools.register(this.memory.toolKind());
  }

  private agents() {
    const agents = this.deps.agents();
    if (!agents) throw notFound();
    return agents;
  }

  /** Counts one speech-to-text call against the caller's hourly budget (429 past it). */
  async consumeSpeech(caller: Caller) {
    await this.platform.rateLimiter.take(`speech:${caller.userId}`, SPEECH_PER_HOUR, 3600);
  }

  /**
   * Admits one chat request under the per-minute limits (the user's, the client address's) and
   * takes one of the user's concurrent stream places, to be released when the reply ends.
   */
  async admit(caller: Caller, ip: string): Promise<Lease> {
    const { CHAT_PER_MINUTE, CHAT_PER_MINUTE_PER_IP, CHAT_STREAMS_PER_USER } = this.platform.config;
    const limiter = this.platform.rateLimiter;
    const tooFast = (seconds: number) => new AppError("chatTooFast", 429, { seconds });
    // Claimed at once: both minute counters in one statement, the place in another, in parallel.
    const [minute, place] = await Promise.allSettled([
      limiter.takeAll([
        { key: `chat:ip:${ip}`, limit: CHAT_PER_MINUTE_PER_IP, windowSeconds: 60, refuse: tooFast },
        { key: `chat:user:${caller.userId}`, limit: CHAT_PER_MINUTE, windowSeconds: 60, refuse: tooFast },
      ]),
      limiter.lease(
        `chat:streams:${caller.userId}`,
        CHAT_STREAMS_PER_USER,
        STREAM_LEASE_S,
        () => new AppError("chatTooManyStreams", 429, { limit: CHAT_STREAMS_PER_USER }),
      ),
    ]);
    if (place.status === "fulfilled" && minute.status === "fulfilled") return place.value;
    // A refused request has not run: it counts toward no minute and holds no place.
    await Promise.all([minute, place].map((c) => (c.status === "fulfilled" ? c.value.release() : undefined)));
    throw [minute, place].find((c) => c.status === "rejected")?.reason;
  }

  /** Chat requests carry no bearer header: the body's token is resolved through the platform's session lookup. */
  async callerFromToken(token: string | undefined, fallback: Caller | null) {
    if (token) return this.platform.callers.resolve(token);
    return fallback;
  }

  /** A session the caller owns (reads also allow administrators); anything else is not found. */
  private async ownSession(caller: Caller, id: string, action: "read" | "write") {
    const session = await this.repo.session(id);
    requireAccess(caller, session && { ownerId: session.userId, tenantId: session.tenantId }, action);
    return session!;
  }

  /** For other modules (RPA tasks attach to a session): the session must be the caller's own. */
  async requireOwnSession(caller: Caller, id: string) {
    await this.ownSession(caller, id, "write");
  }

  // ---- the reply -------------------------------------------------------------------------------

  /**
   * Everything that can be refused with a plain error before the stream starts. `payer` is who pays
   * (quota and price) when it is not the asker: a chat robot's owner for the robot's guests.
   */
  async prepare(caller: Caller, req: z.output<typeof chatRequest>, signal: AbortSignal, payer: Caller = caller): Promise<Prepared> {
    const files = req.files ?? [];
    if (!req.query.trim() && !files.length && !req.reload) throw badRequest("chatQueryEmpty");
    const agent = await this.agents().runtimeAgent(caller, req.schema_id, { release: req.release });
    const now = new Date();
    let session: SessionRow = {
      id: req.session_id ?? randomUUID(),
      userId: caller.userId,
      tenantId: caller.tenantId,
      agentId: agent.agentId,
      release: req.release,
      agentName: agent.agentName,
      agentIcon: agent.agentIcon,
      agentIconBackground: agent.agentIconBackground,
      title: "",
      titled: false,
      createdAt: now,
      updatedAt: now,
    };
    // Written in the background once the model call is under way (see run).
    const isNew = !req.session_id;
    /** A session the client named itself: created now, so no one else can take the id meanwhile. */
    let claimedId = false;
    if (req.session_id) {
      let found = await this.repo.session(req.session_id);
      if (!found && isUuid(req.session_id)) {
        found = await this.repo.createSessionIfFree(session);
        claimedId = !!found;
        // Lost a race for the id: whoever won owns it.
        found ??= await this.repo.session(req.session_id);
      }
      // Appending is for the owner only, even for administrators; a foreign id is not found.
      if (!found || found.userId !== caller.userId || found.agentId !== agent.agentId) throw notFound();
      session = found;
    }
    const history = isNew ? [] : await this.repo.messages(session.id);
    // Loaded before the stream: another user's file id is a plain not-found.
    const attachments = files.length ? ((await this.deps.attachments()?.load(caller, files)) ?? []) : [];
    const model = await this.deps.models.usable(caller.tenantId, "LLM", agent.model.modelId);
    // Refused (membership, quota, balance) before anything is written: no empty session is left
    // behind. Nothing is charged when no model could answer or the asker has already gone.
    let charge: ChatCharge | null = null;
    if (model && !signal.aborted)
      charge =
        (await this.deps
          .billing()
          ?.checkChat(
            payer,
            { agentId: agent.agentId, agentName: agent.agentName, priceCents: agent.priceCents, ownerId: agent.ownerId },
            session.id,
            model.row,
          )
          .catch(async (err) => {
            if (claimedId) await this.repo.deleteSession(session.id);
            throw err;
          })) ?? null;
    return {
      caller,
      agent,
      session,
      isNew,
      history,
      model,
      query: req.query.trim(),
      files,
      attachments,
      reload: !!req.reload,
      charge,
    };
  }

  /** Runs one reply, writing events; never throws. The reply is saved once, as done, stopped or failed. */
  /** Replies streaming now: a process shutting down waits for them to end (they end at once). */
  private readonly streams = new Set<Promise<void>>();

  /** Marks a reply stream as open; call the answer when its last byte is written. */
  streamStarted(): () => void {
    let end = () => {};
    const stream = new Promise<void>((resolve) => {
      end = resolve;
    });
    this.streams.add(stream);
    return () => {
      this.streams.delete(stream);
      end();
    };
  }

  get openStreams() {
    return this.streams.size;
  }

  /** A reply's first token left `seconds` after its request came in. */
  firstTokenSent(seconds: number) {
    this.platform.metrics.firstToken.observe(seconds);
  }

  /** Waits (at most `timeoutMs`) for the open streams to end, so their connections close idle. */
  async drain(timeoutMs: number) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.streams), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
  }

  /**
   * Runs a reply of the chat page as a stream that outlives its request: every event also goes to
   * the reply's stream (readable from any process through `replies.read`), and only a stop
   * (`replies.stop`, from any process), nobody reading it for a while after `asker` (the asker's
   * connection) ended, or the process shutting down ends it early. Never throws.
   */
  async runStreamed(p: Prepared, lang: Language, asker: AbortSignal, emit: (e: ChatEvent) => void) {
    // The reply's own controller, which also follows a shutdown: run() uses it as it is (an open
    // reply holds one signal less; each holds about a kilobyte).
    const controller = new LinkedAbortController([this.platform.stopping]);
    let writer: StreamWriter | undefined;
    const both = (e: ChatEvent) => {
      if (e.type === "session") writer = this.replies.open(e.uuid, e.session_id, p.caller.userId, controller, asker);
      writer?.push(e);
      emit(e);
    };
    try {
      await this.run(p, lang, controller.signal, both, controller);
    } catch (err) {
      // run() handles its own failures; this is the last line, so the stream still ends properly.
      this.platform.log.error({ err }, "chat reply crashed");
      both({ type: "error", msg: translate("internal", lang), code: 500, error_code: "internal" });
      both({ type: "stop", status: "failed", usage: { inputTokens: 0, outputTokens: 0 } });
    } finally {
      controller.release();
      await writer?.close();
    }
  }

  /**
   * A whole reply, for channels that hand on the answer rather than stream it (MCP, robots, tasks).
   * A report agent's reply is only "analysing…" at first: it waits up to `reportWaitMs` for the
   * report and answers with its findings and link.
   */
  async answer(p: Prepared, lang: Language, signal: AbortSignal, opts: { reportWaitMs: number; origin?: string }) {
    let content = "";
    let sessionId = "";
    let reportId = "";
    const errors: string[] = [];
    let status = "failed" as ReplyStatus;
    let usage = { inputTokens: 0, outputTokens: 0 };
    await this.run(p, lang, signal, (e) => {
      if (e.type === "session") sessionId = e.session_id;
      else if (e.type === "content") content += e.delta;
      else if (e.type === "error") errors.push(e.msg);
      else if (e.type === "insight_step") reportId = e.reportId;
      else if (e.type === "stop") ({ status, usage } = e);
    });
    const insight = reportId && status === "done" ? this.deps.insight?.() : undefined;
    let reportUrl: string | null = null;
    if (insight) {
      const report = await insight.settle(p.caller, reportId, { waitMs: opts.reportWaitMs, signal, lang, origin: opts.origin });
      reportUrl = report.url;
      if (report.status === "failed") {
        status = "failed";
        errors.push(report.content);
        content = "";
      } else content = report.content;
    }
    return { content: content.trim(), error: errors.join("\n") || null, sessionId, status, usage, reportUrl };
  }

  /** A reply's events after the first `after`, from whichever process writes it (the caller's own replies only). */
  readReply(caller: Caller, uuid: string, after: number, lang: Language, signal: AbortSignal, write: (e: ChatEvent) => void) {
    return this.replies.read(caller, uuid, after, signal, write, () => [
      { type: "error", msg: translate("chatStreamLost", lang), code: 503, error_code: "restarting" },
      { type: "stop", status: "failed", usage: { inputTokens: 0, outputTokens: 0 } },
    ]);
  }

  // ---- memory variables ------------------------------------------------------------------------

  /** The agent as the caller may chat with it, and the session (the caller's own, of this agent) if named. */
  private async memoryScope(caller: Caller, q: { schema_id: string; release: boolean; session_id?: string | null }) {
    const agent = await this.agents().runtimeAgent(caller, q.schema_id, { release: q.release });
    if (!q.session_id) return { agent, sessionId: null };
    const session = await this.repo.session(q.session_id);
    if (!session || session.userId !== caller.userId || session.agentId !== agent.agentId) throw notFound();
    return { agent, sessionId: session.id };
  }

  async memoryList(caller: Caller, q: { schema_id: string; release: boolean; session_id?: string | null }) {
    const { agent, sessionId } = await this.memoryScope(caller, q);
    return { list: await this.memory.list(caller.userId, agent, sessionId) };
  }

  async memorySet(caller: Caller, q: { schema_id: string; release: boolean; session_id?: string | null; name: string; value: string }) {
    const { agent, sessionId } = await this.memoryScope(caller, q);
    await this.memory.set(caller.userId, agent, sessionId, q.name, q.value);
    return { list: await this.memory.list(caller.userId, agent, sessionId) };
  }

  async memoryReset(caller: Caller, q: { schema_id: string; release: boolean; session_id?: string | null; name?: string }) {
    const { agent, sessionId } = await this.memoryScope(caller, q);
    await this.memory.reset(caller.userId, agent, sessionId, q.name);
    return { list: await this.memory.list(caller.userId, agent, sessionId) };
  }

  /** `own`: the reply's controller when its caller made one that follows the platform's shutdown (requestSignal is its signal). */
  async run(p: Prepared, lang: Language, requestSignal: AbortSignal, emitEvent: (e: ChatEvent) => void, own?: LinkedAbortController) {
    const { caller, agent, session, history, model } = p;
    let query = p.query;
    let files = p.files;
    const lastUser = [...history].reverse().find((m) => m.role === "user");
    const lastBot = [...history].reverse().find((m) => m.role === "bot");
    const retry = p.reload && !!lastUser;
    if (retry) {
      // Retry: the last reply is replaced and its question asked again.
      query ||= lastUser.content;
      files = files.length ? files : ((lastUser.files as ChatFileRef[]) ?? []);
    }
    const questionId = retry ? lastUser.id : randomUUID();
    const title = session.titled ? session.title : titleOf(query, files);
    const replyId = randomUUID();
    // Writes the model call need not wait for: the session row, the question, the title. They
    // start once the first token is out (or after a moment), so they never delay it.
    let startWrites: () => void = () => undefined;
    const writesGate = new Promise<void>((resolve) => {
      startWrites = resolve;
    });
    const gateTimer = setTimeout(() => startWrites(), WRITE_DELAY_MS);
    const writes = (async () => {
      await writesGate;
      clearTimeout(gateTimer);
      const question = { id: questionId, sessionId: session.id, role: "user", content: query, files };
      // A new session is written with its title and its question in one statement.
      if (p.isNew) return await this.repo.createSessionWith({ ...session, title, titled: true }, question);
      if (retry && lastBot) await this.repo.deleteMessage(lastBot.id);
      if (!retry) await this.repo.insertMessage(question);
      if (!session.titled) await this.repo.titleIfUntitled(session.id, title);
    })();
    writes.catch(() => undefined);
    const docs: ChatDoc[] = [];
    /** The reply's cards: one per bound tool result, in the order they came. */
    const widgets: WidgetData[] = [];
    /** The reply's text as shown so far. */
    let shown = "";
    const emit = (e: ChatEvent) => {
      emitEvent(e);
      if (e.type === "content") shown += e.delta;
      if (e.type === "docs") docs.push(...e.docs);
      if (e.type === "widget_data") widgets.push(e.widgetData);
      if (e.type === "content" || e.type === "tool_call_start" || e.type === "error" || e.type === "stop") startWrites();
    };
    emit({ type: "session", session_id: session.id, title, question_uuid: questionId, uuid: replyId });

    const bot = {
      content: "",
      status: "failed" as "done" | "stopped" | "failed",
      error: null as string | null,
      step: 0,
      toolCalls: [] as (ToolCallInfo & { result?: string })[],
      questions: [] as string[],
      usage: { inputTokens: 0, outputTokens: 0 },
      insightStep: null as InsightStepItem[] | null,
    };
    const fail = (error_code: ChatErrorCode, code = 500) => {
      bot.error = error_code;
      emit({ type: "error", msg: translate(ERROR_TEXT[error_code], lang), code, error_code });
    };
    // A shutting-down process ends its replies as it would a stopped one, then says why (below).
    const linked = own ?? new LinkedAbortController([requestSignal, this.platform.stopping]);
    const signal = linked.signal;
    try {
      // "Answer directly from the knowledge base": the best Q&A pair or passage above the agent's
      // threshold is the reply, with no model; an agent without a model says it has no answer.
      if (agent.knowledge.directAnswer && query) {
        const direct = await this.deps.knowledge?.()?.directAnswer(agent, query);
        if (direct || !model) {
          const content = direct?.content ?? translate("knowledgeNoAnswer", lang);
          if (direct) emit({ type: "docs", docs: direct.docs });
          emit({ type: "progress", stage: 4, percent: 90 });
          emit({ type: "content", delta: content });
          Object.assign(bot, { content, status: "done", step: 4 });
          return;
        }
      }
      // Self-orchestration: the agent's bound workflow answers each question (its answer nodes stream).
      const orchestrated = await this.deps.orchestrator?.()?.reply(caller, agent, query, signal, emit, lang);
      if (orchestrated) {
        Object.assign(bot, { content: orchestrated.content, status: "done", step: 4 });
        return;
      }
      if (!model) return fail("noModel", 503);
      const insight = agent.agentType === INSIGHT_AGENT_TYPE && query ? this.deps.insight?.() : undefined;
      if (insight) {
        // The report is built by a job; the page follows it through get_insight_url.
        let started: Awaited<ReturnType<InsightForChat["start"]>>;
        try {
          started = await insight.start({ caller, agent, sessionId: session.id, messageId: replyId, query, lang });
        } catch (err) {
          // A refusal (the daily report limit) is said in the reply, in the caller's language.
          if (!(err instanceof AppError)) throw err;
          bot.error = translate(err.key, lang, err.params);
          emit({ type: "error", msg: bot.error, code: err.status });
          return;
        }
        emit({ type: "insight_step", reportId: started.reportId, insightStep: started.insightStep });
        emit({ type: "progress", stage: 4, percent: 90 });
        emit({ type: "content", delta: started.content });
        Object.assign(bot, { content: started.content, status: "done", step: 4, insightStep: started.insightStep });
        return;
      }

      const attachments =
        p.attachments.length || !files.length ? p.attachments : ((await this.deps.attachments()?.load(caller, files)) ?? []);
      const priorHistory = history
        .filter((m) => m.id !== lastBot?.id || !retry)
        .filter((m) => m.role === "user" || m.status === "done" || m.status === "stopped")
        .map((m) => ({ role: m.role as "user" | "bot", content: m.content }));
      const maxOutputTokens = Math.max(64, Math.min(agent.model.maxTokens || 2048, Math.floor(model.row.contextWindow / 2)));
      const memory = await this.memory.values(caller.userId, agent, session.id);
      const prompt = assembleMessages({
        agent,
        memory,
        history: retry ? priorHistory.slice(0, priorHistory.map((m) => m.role).lastIndexOf("user")) : priorHistory,
        query,
        attachments,
        contextWindow: model.row.contextWindow,
        maxOutputTokens,
        vision: model.row.type === "VISION",
      });
      try {
        await this.deps.models.admit(model, prompt.estimatedInputTokens);
      } catch (err) {
        if (err instanceof AppError) return fail(failureCode(err), err.status);
        throw err;
      }
      const tools = await this.deps.tools.toolsFor({ caller, agent, sessionId: session.id });
      const mode = agent.model.mode === "custom" ? agent.model : MODE_PRESETS[agent.model.mode];
      const result = await runReply({
        model: replyModelOf(model),
        system: prompt.system,
        messages: prompt.messages,
        tools,
        sampling: {
          temperature: mode.temperature,
          topP: mode.topP,
          presencePenalty: agent.model.mode === "custom" ? agent.model.presencePenalty : 0,
          frequencyPenalty: agent.model.mode === "custom" ? agent.model.frequencyPenalty : 0,
          maxOutputTokens,
        },
        stepLimit: this.platform.config.CHAT_STEP_LIMIT,
        signal,
        idleTimeoutMs: this.platform.config.CHAT_IDLE_TIMEOUT_MS,
        emit,
      });
      Object.assign(bot, {
        content: result.content,
        status: result.status,
        step: result.step,
        toolCalls: result.toolCalls,
        usage: result.usage,
      });
      await this.deps.models.record(model, result.usage).catch(() => {});
      if (result.status === "failed") {
        this.platform.log.warn({ err: result.error, timedOut: result.timedOut }, "chat reply failed");
        bot.status = "failed";
        return fail(failureCode(result.error, result.timedOut));
      }
      // The tool rounds ran out before the model answered: the reply says so (it still counts as done).
      if (result.stepLimited && !result.content) fail("stepLimit", 200);
      if (result.status === "done" && result.content && agent.designId) {
        const toolResults = result.toolCalls.map((c) => c.result);
        const widget = await this.deps
          .replyWidgets?.()
          ?.forReply(agent, { content: result.content, toolResults })
          .catch((err) => this.platform.log.warn({ err }, "the agent's design was left out of the reply"));
        if (widget) emit({ type: "widget_data", widgetData: widget });
      }
      if (result.status === "done" && result.content) {
        emit({ type: "progress", stage: 5, percent: PROGRESS_MAX });
        bot.step = 5;
        try {
          const questions = await followUpQuestions(
            replyModelOf(model),
            query,
            result.content,
            AbortSignal.any([signal, AbortSignal.timeout(20_000)]),
          );
          bot.questions = questions.slice(0, FOLLOW_UP_COUNT);
          if (bot.questions.length) emit({ type: "questions", questions: bot.questions });
        } catch (err) {
          // Follow-ups are optional: the reply stands without them.
          if (signal.aborted) bot.status = "stopped";
          else this.platform.log.info({ err }, "follow-up questions failed");
        }
      }
    } catch (err) {
      // A stopped workflow reply ends as stopped, keeping the text it had shown.
      if (signal.aborted) Object.assign(bot, { status: "stopped", content: bot.content || shown });
      else {
        this.platform.log.error({ err }, "chat reply crashed");
        bot.status = "failed";
        fail("internal");
      }
    } finally {
      if (this.platform.stopping.aborted && bot.status !== "failed") {
        bot.status = "failed";
        fail("restarting", 503);
      }
      if (signal.aborted && bot.status !== "failed") bot.status = "stopped";
      linked.release();
      startWrites();
      await writes.catch((err) => this.platform.log.error({ err }, "saving the question failed"));
      const saved = await this.saveReply(session.id, replyId, { ...bot, docs, widgets }).then(
        () => true,
        (err) => {
          this.platform.log.error({ err }, "saving the reply failed");
          return false;
        },
      );
      if (!saved) {
        // The asker cannot read this reply again: they are told, and it costs nothing.
        if (bot.status !== "failed") fail("notSaved");
        bot.status = "failed";
        if (p.charge) await this.refund(p.charge);
      }
      emit({ type: "stop", status: bot.status, usage: bot.usage });
      if (bot.status === "done")
        await this.agents()
          .replyDone(agent)
          .catch((err) => this.platform.log.warn({ err }, "after-reply bookkeeping failed"));
      if (bot.status === "done" && agent.agentType !== INSIGHT_AGENT_TYPE && agent.chatOption.enableChatInsight)
        await this.deps
          .insight?.()
          ?.replied({ caller, agent, sessionId: session.id, lang })
          .catch((err) => this.platform.log.warn({ err }, "queueing the chat insight failed"));
    }
  }

  /** Gives back an unsaved reply's charge; the database that lost the reply may be back a moment later. */
  private async refund(charge: ChatCharge) {
    const billing = this.deps.billing();
    if (!billing) return;
    for (let attempt = 0; ; attempt++) {
      try {
        return await billing.refundChat(charge);
      } catch (err) {
        if (attempt >= REFUND_RETRIES_MS.length) {
          this.platform.log.error({ err, charge }, "refunding an unsaved reply failed");
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, REFUND_RETRIES_MS[attempt]));
      }
    }
  }

  private async saveReply(
    sessionId: string,
    id: string,
    bot: {
      content: string;
      status: string;
      error: string | null;
      step: number;
      toolCalls: unknown[];
      questions: string[];
      docs: ChatDoc[];
      widgets: WidgetData[];
      usage: { inputTokens: number; outputTokens: number };
      insightStep: InsightStepItem[] | null;
    },
  ) {
    await this.repo.insertMessage({
      id,
      sessionId,
      role: "bot",
      content: bot.content,
      docs: bot.docs,
      widgetData: bot.widgets.length ? bot.widgets : null,
      status: bot.status,
      error: bot.error,
      step: bot.step,
      toolCalls: bot.toolCalls,
      questions: bot.questions,
      inputTokens: bot.usage.inputTokens,
      outputTokens: bot.usage.outputTokens,
      insightStep: bot.insightStep,
    });
    // Not in the insert's statement: a message and an update of its session in one statement
    // fail the message's foreign key (the row it checks was changed by the same statement).
    await this.repo.touch(sessionId);
  }

  // ---- sessions --------------------------------------------------------------------------------

  private toItem(s: SessionRow): SessionItem {
    return {
      session_id: s.id,
      title: s.title,
      create_time: s.createdAt.toISOString(),
      update_time: s.updatedAt.toISOString(),
      schema_id: s.agentId,
    };
  }

  private toMessage(m: MessageRow, lang: Language): ChatMessage {
    return {
      role: m.role === "user" ? "user" : "bot",
      content: m.content,
      uuid: m.id,
      time: m.createdAt.toISOString(),
      media: (m.media as ChatMessage["media"]) ?? [],
      docs: (m.docs as ChatMessage["docs"]) ?? [],
      function_call: (m.toolCalls as ChatMessage["function_call"]) ?? [],
      checkPluginsList: checkPluginsOf((m.toolCalls as ChatMessage["function_call"]) ?? []),
      step: m.step,
      ...widgetFields(readWidgetDataList(m.widgetData)),
      questions: (m.questions as string[]) ?? [],
      status: (m.status as ChatMessage["status"]) ?? null,
      ...errorOf(m.error, lang),
      files: (m.files as ChatFileRef[]) ?? [],
      ...(m.insightStep ? { insightStep: m.insightStep } : {}),
      feedback: (m.feedback as ChatMessage["feedback"]) ?? null,
    };
  }

  /** A conversation's newest messages, oldest first, for its analysis (chat insight); no caller check: jobs only. */
  async transcript(sessionId: string, limit: number) {
    const rows = await this.repo.messages(sessionId);
    return rows
      .filter((m) => m.content.trim())
      .slice(-limit)
      .map((m) => ({ role: m.role === "user" ? ("user" as const) : ("bot" as const), content: m.content }));
  }

  /** The report job keeps a report agent's reply in step with its report (a reopened session shows them). */
  async setInsightStep(messageId: string, steps: InsightStepItem[]) {
    await this.repo.setInsightStep(messageId, steps);
  }

  async list(
    caller: Caller,
    q: {
      page_number: number;
      page_size: number;
      search?: string;
      start_date?: string;
      end_date?: string;
      schema_id?: string;
      release?: boolean;
    },
  ) {
    const date = (v?: string, endOfDay = false) => {
      if (!v) return undefined;
      const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T${endOfDay ? "23:59:59.999" : "00:00:00"}+08:00` : v);
      if (Number.isNaN(d.getTime())) throw badRequest("badRequest", { detail: "date" });
      return d;
    };
    const { list, total } = await this.repo.listSessions(caller.userId, {
      page: q.page_number,
      size: q.page_size,
      search: q.search?.trim() || undefined,
      start: date(q.start_date),
      end: date(q.end_date, true),
      agentId: q.schema_id,
      release: q.release,
    });
    return { list: list.map((s) => this.toItem(s)), total };
  }

  async detail(caller: Caller, id: string, lang: Language): Promise<SessionDetail> {
    const session = await this.ownSession(caller, id, "read");
    const [messages, replying] = await Promise.all([
      this.repo.messages(session.id),
      session.userId === caller.userId ? this.replies.runningIn(session.id) : undefined,
    ]);
    return {
      ...this.toItem(session),
      messages: messages.map((m) => this.toMessage(m, lang)),
      readOnly: session.userId !== caller.userId,
      ...(replying ? { replying: { uuid: replying } } : {}),
    };
  }

  async rename(caller: Caller, id: string, title: string) {
    const session = await this.ownSession(caller, id, "write");
    const t = title.trim();
    if (!t) throw badRequest("sessionTitleEmpty");
    if ([...t].length > SESSION_TITLE_MAX) throw badRequest("sessionTitleTooLong");
    await this.repo.setTitle(session.id, t);
  }

  async remove(caller: Caller, id: string) {
    const session = await this.ownSession(caller, id, "write");
    await this.repo.deleteSession(session.id);
    await this.memory.forgetSession(session.userId, session.id);
  }

  async clear(caller: Caller, id: string) {
    const session = await this.ownSession(caller, id, "write");
    await this.repo.clearMessages(session.id);
  }

  async export(caller: Caller, id: string, format: "markdown" | "json", lang: Language, timeZone = DEFAULT_TIME_ZONE) {
    const detail = await this.detail(caller, id, lang);
    const time = readableTime(timeZone);
    const filename = `${detail.title || "chat"}.${format === "json" ? "json" : "md"}`;
    if (format === "json") return { filename, contentType: "application/json; charset=utf-8", body: JSON.stringify(detail, null, 2) };
    const lines = [`# ${detail.title || "对话"}`, "", `- 会话：${detail.session_id}`, `- 创建时间：${time(detail.create_time)}`, ""];
    for (const m of detail.messages) {
      lines.push(`## ${m.role === "user" ? "用户" : "智能体"}（${time(m.time)}）`, "");
      for (const call of m.function_call)
        lines.push(`> 工具调用：${call.metaInfo.name}（${call.function.arguments}）→ ${call.result ?? ""}`, "");
      lines.push(m.content || (m.error ? `*${m.error}*` : ""), "");
      if (m.questions.length) lines.push("推荐提问：", ...m.questions.map((q) => `- ${q}`), "");
    }
    return { filename, contentType: "text/markdown; charset=utf-8", body: lines.join("\n") };
  }

  // ---- agent info, share, usage ------------------------------------------------------------------

  async agentInfo(caller: Caller, agentId: string, release: boolean): Promise<ChatAgentInfo> {
    const agent = await this.agents().runtimeAgent(caller, agentId, { release });
    const tools = await this.deps.tools.toolsFor({ caller, agent, sessionId: "" });
    return {
      id: agent.agentId,
      agentName: agent.agentName,
      agentDescription: agent.agentDescription,
      agentIcon: agent.agentIcon,
      agentIconBackground: agent.agentIconBackground,
      price: agent.priceCents / 100,
      usageGuide: agent.usageGuide,
      chatOption: { prologue: agent.chatOption.prologue, presetQuestions: agent.chatOption.presetQuestions },
      skills: [...tools.values()].map((t) => t.displayName),
      chatCount: await this.repo.countReplies(caller.userId, agent.agentId),
      membershipRequired: this.deps.billing()?.chatNeedsMembership(caller, agent) ?? false,
      chargesPerUse: agent.priceCents > 0 && agent.ownerId !== caller.userId && !!this.deps.billing(),
      ownerReadsConversations: ownerReadsConversations(agent, caller),
    };
  }

  private sign(shareId: string) {
    return createHmac("sha256", this.platform.secret).update(`chat-share:${shareId}`).digest("base64url").slice(0, 32);
  }

  /** A signed, revocable token for read-only access to one session: the live one, or a new one. */
  async shareToken(caller: Caller, sessionId: string) {
    const session = await this.ownSession(caller, sessionId, "write");
    const share = (await this.repo.liveShare(session.id)) ?? (await this.repo.createShare(session.id, caller.userId));
    return { shareToken: `${share.id}.${this.sign(share.id)}`, session_id: session.id, schema_id: session.agentId };
  }

  async revokeShares(caller: Caller, sessionId: string) {
    const session = await this.ownSession(caller, sessionId, "write");
    await this.repo.revokeShares(session.id);
  }

  /** What a share link shows: the session read-only, to any signed-in user holding a valid token. */
  async shared(token: string, lang: Language) {
    const [id, mac] = token.split(".");
    const expected = id ? this.sign(id) : "";
    if (!id || !mac || mac.length !== expected.length || !timingSafeEqual(Buffer.from(mac), Buffer.from(expected))) throw notFound();
    const share = await this.repo.share(id);
    if (!share) throw notFound();
    const session = await this.repo.session(share.sessionId);
    if (!session) throw notFound();
    const messages = await this.repo.messages(session.id);
    return {
      session: { ...this.toItem(session), messages: messages.map((m) => this.toMessage(m, lang)), readOnly: true },
      agent: {
        id: session.agentId,
        agentName: session.agentName,
        agentIcon: session.agentIcon,
        agentIconBackground: session.agentIconBackground,
      },
    };
  }

  async heartbeat(
    caller: Caller,
    body: { sessionId?: string | null; agentId: string; types?: string | null; tags?: string | null; categorys?: string | null },
  ) {
    if (body.sessionId) await this.ownSession(caller, body.sessionId, "write");
    const seconds = await this.repo.heartbeat(
      {
        userId: caller.userId,
        agentId: body.agentId,
        sessionId: body.sessionId ?? null,
        types: body.types ?? null,
        tags: body.tags ?? null,
        categorys: body.categorys ?? null,
      },
      HEARTBEAT_SECONDS * 2,
    );
    return { seconds };
  }
}
