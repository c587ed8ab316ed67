import PgBoss from "pg-boss";
import type { FastifyBaseLogger } from "fastify";
import type { ExecuteSql } from "../db/client.ts";

export type JobHandler = () => Promise<void>;

/**
 * Background jobs and schedules on pg-boss, in the same database on both drivers
 * (PGlite through its executeSql adapter). Modules register schedules before start;
 * with several processes pg-boss runs each scheduled job once.
 */
export class Jobs {
  private readonly schedules: { name: string; cron: string; handler: JobHandler }[] = [];
  private boss: PgBoss | null = null;

  constructor(
    private readonly executeSql: ExecuteSql,
    private readonly log: FastifyBaseLogger,
  ) {}

  schedule(name: string, cron: string, handler: JobHandler) {
    this.schedules.push({ name, cron, handler });
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

  async start() {
    const boss = new PgBoss({ db: { executeSql: this.executeSql }, schema: "pgboss", supervise: true, schedule: true });
    boss.on("error", (err) => this.log.error({ err }, "job queue error"));
    await boss.start();
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
