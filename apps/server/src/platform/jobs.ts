import PgBoss from "pg-boss";
import type { FastifyBaseLogger } from "fastify";
import type { ExecuteSql } from "../db/client.ts";
import { EVERYTHING, type Invalidation } from "./invalidation.ts";

export type JobHandler = () => Promise<void>;

/** A queued job's payload and how many times it has been retried so far. */
export interface QueuedJob<T> {
  id: string;
  data: T;
  retryCount: number;
  retryLimit: number;
}

export interface QueueOptions {
  /** Retries after a failure or an expired (killed) worker. */
  retryLimit: number;
  retryDelaySeconds: number;
  /** A job active this long is taken as its worker's death and retried. */
  expireInSeconds: number;
  /** How many jobs of the queue one worker process runs at once (default 1). */
  concurrency?: number;
}

/**
 * How often an idle worker looks for jobs nobody announced: retries whose delay has passed, and
 * jobs queued while the announcement was lost. Queued jobs are announced (see `send`), so this is
 * only the fallback; schedules' jobs come from pg-boss's cron monitor (CRON_CHECK_SECONDS).
 */
const POLLING_SECONDS = 10;
const CRON_CHECK_SECONDS = 15;

/**
 * Background jobs and schedules on pg-boss, in the same database on both drivers
 * (PGlite through its executeSql adapter). Modules register schedules before start;
 * with several processes pg-boss runs each scheduled job once.
 */
export class Jobs {
  private readonly schedules: { name: string; cron: string; handler: JobHandler }[] = [];
  private readonly queues: { name: string; options: QueueOptions; handler: (job: QueuedJob<unknown>) => Promise<void> }[] = [];
  private boss: PgBoss | null = null;
  /** This process's pg-boss workers, by queue. */
  private readonly workers = new Map<string, string[]>();

  /**
   * `invalidation` carries the announcement of a queued job to every process ("jobs", key: the
   * queue), so an idle worker starts it at once instead of at its next look.
   */
  constructor(
    private readonly executeSql: ExecuteSql,
    private readonly log: FastifyBaseLogger,
    private readonly invalidation: Invalidation,
    private readonly onFailure: (queue: string) => void = () => {},
  ) {
    invalidation.on("jobs", (queue) => {
      for (const name of queue === EVERYTHING ? [...this.workers.keys()] : [queue]) this.wake(name);
    });
  }

  private wake(queue: string) {
    for (const id of this.workers.get(queue) ?? []) this.boss?.notifyWorker(id);
  }

  /** Jobs waiting to run, by queue (one-off queues and schedules). */
  async depths(): Promise<[{ queue: string }, number][]> {
    const boss = this.boss;
    if (!boss) return [];
    const names = [...this.queues.map((q) => q.name), ...this.schedules.map((s) => s.name)];
    return Promise.all(names.map(async (queue): Promise<[{ queue: string }, number]> => [{ queue }, await boss.getQueueSize(queue)]));
  }

  schedule(name: string, cron: string, handler: JobHandler) {
    this.schedules.push({ name, cron, handler });
  }

  /** A queue of one-off jobs with a payload (e.g. one per uploaded file). */
  define<T>(name: string, options: QueueOptions, handler: (job: QueuedJob<T>) => Promise<void>) {
    this.queues.push({ name, options, handler: handler as (job: QueuedJob<unknown>) => Promise<void> });
  }

  /** Queues a job of a defined queue and announces it; any worker process runs it. */
  async send<T extends object>(name: string, data: T): Promise<string | null> {
    if (!this.boss) throw new Error("the job queue is not started");
    const queue = this.queues.find((q) => q.name === name);
    if (!queue) throw new Error(`unknown queue ${name}`);
    const id = await this.boss.send(name, data, {
      retryLimit: queue.options.retryLimit,
      retryDelay: queue.options.retryDelaySeconds,
      expireInSeconds: queue.options.expireInSeconds,
    });
    await this.invalidation.publish("jobs", name);
    return id;
  }

  /** Runs a registered job now, in this process (tests and administrators). */
  async runNow(name: string) {
    const job = this.schedules.find((s) => s.name === name);
    if (!job) throw new Error(`unknown job ${name}`);
    await job.handler();
  }

