import PgBoss from "pg-boss";
import type { FastifyBaseLogger } from "fastify";
import type { ExecuteSql } from "../db/client.ts";

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
}

/**
 * Background jobs and schedules on pg-boss, in the same database on both drivers
 * (PGlite through its executeSql adapter). Modules register schedules before start;
 * with several processes pg-boss runs each scheduled job once.
 */
export class Jobs {
  private readonly schedules: { name: string; cron: string; handler: JobHandler }[] = [];
  private readonly queues: { name: string; options: QueueOptions; handler: (job: QueuedJob<unknown>) => Promise<void> }[] = [];
  private boss: PgBoss | null = null;

  constructor(
    private readonly executeSql: ExecuteSql,
    private readonly log: FastifyBaseLogger,
  ) {}

  schedule(name: string, cron: string, handler: JobHandler) {
    this.schedules.push({ name, cron, handler });
  }

  /** A queue of one-off jobs with a payload (e.g. one per uploaded file). */
  define<T>(name: string, options: QueueOptions, handler: (job: QueuedJob<T>) => Promise<void>) {
    this.queues.push({ name, options, handler: handler as (job: QueuedJob<unknown>) => Promise<void> });
  }

  /** Queues a job of a defined queue; any worker process runs it. */
  async send<T extends object>(name: string, data: T): Promise<string | null> {
    if (!this.boss) throw new Error("the job queue is not started");
    const queue = this.queues.find((q) => q.name === name);
    if (!queue) throw new Error(`unknown queue ${name}`);
    return this.boss.send(name, data, {
      retryLimit: queue.options.retryLimit,
      retryDelay: queue.options.retryDelaySeconds,
      expireInSeconds: queue.options.expireInSeconds,
    });
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
   * `pollingIntervalSeconds` is how often an idle worker looks for queued jobs.
   */
  async start(opts: { work?: boolean; pollingIntervalSeconds?: number } = {}) {
    const work = opts.work ?? true;
    const boss = new PgBoss({ db: { executeSql: this.executeSql }, schema: "pgboss", supervise: work, schedule: work });
    boss.on("error", (err) => this.log.error({ err }, "job queue error"));
    await boss.start();
    for (const queue of this.queues) {
      await boss.createQueue(queue.name);
      if (!work) continue;
      await boss.work(queue.name, { includeMetadata: true, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2 }, async ([job]) => {
        try {
          await queue.handler({ id: job.id, data: job.data, retryCount: job.retryCount, retryLimit: job.retryLimit });
        } catch (err) {
          this.log.error({ err, job: queue.name }, "job failed");
          throw err;
        }
      });
    }
    if (!work) {
      this.boss = boss;
      return;
    }
    for (const job of this.schedules) {
      await boss.createQueue(job.name);
      await boss.schedule(job.name, job.cron, undefined, { tz: "Asia/Shanghai" });
      await boss.work(job.name, async () => {
        try {
          await job.handler();
        } catch (err) {
          this.log.error({ err, job: job.name }, "job failed");
          throw err;
        }
      });
    }
    this.boss = boss;
  }

  async stop() {
    await this.boss?.stop({ graceful: true, wait: true, timeout: 5000 });
    this.boss = null;
  }
}
