import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import {
  isEmail,
  type Language,
  TASK_API_KEY_PREFIX,
  TASK_MAIL_DEFAULT_PORT,
  TASK_MAX_PER_USER,
  TASK_PROMPT_MAX_BYTES,
  TASK_RUN_PAGE_SIZE,
  TASK_RUN_TRIES,
  type Task,
  type TaskNotice,
  type TaskRun,
  type taskInput,
} from "@agentfair/contracts";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import { users } from "../../db/schema/index.ts";
import { type Caller, callerOfUser } from "../../platform/auth.ts";
import { LinkedAbortController } from "../../platform/abort.ts";
import { AppError, badRequest, notFound } from "../../platform/errors.ts";
import { insertWithinLimit } from "../../platform/count-limit.ts";
import { translate } from "../../platform/messages.ts";
import type { Platform } from "../../platform/platform.ts";
import { openSecret, sealSecret } from "../../platform/secret.ts";
import type { AgentsService } from "../agents/agents.service.ts";
import type { ChatService } from "../chat/chat.service.ts";
import type { WorkflowsService } from "../workflows/workflows.service.ts";
import { cronProblem, cycleCron, MIN_GAP_MS, nextRun, nextRuns } from "./cron.ts";
import { MAIL_LOOK_TIMEOUT_MS, MailLookTimeout, newMail } from "./mailbox.ts";
import { type TaskRow, type TaskRunRow, TasksRepository } from "./tasks.repository.ts";

export const RUN_JOB = "tasks.run";
export const TICK_JOB = "tasks.tick";
export const MAIL_JOB = "tasks.mail";
const SECRET_PURPOSE = "tasks.mailbox";
/** Mailboxes one look reads at most; the rest are read by the next look. */
const MAIL_BATCH = 50;
/** Mailboxes looked into at the same time. */
const MAIL_LOOKS_AT_ONCE = 5;
/** Runs one owner may have waiting or running before run now, API calls and mail start no more. */
export const TASK_PENDING_RUNS_MAX = 30;
/** A run that takes longer is stopped and counts as a failed try. */
const RUN_TIMEOUT_MS = 5 * 60_000;
/** A report agent's run waits this long for its report, then delivers its link. */
const REPORT_WAIT_MS = 3 * 60_000;
/** Due tasks one tick takes at most; the rest are taken by the next tick. */
const TICK_BATCH = 200;
const NOTICE_BODY_MAX = 500;
/** Looks at a run an apikey may take per minute (polling for the answer), beside the runs it starts. */
const API_POLLS_PER_MINUTE = 120;

/** What tasks need of the chat robots: the caller's robots, and a result sent by one of them. */
export interface RobotsForTasks {
  list(caller: Caller): Promise<{ id: string; name: string; type: string }[]>;
  deliver(caller: Caller, robotId: string, recipient: string, text: string): Promise<void>;
}

export interface TasksDeps {
  agents: () => AgentsService;
  workflows: () => WorkflowsService;
  chat: () => ChatService;
  robots: () => RobotsForTasks;
}

