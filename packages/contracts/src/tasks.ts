import { z } from "zod";
import { pageOf } from "./common.ts";

/**
 * Task schedule and task management (doc 2 §1, §3 scheduled task: type, trigger by time or email,
 * cron expression, cycle daily / weekly / monthly, server address, port, apikey, email account, protocol;
 * §5 the cron expression is required). The spec leaves the calls out; ours are under
 * /aiagent_api/task (beyond the spec).
 */
export const TASK_TARGET_TYPES = ["agent", "workflow"] as const;
/** api: a caller holding the task's apikey starts a run over HTTP (POST /aiagent_api/task/{id}/trigger). */
export const TASK_TRIGGER_TYPES = ["cron", "cycle", "email", "api"] as const;
export const TASK_RUN_TRIGGERS = ["schedule", "manual", "email", "api"] as const;
/** A task's apikey starts with this, so a leaked one is recognisable. */
export const TASK_API_KEY_PREFIX = "aft_";
/** Runs an apikey may start per minute unless the owner says otherwise (0 disables the limit, doc 2 §9). */
export const TASK_API_DEFAULT_PER_MINUTE = 10;
/** What an API call may add to the prompt (the same room as a triggering mail). */
export const TASK_API_INPUT_MAX = 8000;
export const TASK_CYCLES = ["daily", "weekly", "monthly"] as const;
export const TASK_DELIVERIES = ["in_app", "email", "robot"] as const;
/** How an e-mail trigger reaches its mailbox: IMAP over TLS, or IMAP upgraded by STARTTLS when offered. */
export const TASK_MAIL_PROTOCOLS = ["imaps", "imap"] as const;
export const TASK_MAIL_DEFAULT_PORT: Record<(typeof TASK_MAIL_PROTOCOLS)[number], number> = { imaps: 993, imap: 143 };
/** How much of a triggering mail (subject, sender and text) the agent is asked. */
export const TASK_MAIL_INPUT_MAX = 8000;
export const TASK_RUN_STATUSES = ["QUEUED", "RUNNING", "SUCCEEDED", "FAILED"] as const;
/** Prompt or input content max 1500 bytes (doc 2 §5). */
export const TASK_PROMPT_MAX_BYTES = 1500;
export const TASK_PAGE_SIZE = 20;
export const TASK_RUN_PAGE_SIZE = 20;
/** The zone cycles and cron expressions are read in. */
export const TASK_TIME_ZONE = "Asia/Shanghai";
/** Tries of one run (the first and its retries). */
export const TASK_RUN_TRIES = 3;
/** At most this many tasks per user. */
export const TASK_MAX_PER_USER = 50;
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

export const taskInput = z.object({
  name: z.string().trim().max(50).default(""),
  targetType: z.enum(TASK_TARGET_TYPES).default("agent"),
  targetId: z.string().max(64).default(""),
  prompt: z.string().default(""),
  triggerType: z.enum(TASK_TRIGGER_TYPES).default("cycle"),
  cron: z.string().trim().max(120).default(""),
  cycle: z.enum(TASK_CYCLES).default("daily"),
  /** HH:mm in TASK_TIME_ZONE. */
  cycleTime: z.string().regex(HH_MM).default("09:00"),
  /** 0 Sunday … 6 Saturday, for weekly. */
  cycleWeekday: z.number().int().min(0).max(6).default(1),
  /** 1 … 28, for monthly (every month has it). */
  cycleMonthday: z.number().int().min(1).max(28).default(1),
  delivery: z.enum(TASK_DELIVERIES).default("in_app"),
  email: z.string().trim().max(200).default(""),
  /** For delivery by robot: one of the caller's chat robots, and whom it sends to. */
  robotId: z.string().max(64).default(""),
  robotRecipient: z.string().trim().max(200).default(""),
  /** For an e-mail trigger: the mailbox (server address, port, protocol, account); an empty password keeps the stored one. */
  mailHost: z.string().trim().max(200).default(""),
  mailPort: z.number().int().min(1).max(65535).optional(),
  mailProtocol: z.enum(TASK_MAIL_PROTOCOLS).default("imaps"),
  mailAccount: z.string().trim().max(200).default(""),
  mailPassword: z.string().max(500).default(""),
  /** For an API trigger: runs per minute one apikey may start (0 disables the limit). */
  apiRequestsPerMinute: z.number().int().min(0).max(600).default(TASK_API_DEFAULT_PER_MINUTE),
});
export type TaskInput = z.input<typeof taskInput>;