  /** Queues a registered job on pg-boss (any worker process runs it); returns the job id. */
  async enqueue(name: string): Promise<string | null> {
    if (!this.boss) throw new Error("the job queue is not started");
    if (!this.schedules.some((s) => s.name === name)) throw new Error(`unknown job ${name}`);
    return this.boss.send(name, {});
  }

  /** The job's state on pg-boss (created, active, completed, failed ...), for tests and diagnostics. */
  async state(name: string, id: string) {
    return (await this.boss?.getJobById(name, id))?.state ?? null;
  }

  /**
   * Starts the queue. `work: false` (ROLE=web) only sends jobs; workers run them.
   * `pollingIntervalSeconds` is how often an idle worker looks for jobs nobody announced;
   * `maintenanceIntervalSeconds` how often expired jobs (a killed worker's) are handed back (default 120).
   */
  async start(opts: { work?: boolean; pollingIntervalSeconds?: number; maintenanceIntervalSeconds?: number } = {}) {
    const work = opts.work ?? true;
    const pollingIntervalSeconds = opts.pollingIntervalSeconds ?? POLLING_SECONDS;
    const make = () => {
      const b = new PgBoss({
        db: { executeSql: this.executeSql },
        schema: "pgboss",
        supervise: work,
        schedule: work,
        cronMonitorIntervalSeconds: CRON_CHECK_SECONDS,
        ...(opts.maintenanceIntervalSeconds ? { maintenanceIntervalSeconds: opts.maintenanceIntervalSeconds } : {}),
      });
      b.on("error", (err) => this.log.error({ err }, "job queue error"));
      return b;
    };
    let boss = make();
    try {
      await boss.start();
    } catch (err) {
      // Replicas starting together on a new database: the one that loses pg-boss's install race
      // fails on the catalogue's unique index (23505) although the schema is now there; a new
      // instance (a failed one cannot start again) finds it installed.
      if ((err as { code?: string }).code !== "23505") throw err;
      this.log.warn("pg-boss was being installed by another process: starting again");
      boss = make();
      await boss.start();
    }
    for (const queue of this.queues) {
      await untilNoDeadlock(() => boss.createQueue(queue.name));
      if (!work) continue;
      // One pg-boss worker runs one job at a time: `concurrency` workers share the queue.
      const ids: string[] = [];
      for (let i = 0; i < (queue.options.concurrency ?? 1); i++) {
        let id = "";
        id = await boss.work(queue.name, { includeMetadata: true, pollingIntervalSeconds }, async ([job]) => {
          try {
            await queue.handler({ id: job.id, data: job.data, retryCount: job.retryCount, retryLimit: job.retryLimit });
          } catch (err) {
            this.log.error({ err, job: queue.name }, "job failed");
            this.onFailure(queue.name);
            throw err;
          } finally {
            // More may be waiting: the worker looks again at once instead of after its polling interval.
            if (id) boss.notifyWorker(id);
          }
        });
        ids.push(id);
      }
      this.workers.set(queue.name, ids);
    }
    if (!work) {
      this.boss = boss;
      return;
    }
    for (const job of this.schedules) {
      await untilNoDeadlock(() => boss.createQueue(job.name));
      await boss.schedule(job.name, job.cron, undefined, { tz: "Asia/Shanghai" });
      await boss.work(job.name, { pollingIntervalSeconds }, async () => {
        try {
          await job.handler();
        } catch (err) {
          this.log.error({ err, job: job.name }, "job failed");
          this.onFailure(job.name);
          throw err;
        }
      });
    }
    this.boss = boss;
  }

  async stop() {
    await this.boss?.stop({ graceful: true, wait: true, timeout: 5000 });
    this.boss = null;
    this.workers.clear();
  }
}

/**
 * Processes starting together on a fresh database create the same queues at once, and pg-boss's
 * create_queue (a table partition per queue) can deadlock with itself: PostgreSQL aborts one side,
 * which then finds the queue made and goes on.
 */
async function untilNoDeadlock<T>(fn: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (i >= attempts || (code !== "40P01" && code !== "23505")) throw err;
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 200 * i));
    }
  }
}