type Input = z.output<typeof taskInput>;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export class TasksService {
  private readonly repo: TasksRepository;
  /** How long one look into a mailbox may take (tests shorten it). */
  mailLookTimeoutMs = MAIL_LOOK_TIMEOUT_MS;

  constructor(
    private readonly platform: Platform,
    private readonly deps: TasksDeps,
  ) {
    this.repo = new TasksRepository(platform.db);
    platform.jobs.define<{ runId: string }>(
      RUN_JOB,
      { retryLimit: TASK_RUN_TRIES - 1, retryDelaySeconds: 30, expireInSeconds: RUN_TIMEOUT_MS / 1000 + 60, concurrency: 4 },
      (job) => this.execute(job.data.runId, { retryCount: job.retryCount, retryLimit: job.retryLimit }),
    );
    platform.jobs.schedule(TICK_JOB, "* * * * *", async () => {
      await this.tick();
    });
    platform.jobs.schedule(MAIL_JOB, "* * * * *", async () => {
      await this.pollMail();
    });
  }

  // ---- access ------------------------------------------------------------------------------------

  /** The one owner and tenant check of tasks and their runs: anyone else's task is not found. */
  private async owned(caller: Caller, id: string): Promise<TaskRow> {
    const row = await this.repo.byId(id);
    if (!row || row.ownerId !== caller.userId || row.tenantId !== caller.tenantId) throw notFound();
    return row;
  }

  /** What the caller's tasks may run: its released agents and released workflows. */
  /** Where the caller's tasks may deliver by robot. */
  async robots(caller: Caller) {
    return (await this.deps.robots().list(caller)).map((r) => ({ id: r.id, name: r.name, type: r.type }));
  }

  async targets(caller: Caller) {
    const agents = await this.deps.agents().mine(caller, { page: 1, size: 99 });
    const wfs = await this.deps.workflows().page(caller, { pageNumber: 0, pageSize: 100 });
    return [
      ...agents.list
        .filter((a) => a.agentStatus.includes("Released") && !a.agentStatus.includes("Unreleased"))
        .map((a) => ({ id: a.agentId, name: a.agentName, type: "agent" as const })),
      ...wfs.content.filter((w) => w.releasedVersion !== null).map((w) => ({ id: w.id, name: w.workflowName, type: "workflow" as const })),
    ];
  }

  // ---- tasks -------------------------------------------------------------------------------------

  /** The form's rules with the spec's required-field messages; answers the columns to write. */
  private async check(caller: Caller, input: Input, stored?: TaskRow) {
    if (!input.name) throw badRequest("taskNameRequired");
    if (!input.targetId) throw badRequest("taskTargetRequired");
    const target = (await this.targets(caller)).find((t) => t.id === input.targetId && t.type === input.targetType);
    if (!target) throw badRequest("taskTargetNotReleased");
    if (!input.prompt.trim()) throw badRequest("taskPromptRequired");
    if (new TextEncoder().encode(input.prompt).length > TASK_PROMPT_MAX_BYTES)
      throw badRequest("taskPromptTooLong", { max: TASK_PROMPT_MAX_BYTES });
    let cron = "";
    if (input.triggerType === "email") {
      if (!input.mailHost) throw badRequest("taskMailHostRequired");
      if (!input.mailAccount) throw badRequest("taskMailAccountRequired");
      if (!input.mailPassword && !stored?.mailPasswordEnc) throw badRequest("taskMailPasswordRequired");
    } else if (input.triggerType === "api") {
      // Started by calls with the apikey, never by the clock.
    } else if (input.triggerType === "cron") {
      if (!input.cron) throw badRequest("taskCronRequired");
      const problem = cronProblem(input.cron);
      if (problem === "invalid") throw badRequest("taskCronInvalid");
      if (problem === "tooOften") throw badRequest("taskCronTooOften", { minutes: MIN_GAP_MS / 60_000 });
      cron = input.cron.trim().split(/\s+/).join(" ");
    } else {
      cron = cycleCron(input.cycle, input.cycleTime, input.cycleWeekday, input.cycleMonthday);
    }
    if (input.delivery === "email" && input.email && !isEmail(input.email)) throw badRequest("taskEmailInvalid");
    if (input.delivery === "robot") {
      if (!input.robotId) throw badRequest("taskRobotRequired");
      const robot = (await this.deps.robots().list(caller)).find((r) => r.id === input.robotId);
      if (!robot) throw badRequest("taskRobotRequired");
      if (!input.robotRecipient && robot.type !== "webhook") throw badRequest("taskRobotRecipientRequired");
    }
    const cycle = input.triggerType === "cycle";
    const mail = input.triggerType === "email";
    const robot = input.delivery === "robot";
    const api = input.triggerType === "api";
    // Another mailbox starts over: its UIDs are not the old one's.
    const sameBox =
      mail && stored?.mailHost === input.mailHost && stored.mailAccount === input.mailAccount && stored.triggerType === "email";
    return {
      name: input.name,
      targetType: input.targetType,
      targetId: input.targetId,
      prompt: input.prompt,
      triggerType: input.triggerType,
      cron,
      cycle: cycle ? input.cycle : null,
      cycleTime: cycle ? input.cycleTime : null,
      cycleWeekday: cycle && input.cycle === "weekly" ? input.cycleWeekday : null,
      cycleMonthday: cycle && input.cycle === "monthly" ? input.cycleMonthday : null,
      delivery: input.delivery,
      email: input.delivery === "email" ? input.email || null : null,
      robotId: robot ? input.robotId : null,
      robotRecipient: robot ? input.robotRecipient : null,
      mailHost: mail ? input.mailHost : null,
      mailPort: mail ? (input.mailPort ?? TASK_MAIL_DEFAULT_PORT[input.mailProtocol]) : null,
      mailProtocol: mail ? input.mailProtocol : null,
      mailAccount: mail ? input.mailAccount : null,
      mailPasswordEnc: !mail
        ? null
        : input.mailPassword
          ? sealSecret(this.platform.secret, SECRET_PURPOSE, input.mailPassword)
          : (stored?.mailPasswordEnc ?? null),
      mailUidValidity: sameBox ? stored.mailUidValidity : null,
      mailLastUid: sameBox ? stored.mailLastUid : null,
      mailError: sameBox ? stored.mailError : null,
      apiRequestsPerMinute: input.apiRequestsPerMinute,
      // An API task keeps its key through edits; one that stops being one loses it.
      ...(api ? {} : { apiKeyHash: null, apiKeyPrefix: null }),
    };
  }

  private apiKeyHash(key: string) {
    return createHmac("sha256", this.platform.secret).update(`task-key:${key}`).digest("hex");
  }

  /** A new apikey: the columns that keep it (its HMAC and first characters) and the key, shown once. */
  private newApiKey() {
    const apiKey = `${TASK_API_KEY_PREFIX}${randomBytes(24).toString("base64url")}`;
    return { apiKey, columns: { apiKeyHash: this.apiKeyHash(apiKey), apiKeyPrefix: apiKey.slice(0, TASK_API_KEY_PREFIX.length + 6) } };
  }

  /** When the scheduler runs a task next: never for a mail or API trigger (mail and calls start its runs). */
  private nextOf(values: { triggerType: string; cron: string }) {
    return values.triggerType === "email" || values.triggerType === "api" ? null : nextRun(values.cron, new Date());
  }

  async create(caller: Caller, input: Input): Promise<Task> {
    const values = await this.check(caller, input);
    const key = values.triggerType === "api" ? this.newApiKey() : null;
    const row = await insertWithinLimit(this.platform.db, `tasks:${caller.userId}`, TASK_MAX_PER_USER, {
      count: (tx) => this.repo.countOf(caller.userId, tx),
      refuse: (max) => badRequest("taskTooMany", { max }),
      insert: (tx) =>
        this.repo.insert(
          {
            ...values,
            ...key?.columns,
            ownerId: caller.userId,
            tenantId: caller.tenantId,
            enabled: true,
            nextRunAt: this.nextOf(values),
          },
          tx,
        ),
    });
    const [wired] = await this.wire(caller, [row]);
    return key ? { ...wired, apiKey: key.apiKey } : wired;
  }

  async update(caller: Caller, id: string, input: Input): Promise<Task> {
    const old = await this.owned(caller, id);
    const values = await this.check(caller, input, old);
    // A task that becomes API-triggered gets its first key (shown in this answer).
    const key = values.triggerType === "api" && !old.apiKeyHash ? this.newApiKey() : null;
    const row = await this.repo.update(id, { ...values, ...key?.columns, nextRunAt: old.enabled ? this.nextOf(values) : null });
    const [wired] = await this.wire(caller, [row]);
    return key ? { ...wired, apiKey: key.apiKey } : wired;
  }

  /** A new apikey for an API-triggered task: the old one stops working at once. */
  async regenerateApiKey(caller: Caller, id: string) {
    const task = await this.owned(caller, id);
    if (task.triggerType !== "api") throw badRequest("taskNotApiTriggered");
    const key = this.newApiKey();
    await this.repo.update(id, key.columns);
    return { apiKey: key.apiKey, apiKeyPrefix: key.columns.apiKeyPrefix };
  }

  async get(caller: Caller, id: string): Promise<Task> {
    return this.wire(caller, [await this.owned(caller, id)]).then((l) => l[0]);
  }

  async remove(caller: Caller, id: string) {
    await this.owned(caller, id);
    await this.repo.remove(id);
  }

  /** Pause keeps the task and its history; resume schedules from now (missed times are not made up). */
  async setEnabled(caller: Caller, id: string, enabled: boolean): Promise<Task> {
    const row = await this.owned(caller, id);
    const updated = await this.repo.update(id, { enabled, nextRunAt: enabled ? this.nextOf(row) : null });
    return this.wire(caller, [updated]).then((l) => l[0]);
  }

  async page(caller: Caller, req: { pageNo: number; pageSize: number; name?: string }) {
    const { list, total } = await this.repo.page(
      caller.userId,
      caller.tenantId,
      req.name?.trim() || undefined,
      (req.pageNo - 1) * req.pageSize,
      req.pageSize,
    );
    return { list: await this.wire(caller, list), total };
  }

  private async wire(caller: Caller, rows: TaskRow[]): Promise<Task[]> {
    const names = new Map((await this.targets(caller)).map((t) => [`${t.type}:${t.id}`, t.name]));
    const robots = new Map((await this.deps.robots().list(caller)).map((r) => [r.id, r.name]));
    const last = await this.repo.lastStatuses(rows.map((r) => r.id));
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      targetType: r.targetType as Task["targetType"],
      targetId: r.targetId,
      targetName: names.get(`${r.targetType}:${r.targetId}`) ?? "",
      prompt: r.prompt,
      triggerType: r.triggerType as Task["triggerType"],
      cron: r.cron,
      cycle: r.cycle as Task["cycle"],
      cycleTime: r.cycleTime,
      cycleWeekday: r.cycleWeekday,
      cycleMonthday: r.cycleMonthday,
      delivery: r.delivery as Task["delivery"],
      email: r.email ?? "",
      robotId: r.robotId ?? "",
      robotName: r.robotId ? (robots.get(r.robotId) ?? "") : "",
      robotRecipient: r.robotRecipient ?? "",
      mailHost: r.mailHost ?? "",
      mailPort: r.mailPort,
      mailProtocol: r.mailProtocol as Task["mailProtocol"],
      mailAccount: r.mailAccount ?? "",
      mailPasswordSet: !!r.mailPasswordEnc,
      mailError: r.mailError,
      apiKeyPrefix: r.apiKeyPrefix ?? "",
      apiRequestsPerMinute: r.apiRequestsPerMinute,
      enabled: r.enabled,
      nextRunAt: iso(r.nextRunAt),
      lastRunAt: iso(r.lastRunAt),
      lastStatus: (last.get(r.id) as Task["lastStatus"]) ?? null,
      createdAt: r.createdAt.toISOString(),
    }));
  }

  /** The next five times of a cron expression or a cycle, for the form. */
  preview(expr: string) {
    if (cronProblem(expr)) return { valid: false, next: [] };
    return { valid: true, next: nextRuns(expr, new Date(), 5).map((d) => d.toISOString()) };
  }

  // ---- runs --------------------------------------------------------------------------------------

  async runs(caller: Caller, id: string, pageNo: number): Promise<{ list: TaskRun[]; total: number }> {
    await this.owned(caller, id);
    const { list, total } = await this.repo.runs(id, (pageNo - 1) * TASK_RUN_PAGE_SIZE, TASK_RUN_PAGE_SIZE);
    return { list: list.map(runWire), total };
  }

  /** Run now, beside the schedule (which it does not move). */
  async runNow(caller: Caller, id: string): Promise<TaskRun> {
    const task = await this.owned(caller, id);
    const run = await this.queueRun(task, { trigger: "manual", dueAt: new Date() });
    this.dispatch(run.id);
    return runWire(run);
  }

  /**
   * A run asked for now (run now, an API call), unless the owner already has TASK_PENDING_RUNS_MAX
   * waiting or running: the runs of all users share one queue, and one user's thousand runs would
   * hold back everyone's scheduled ones.
   */
  private queueRun(task: TaskRow, run: { trigger: "manual" | "api"; dueAt: Date; input?: string }) {
    return insertWithinLimit(this.platform.db, `task-runs:${task.ownerId}`, TASK_PENDING_RUNS_MAX, {
      count: (tx) => this.repo.pendingRunsOf(task.ownerId, tx),
      refuse: (max) => new AppError("taskRunsPending", 429, { max }),
      insert: (tx) => this.repo.insertRun({ taskId: task.id, status: "QUEUED", ...run }, tx),
    });
  }

  // ---- the API trigger -------------------------------------------------------------------------

  /**
   * The task an apikey opens. A missing task, another task's key, a task that is not API-triggered,
   * a stopped owner's task and a wrong key are refused alike (401), so a caller learns nothing about tasks it has no key of.
   */
  private async byApiKey(taskId: string, bearer: string | undefined): Promise<TaskRow> {
    const refuse = () => new AppError("taskApiKeyInvalid", 401);
    if (!bearer?.startsWith(TASK_API_KEY_PREFIX) || bearer.length > 200) throw refuse();
    const task = await this.repo.byId(taskId);
    if (task?.triggerType !== "api" || !task.apiKeyHash) throw refuse();
    const given = Buffer.from(this.apiKeyHash(bearer), "hex");
    const stored = Buffer.from(task.apiKeyHash, "hex");
    if (given.length !== stored.length || !timingSafeEqual(given, stored)) throw refuse();
    // A stopped account's key opens nothing, as if it were wrong.
    if (!(await this.repo.ownerIsActive(task.ownerId))) throw refuse();
    return task;
  }

  /** A run started by a call with the task's apikey: the caller's input is added to the prompt. */
  async trigger(taskId: string, bearer: string | undefined, input: string): Promise<TaskRun> {
    const task = await this.byApiKey(taskId, bearer);
    if (!task.enabled) throw new AppError("taskPaused", 409);
    const limit = task.apiRequestsPerMinute;
    if (limit > 0)
      await this.platform.rateLimiter.take(
        `task:api:${task.id}`,
        limit,
        60,
        (seconds) => new AppError("taskApiLimited", 429, { seconds, limit }),
      );
    const now = new Date();
    const run = await this.queueRun(task, { trigger: "api", dueAt: now, input: input.trim() });
    await this.repo.update(task.id, { lastRunAt: now });
    this.dispatch(run.id);
    return runWire(run);
  }

  /** One run of the task, for a caller with its apikey polling for the answer. */
  async triggeredRun(taskId: string, runId: string, bearer: string | undefined): Promise<TaskRun> {
    const task = await this.byApiKey(taskId, bearer);
    await this.platform.rateLimiter.take(
      `task:api-poll:${task.id}`,
      API_POLLS_PER_MINUTE,
      60,
      (seconds) => new AppError("taskApiLimited", 429, { seconds, limit: API_POLLS_PER_MINUTE }),
    );
    const run = await this.repo.run(runId);
    if (!run || run.taskId !== task.id) throw notFound();
    return runWire(run);
  }

  private dispatch(runId: string) {
    this.platform.jobs.send(RUN_JOB, { runId }).catch((err) => {
      // Without a started queue (tests, a web-only process before start) the run waits for execute().
      this.platform.log.warn({ err, runId }, "task run not queued");
    });
  }

  /**
   * The minute's schedule (a pg-boss schedule: once across processes): every enabled task whose
   * time has come gets one run and its next time. Answers the runs written.
   */
  async tick(now = new Date()): Promise<string[]> {
    const runIds: string[] = [];
    for (const task of await this.repo.due(now, TICK_BATCH)) {
      let next: Date;
      try {
        next = nextRun(task.cron, now);
      } catch {
        await this.repo.update(task.id, { enabled: false, nextRunAt: null });
        continue;
      }
      const run = await this.repo.claim(task, next, now);
      if (!run) continue;
      runIds.push(run.id);
      this.dispatch(run.id);
    }
    return runIds;
  }

  /**
   * The minute's look into the mailboxes of mail-triggered tasks (a pg-boss schedule: once across
   * processes, and the mark moves only once even if looks overlap): each new mail gets one run,
   * with the mail as the agent's input. Answers the runs written.
   */
  async pollMail(now = new Date()): Promise<string[]> {
    const runIds: string[] = [];
    const tasks = await this.repo.mailTasks(MAIL_BATCH);
    // A few mailboxes at a time, each look within its time: a slow server delays only its own task.
    const worker = async () => {
      for (let task = tasks.shift(); task; task = tasks.shift()) runIds.push(...(await this.lookIntoMailbox(task, now)));
    };
    await Promise.all(Array.from({ length: MAIL_LOOKS_AT_ONCE }, worker));
    return runIds;
  }

  /** One mailbox's look: the runs of its new mail (none when it could not be read; the task shows why). */
  private async lookIntoMailbox(task: TaskRow, now: Date): Promise<string[]> {
    if (!task.mailHost || !task.mailPort || !task.mailAccount || !task.mailPasswordEnc) return [];
    // An owner with runs enough waiting: the mail stays in the mailbox for a later look.
    const room = TASK_PENDING_RUNS_MAX - (await this.repo.pendingRunsOf(task.ownerId));
    if (room <= 0) return [];
    let found: Awaited<ReturnType<typeof newMail>>;
    try {
      found = await newMail(
        {
          host: task.mailHost,
          port: task.mailPort,
          protocol: task.mailProtocol === "imap" ? "imap" : "imaps",
          account: task.mailAccount,
          password: openSecret(this.platform.secret, SECRET_PURPOSE, task.mailPasswordEnc),
        },
        { uidValidity: task.mailUidValidity, lastUid: task.mailLastUid },
        this.platform.config.NET_ALLOW_HOSTS,
        { timeoutMs: this.mailLookTimeoutMs, maxMails: room },
      );
    } catch (err) {
      // Shown on the task (a wrong password, an unreachable server); the next look tries again.
      const text = err instanceof MailLookTimeout ? translate("taskMailTimeout", "zh", { seconds: err.seconds }) : errorText(err);
      await this.repo.update(task.id, { mailError: text.slice(0, 500) });
      return [];
    }
    const runs = await this.repo.claimMail(
      task,
      found.mark,
      found.mails.map((m) => m.text),
      now,
    );
    for (const run of runs) this.dispatch(run.id);
    return runs.map((r) => r.id);
  }

  /**
   * One try of a run (the job's handler). A failed try with tries left throws, so pg-boss tries
   * again later; the last failure is recorded, noticed and mailed, and does not throw.
   */
  async execute(runId: string, attempt: { retryCount: number; retryLimit: number } = { retryCount: 0, retryLimit: 0 }) {
    const run = await this.repo.startRun(runId);
    if (!run) return;
    const task = await this.repo.byId(run.taskId);
    if (!task) return;
    try {
      const result = await this.runTarget(task, run.input);
      await this.repo.updateRun(run.id, {
        status: "SUCCEEDED",
        finishedAt: new Date(),
        output: result.text,
        sessionId: result.sessionId,
        error: null,
      });
      await this.deliver(task, run, "succeeded", result.text);
    } catch (err) {
      const message = errorText(err);
      const last = attempt.retryCount >= attempt.retryLimit;
      await this.repo.updateRun(run.id, { status: last ? "FAILED" : "QUEUED", error: message, finishedAt: last ? new Date() : null });
      if (!last) throw err;
      await this.deliver(task, run, "failed", message);
    }
  }

  private async runTarget(task: TaskRow, input: string): Promise<{ text: string; sessionId: string | null }> {
    const owner = await callerOfUser(this.platform.db, this.platform.config, task.ownerId);
    if (!owner || owner.tenantId !== task.tenantId) throw new Error("the owner no longer exists");
    // A mail-triggered run asks the prompt about the mail that arrived, an API run about what the call sent.
    const query = input ? `${task.prompt}\n\n${input}` : task.prompt;
    const linked = new LinkedAbortController([AbortSignal.timeout(RUN_TIMEOUT_MS), this.platform.stopping]);
    try {
      return await this.runTargetWith(task, owner, query, linked.signal);
    } finally {
      linked.release();
    }
  }

  private async runTargetWith(task: TaskRow, owner: Caller, query: string, signal: AbortSignal) {
    if (task.targetType === "workflow") {
      const workflows = this.deps.workflows();
      const wf = await workflows.get(owner, task.targetId);
      const start = wf.released?.nodes.find((n) => n.type === "start" && !n.parentId);
      const first = (start?.data.inputs as { name: string }[] | undefined)?.[0]?.name;
      const runId = await workflows.start(owner, task.targetId, { version: "released", inputs: first ? { [first]: query } : {} });
      const outputs = await workflows.waitFor(runId, signal);
      const values = Object.values(outputs);
      const text = values.length === 1 && typeof values[0] === "string" ? values[0] : JSON.stringify(outputs, null, 2);
      return { text, sessionId: null };
    }
    // The chat runtime itself: billed as a chat, and the session is in the owner's history.
    const chat = this.deps.chat();
    const prepared = await chat.prepare(owner, { query, schema_id: task.targetId, release: true }, signal);
    // A report agent's run delivers the report's findings and link, not its "analysing…".
    const reply = await chat.answer(prepared, "zh", signal, { reportWaitMs: REPORT_WAIT_MS });
    if (reply.error) throw new Error(reply.error);
    return { text: reply.content, sessionId: prepared.session.id };
  }

  /** The in-app notice always; the mail too when the task delivers by e-mail (to its address or the owner's). */
  private async deliver(task: TaskRow, run: TaskRunRow, kind: "succeeded" | "failed", body: string) {
    await this.repo.insertNotice({
      ownerId: task.ownerId,
      tenantId: task.tenantId,
      taskId: task.id,
      runId: run.id,
      kind,
      title: task.name,
      body: body.slice(0, NOTICE_BODY_MAX),
    });
    if (task.delivery === "robot" && task.robotId) {
      const owner = await callerOfUser(this.platform.db, this.platform.config, task.ownerId);
      // The robot's own owner check: a robot the owner no longer has sends nothing.
      if (!owner || owner.tenantId !== task.tenantId) return;
      try {
        await this.deps.robots().deliver(owner, task.robotId, task.robotRecipient ?? "", body);
      } catch (err) {
        // The run's answer stays; the owner learns in a notice that the robot did not carry it.
        this.platform.log.warn({ err, taskId: task.id }, "task robot delivery failed");
        await this.repo.insertNotice({
          ownerId: task.ownerId,
          tenantId: task.tenantId,
          taskId: task.id,
          runId: run.id,
          kind: "failed",
          title: task.name,
          body: translate("taskRobotDeliveryFailed", "zh", { reason: errorText(err) }).slice(0, NOTICE_BODY_MAX),
        });
      }
      return;
    }
    if (task.delivery !== "email") return;
    const to = task.email || (await this.ownerEmail(task.ownerId));
    if (!to) return;
    const lang: Language = "zh";
    const subject = translate(kind === "succeeded" ? "taskMailSubject" : "taskMailFailedSubject", lang, { name: task.name });
    await this.platform.mailer
      .send(to, subject, body)
      .catch((err) => this.platform.log.error({ err, taskId: task.id }, "task mail failed"));
  }

  private async ownerEmail(userId: string) {
    const [row] = await this.platform.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
    return row?.email ?? null;
  }

  // ---- notices -----------------------------------------------------------------------------------

  async notices(caller: Caller): Promise<{ list: TaskNotice[]; unread: number }> {
    const { list, unread } = await this.repo.notices(caller.userId, caller.tenantId, 50);
    return {
      list: list.map((n) => ({
        id: n.id,
        taskId: n.taskId,
        runId: n.runId,
        kind: n.kind as TaskNotice["kind"],
        title: n.title,
        body: n.body,
        read: !!n.readAt,
        createdAt: n.createdAt.toISOString(),
      })),
      unread,
    };
  }

  async readNotices(caller: Caller) {
    await this.repo.readNotices(caller.userId, caller.tenantId);
  }
}

function errorText(err: unknown) {
  if (err instanceof AppError) return translate(err.key, "zh", err.params);
  return err instanceof Error ? err.message.slice(0, 1000) : String(err);
}

function runWire(r: TaskRunRow): TaskRun {
  return {
    id: r.id,
    taskId: r.taskId,
    trigger: r.trigger as TaskRun["trigger"],
    input: r.input,
    status: r.status as TaskRun["status"],
    attempts: r.attempts,
    dueAt: r.dueAt.toISOString(),
    startedAt: iso(r.startedAt),
    finishedAt: iso(r.finishedAt),
    output: r.output,
    error: r.error,
    sessionId: r.sessionId,
  };
}