export const task = z.object({
  id: z.string(),
  name: z.string(),
  targetType: z.enum(TASK_TARGET_TYPES),
  targetId: z.string(),
  targetName: z.string(),
  prompt: z.string(),
  triggerType: z.enum(TASK_TRIGGER_TYPES),
  cron: z.string(),
  cycle: z.enum(TASK_CYCLES).nullable(),
  cycleTime: z.string().nullable(),
  cycleWeekday: z.number().nullable(),
  cycleMonthday: z.number().nullable(),
  delivery: z.enum(TASK_DELIVERIES),
  email: z.string(),
  robotId: z.string(),
  robotName: z.string(),
  robotRecipient: z.string(),
  mailHost: z.string(),
  mailPort: z.number().nullable(),
  mailProtocol: z.enum(TASK_MAIL_PROTOCOLS).nullable(),
  mailAccount: z.string(),
  /** Whether a mailbox password is stored (it is never returned). */
  mailPasswordSet: z.boolean(),
  /** Why the last look into the mailbox failed; null when it worked. */
  mailError: z.string().nullable(),
  /** For an API trigger: the start of its apikey (the key itself is shown once), and its limit per minute. */
  apiKeyPrefix: z.string(),
  apiRequestsPerMinute: z.number(),
  /** The whole apikey: only in the answer that made it (creating an API task, or a new key). */
  apiKey: z.string().optional(),
  enabled: z.boolean(),
  nextRunAt: z.string().nullable(),
  lastRunAt: z.string().nullable(),
  lastStatus: z.enum(TASK_RUN_STATUSES).nullable(),
  createdAt: z.string(),
});
export type Task = z.infer<typeof task>;

export const taskPageRequest = z.object({
  pageNo: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(TASK_PAGE_SIZE),
  name: z.string().max(50).optional(),
});
export const taskPage = pageOf(task);

export const taskRun = z.object({
  id: z.string(),
  taskId: z.string(),
  trigger: z.enum(TASK_RUN_TRIGGERS),
  /** The mail that triggered the run (subject, sender, text), or the input an API call sent; empty for other runs. */
  input: z.string(),
  status: z.enum(TASK_RUN_STATUSES),
  attempts: z.number(),
  dueAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  output: z.string(),
  error: z.string().nullable(),
  sessionId: z.string().nullable(),
});
export type TaskRun = z.infer<typeof taskRun>;
export const taskRunPage = pageOf(taskRun);

export const taskNotice = z.object({
  id: z.string(),
  taskId: z.string(),
  runId: z.string(),
  kind: z.enum(["succeeded", "failed"]),
  title: z.string(),
  body: z.string(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type TaskNotice = z.infer<typeof taskNotice>;
export const taskNotices = z.object({ list: z.array(taskNotice), unread: z.number() });

/** What a task may run: the caller's agents and released workflows. */
export const taskTarget = z.object({ id: z.string(), name: z.string(), type: z.enum(TASK_TARGET_TYPES) });
/** Where a task may deliver by robot: the caller's chat robots. */
export const taskRobot = z.object({ id: z.string(), name: z.string(), type: z.string() });
export const taskCronPreview = z.object({ valid: z.boolean(), next: z.array(z.string()) });

/** An API call's run: the caller's text is added to the task's prompt. */
export const taskTriggerRequest = z.object({ input: z.string().max(TASK_API_INPUT_MAX).default("") });
/** A new apikey of an API-triggered task (shown this once). */
export const taskApiKey = z.object({ apiKey: z.string(), apiKeyPrefix: z.string() });
