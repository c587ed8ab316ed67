import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns.ts";
import { ownedColumns } from "./owned.ts";

/**
 * Scheduled tasks (Task schedule and task management): an agent or a released workflow asked a
 * prompt on a trigger. A cycle is kept as its own fields for the form and as the cron it means,
 * so the scheduler reads one thing.
 */
export const scheduledTasks = pgTable(
  "scheduled_tasks",
  {
    id: id(),
    ...ownedColumns(),
    name: text("name").notNull(),
    /** agent | workflow */
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    prompt: text("prompt").notNull(),
    /** cron | cycle | email | api */
    triggerType: text("trigger_type").notNull(),
    cron: text("cron").notNull(),
    /** daily | weekly | monthly, for a cycle trigger */
    cycle: text("cycle"),
    cycleTime: text("cycle_time"),
    cycleWeekday: integer("cycle_weekday"),
    cycleMonthday: integer("cycle_monthday"),
    /** in_app | email | robot */
    delivery: text("delivery").notNull(),
    email: text("email"),
    /** For delivery by robot: the owner's chat robot and whom it sends to (a platform user or chat id). */
    robotId: text("robot_id"),
    robotRecipient: text("robot_recipient"),
    /** For an e-mail trigger: the mailbox read over IMAP; the password is sealed. */
    mailHost: text("mail_host"),
    mailPort: integer("mail_port"),
    /** imaps (TLS from the start) | imap (STARTTLS when offered) */
    mailProtocol: text("mail_protocol"),
    mailAccount: text("mail_account"),
    mailPasswordEnc: text("mail_password_enc"),
    /** The mailbox's UIDVALIDITY and the last UID seen in it: mail up to it has been taken. */
    mailUidValidity: text("mail_uid_validity"),
    mailLastUid: integer("mail_last_uid"),
    /** Why the last poll of the mailbox failed; null after a good one. */
    mailError: text("mail_error"),
    /** For an API trigger: the apikey's HMAC (the key is shown once), its first characters, and its runs per minute. */
    apiKeyHash: text("api_key_hash"),
    apiKeyPrefix: text("api_key_prefix"),
    apiRequestsPerMinute: integer("api_requests_per_minute").notNull().default(10),
    enabled: boolean("enabled").notNull().default(true),
    /** When the scheduler runs it next; null while paused. */
    nextRunAt: timestamp("next_run_at", { withTimezone: true }),
    lastRunAt: timestamp("last_run_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("scheduled_tasks_owner").on(t.ownerId), index("scheduled_tasks_due").on(t.nextRunAt).where(sql`${t.enabled}`)],
);

/** One run of a task: the history, with the session the result went to. */
export const taskRuns = pgTable(
  "task_runs",
  {
    id: id(),
    taskId: text("task_id")
      .notNull()
      .references(() => scheduledTasks.id, { onDelete: "cascade" }),
    /** schedule | manual | email | api */
    trigger: text("trigger").notNull(),
    /** What the run asks besides the task's prompt: the mail that triggered it. */
    input: text("input").notNull().default(""),
    /** QUEUED | RUNNING | SUCCEEDED | FAILED */
    status: text("status").notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** The time it was due (schedule) or asked for (manual). */
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    output: text("output").notNull().default(""),
    error: text("error"),
    sessionId: text("session_id"),
    createdAt: createdAt(),
  },
  (t) => [index("task_runs_task").on(t.taskId, t.createdAt)],
);

/** In-app notices to a task's owner: a finished run, a failed one. */
export const taskNotices = pgTable(
  "task_notices",
  {
    id: id(),
    ...ownedColumns(),
    taskId: text("task_id")
      .notNull()
      .references(() => scheduledTasks.id, { onDelete: "cascade" }),
    runId: text("run_id").notNull(),
    /** succeeded | failed */
    kind: text("kind").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("task_notices_owner").on(t.ownerId, t.createdAt)],
);
