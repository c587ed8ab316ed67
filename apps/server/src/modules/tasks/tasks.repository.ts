import { and, count, desc, eq, ilike, inArray, isNotNull, isNull, lte, notExists, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { scheduledTasks, taskNotices, taskRuns, users } from "../../db/schema/index.ts";
import { containing } from "../../platform/sql.ts";

export type TaskRow = typeof scheduledTasks.$inferSelect;
export type TaskRunRow = typeof taskRuns.$inferSelect;
export type TaskNoticeRow = typeof taskNotices.$inferSelect;

export class TasksRepository {
  constructor(private readonly db: Db) {}

  /** A task whose owner's account is not stopped: a stopped account's tasks wait, their mail unread, until it starts again. */
  private ownerActive() {
    return notExists(
      this.db
        .select({ one: sql`1` })
        .from(users)
        .where(and(eq(users.id, scheduledTasks.ownerId), isNotNull(users.disabledAt))),
    );
  }

  async ownerIsActive(ownerId: string) {
    const [stopped] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, ownerId), isNotNull(users.disabledAt)))
      .limit(1);
    return !stopped;
  }

  async byId(id: string) {
    const [row] = await this.db.select().from(scheduledTasks).where(eq(scheduledTasks.id, id));
    return row;
  }

  async page(ownerId: string, tenantId: string, name: string | undefined, offset: number, limit: number) {
    const where = and(
      eq(scheduledTasks.ownerId, ownerId),
      eq(scheduledTasks.tenantId, tenantId),
      name ? ilike(scheduledTasks.name, containing(name)) : undefined,
    );
    const list = await this.db
      .select()
      .from(scheduledTasks)
      .where(where)
      .orderBy(desc(scheduledTasks.createdAt))
      .offset(offset)
      .limit(limit);
    const [{ n }] = await this.db.select({ n: count() }).from(scheduledTasks).where(where);
    return { list, total: n };
  }

  async countOf(ownerId: string, tx: Tx = this.db) {
    const [{ n }] = await tx.select({ n: count() }).from(scheduledTasks).where(eq(scheduledTasks.ownerId, ownerId));
    return n;
  }

  async insert(row: typeof scheduledTasks.$inferInsert, tx: Tx = this.db) {
    const [created] = await tx.insert(scheduledTasks).values(row).returning();
    return created;
  }

  async update(id: string, values: Partial<typeof scheduledTasks.$inferInsert>) {
    const [row] = await this.db.update(scheduledTasks).set(values).where(eq(scheduledTasks.id, id)).returning();
    return row;
  }

  async remove(id: string) {
    await this.db.delete(scheduledTasks).where(eq(scheduledTasks.id, id));
  }

  async due(now: Date, limit: number) {
    return this.db
      .select()
      .from(scheduledTasks)
      .where(and(eq(scheduledTasks.enabled, true), lte(scheduledTasks.nextRunAt, now), this.ownerActive()))
      .orderBy(scheduledTasks.nextRunAt)
      .limit(limit);
  }

  /**
   * Moves a due task to its next time only if no one else did meanwhile (another process's tick),
   * and writes its run in the same transaction: a due time gives exactly one run.
   */
  async claim(task: TaskRow, next: Date, now: Date): Promise<TaskRunRow | null> {
    return this.db.transaction(async (tx) => {
      const moved = await tx
        .update(scheduledTasks)
        .set({ nextRunAt: next, lastRunAt: now })
        .where(and(eq(scheduledTasks.id, task.id), eq(scheduledTasks.enabled, true), eq(scheduledTasks.nextRunAt, task.nextRunAt!)))
        .returning({ id: scheduledTasks.id });
      if (!moved.length) return null;
      const [run] = await tx
        .insert(taskRuns)
        .values({ taskId: task.id, trigger: "schedule", status: "QUEUED", dueAt: task.nextRunAt! })
        .returning();
      return run;
    });
  }

  /** Enabled tasks triggered by mail, oldest look first. */
  async mailTasks(limit: number) {
    return this.db
      .select()
      .from(scheduledTasks)
      .where(and(eq(scheduledTasks.enabled, true), eq(scheduledTasks.triggerType, "email"), this.ownerActive()))
      .orderBy(scheduledTasks.updatedAt)
      .limit(limit);
  }

  /**
   * Moves a mail task's mark only if no one else did meanwhile (an overlapping look in another
   * process), and writes the runs of the new mails in the same transaction: a mail gives one run.
   */
  async claimMail(
    task: TaskRow,
    mark: { uidValidity: string | null; lastUid: number | null },
    inputs: string[],
    now: Date,
  ): Promise<TaskRunRow[]> {
    return this.db.transaction(async (tx) => {
      const moved = await tx
        .update(scheduledTasks)
        .set({
          mailUidValidity: mark.uidValidity,
          mailLastUid: mark.lastUid,
          mailError: null,
          ...(inputs.length ? { lastRunAt: now } : {}),
        })
        .where(
          and(
            eq(scheduledTasks.id, task.id),
            sql`${scheduledTasks.mailUidValidity} is not distinct from ${task.mailUidValidity}`,
            sql`${scheduledTasks.mailLastUid} is not distinct from ${task.mailLastUid}`,
          ),
        )
        .returning({ id: scheduledTasks.id });
      if (!moved.length || !inputs.length) return [];
      return tx
        .insert(taskRuns)
        .values(inputs.map((input) => ({ taskId: task.id, trigger: "email", status: "QUEUED", dueAt: now, input })))
        .returning();
    });
  }

  async insertRun(row: typeof taskRuns.$inferInsert, tx: Tx = this.db) {
    const [run] = await tx.insert(taskRuns).values(row).returning();
    return run;
  }

  /**
   * The owner's runs waiting or running, over all their tasks. Only the last hour's count: a run
   * whose job was lost stays queued, and must not hold a place for ever.
   */
  async pendingRunsOf(ownerId: string, tx: Tx = this.db) {
    const [{ n }] = await tx
      .select({ n: count() })
      .from(taskRuns)
      .innerJoin(scheduledTasks, eq(scheduledTasks.id, taskRuns.taskId))
      .where(
        and(
          eq(scheduledTasks.ownerId, ownerId),
          inArray(taskRuns.status, ["QUEUED", "RUNNING"]),
          sql`${taskRuns.createdAt} > now() - interval '1 hour'`,
        ),
      );
    return n;
  }

  async run(id: string) {
    const [row] = await this.db.select().from(taskRuns).where(eq(taskRuns.id, id));
    return row;
  }

  /** Takes a run that has not ended; a duplicate delivery of its job finds it ended and does nothing. */
  async startRun(id: string) {
    const [row] = await this.db
      .update(taskRuns)
      .set({ status: "RUNNING", attempts: sql`${taskRuns.attempts} + 1`, startedAt: new Date(), error: null })
      .where(and(eq(taskRuns.id, id), inArray(taskRuns.status, ["QUEUED", "RUNNING"])))
      .returning();
    return row;
  }

  async updateRun(id: string, values: Partial<typeof taskRuns.$inferInsert>) {
    await this.db.update(taskRuns).set(values).where(eq(taskRuns.id, id));
  }

  async runs(taskId: string, offset: number, limit: number) {
    const list = await this.db
      .select()
      .from(taskRuns)
      .where(eq(taskRuns.taskId, taskId))
      .orderBy(desc(taskRuns.createdAt))
      .offset(offset)
      .limit(limit);
    const [{ n }] = await this.db.select({ n: count() }).from(taskRuns).where(eq(taskRuns.taskId, taskId));
    return { list, total: n };
  }

  async lastStatuses(taskIds: string[]) {
    if (!taskIds.length) return new Map<string, string>();
    const rows = await this.db
      .selectDistinctOn([taskRuns.taskId], { taskId: taskRuns.taskId, status: taskRuns.status })
      .from(taskRuns)
      .where(inArray(taskRuns.taskId, taskIds))
      .orderBy(taskRuns.taskId, desc(taskRuns.createdAt));
    return new Map(rows.map((r) => [r.taskId, r.status]));
  }

  async insertNotice(row: typeof taskNotices.$inferInsert) {
    await this.db.insert(taskNotices).values(row);
  }

  async notices(ownerId: string, tenantId: string, limit: number) {
    const where = and(eq(taskNotices.ownerId, ownerId), eq(taskNotices.tenantId, tenantId));
    const list = await this.db.select().from(taskNotices).where(where).orderBy(desc(taskNotices.createdAt)).limit(limit);
    const [{ n }] = await this.db
      .select({ n: count() })
      .from(taskNotices)
      .where(and(where, isNull(taskNotices.readAt)));
    return { list, unread: n };
  }

  async readNotices(ownerId: string, tenantId: string) {
    await this.db
      .update(taskNotices)
      .set({ readAt: new Date() })
      .where(and(eq(taskNotices.ownerId, ownerId), eq(taskNotices.tenantId, tenantId), isNull(taskNotices.readAt)));
  }
}
