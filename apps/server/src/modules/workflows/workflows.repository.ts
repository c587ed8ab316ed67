import { and, count, desc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { workflowNodeRuns, workflowRuns, workflows, workflowVersions } from "../../db/schema/index.ts";

export type WorkflowRow = typeof workflows.$inferSelect;
export type RunRow = typeof workflowRuns.$inferSelect;
export type NodeRunRow = typeof workflowNodeRuns.$inferSelect;

/** The only place that touches the workflow tables. Scoping is given by the service. */
export class WorkflowsRepository {
  /** `checkpoints`: where node rows are written (PostgreSQL: an asynchronous-commit pool, see checkpoint-db.ts). */
  constructor(
    readonly db: Db,
    private readonly checkpoints: Db = db,
  ) {}

  async byId(id: string) {
    const [row] = await this.db.select().from(workflows).where(eq(workflows.id, id));
    return row;
  }

  async byIds(ids: string[]) {
    if (!ids.length) return [];
    return this.db.select().from(workflows).where(inArray(workflows.id, ids));
  }

  async insert(values: typeof workflows.$inferInsert) {
    await this.db.insert(workflows).values(values);
  }

  async saveDraft(id: string, draft: WorkflowRow["draft"]) {
    await this.db.update(workflows).set({ draft, draftUpdatedAt: new Date() }).where(eq(workflows.id, id));
  }

  async version(id: string, version: number) {
    const [row] = await this.db
      .select()
      .from(workflowVersions)
      .where(and(eq(workflowVersions.workflowId, id), eq(workflowVersions.version, version)));
    return row;
  }

  /** Writes the next version and points the workflow at it, in one transaction. */
  async release(id: string, graph: WorkflowRow["draft"]) {
    return this.db.transaction(async (tx) => {
      const [{ next }] = await tx
        .select({ next: sql<number>`coalesce(max(${workflowVersions.version}), 0) + 1` })
        .from(workflowVersions)
        .where(eq(workflowVersions.workflowId, id));
      const version = Number(next);
      await tx.insert(workflowVersions).values({ workflowId: id, version, graph });
      await tx.update(workflows).set({ releasedVersion: version }).where(eq(workflows.id, id));
      return version;
    });
  }

  // ---- runs --------------------------------------------------------------------------------------

  async insertRun(values: typeof workflowRuns.$inferInsert) {
    const [row] = await this.db.insert(workflowRuns).values(values).returning();
    return row;
  }

  async run(id: string) {
    const [row] = await this.db.select().from(workflowRuns).where(eq(workflowRuns.id, id));
    return row;
  }

  async updateRun(id: string, values: Partial<typeof workflowRuns.$inferInsert>) {
    await this.db
      .update(workflowRuns)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(workflowRuns.id, id));
  }

  /** Takes the run for this process when it is RUNNING and nobody holds a live lease on it. */
  async claim(id: string, owner: string, leaseMs: number) {
    const [row] = await this.db
      .update(workflowRuns)
      .set({ leaseOwner: owner, leaseUntil: sql`now() + ${`${leaseMs} milliseconds`}::interval` })
      .where(
        and(
          eq(workflowRuns.id, id),
          eq(workflowRuns.status, "RUNNING"),
          or(isNull(workflowRuns.leaseUntil), lt(workflowRuns.leaseUntil, sql`now()`)),
        ),
      )
      .returning();
    return row;
  }

  /** Renews this process's leases on the given runs in one statement; returns the runs it still holds. */
  async renew(ids: string[], owner: string, leaseMs: number): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await this.db
      .update(workflowRuns)
      .set({ leaseUntil: sql`now() + ${`${leaseMs} milliseconds`}::interval` })
      .where(and(inArray(workflowRuns.id, ids), eq(workflowRuns.leaseOwner, owner), eq(workflowRuns.status, "RUNNING")))
      .returning({ id: workflowRuns.id });
    return new Set(rows.map((r) => r.id));
  }

  /** A run's end, written only while this process still holds its lease (else another one has taken it over). */
  async finishRun(id: string, owner: string, values: Partial<typeof workflowRuns.$inferInsert>) {
    const rows = await this.db
      .update(workflowRuns)
      .set({ ...values, leaseOwner: null, leaseUntil: null, updatedAt: new Date() })
      .where(and(eq(workflowRuns.id, id), eq(workflowRuns.leaseOwner, owner)))
      .returning({ id: workflowRuns.id });
    return rows.length > 0;
  }

  /**
   * Ends a RUNNING run as failed with `error`, whoever executes it: the lease goes with it, so the executing
   * process writes nothing more and stops at its next renewal. False when the run was not RUNNING.
   */
  async stopRun(id: string, error: string) {
    const rows = await this.db
      .update(workflowRuns)
      .set({ status: "FAILED", error, finishedAt: new Date(), leaseOwner: null, leaseUntil: null, updatedAt: new Date() })
      .where(and(eq(workflowRuns.id, id), eq(workflowRuns.status, "RUNNING")))
      .returning({ id: workflowRuns.id });
    return rows.length > 0;
  }

  /**
   * RUNNING runs whose process stopped renewing their lease, and runs handed to the queue that nobody took
   * within a lease (a fresh run is left to the process that dispatched it).
   */
  async orphaned(limit: number, leaseMs: number) {
    return this.db
      .select({ id: workflowRuns.id })
      .from(workflowRuns)
      .where(
        and(
          eq(workflowRuns.status, "RUNNING"),
          or(
            lt(workflowRuns.leaseUntil, sql`now()`),
            and(isNull(workflowRuns.leaseUntil), lt(workflowRuns.updatedAt, sql`now() - ${`${leaseMs} milliseconds`}::interval`)),
          ),
        ),
      )
      .limit(limit);
  }

  async runsOf(workflowId: string, pageNumber: number, pageSize: number) {
    const cond = eq(workflowRuns.workflowId, workflowId);
    const [list, [{ total }]] = await Promise.all([
      this.db
        .select()
        .from(workflowRuns)
        .where(cond)
        .orderBy(desc(workflowRuns.startedAt), desc(workflowRuns.id))
        .limit(pageSize)
        .offset(pageNumber * pageSize),
      this.db.select({ total: count() }).from(workflowRuns).where(cond),
    ]);
    return { list, total: Number(total) };
  }

  // ---- node runs: the checkpoints ------------------------------------------------------------------

  async nodeRuns(runId: string) {
    return this.db.select().from(workflowNodeRuns).where(eq(workflowNodeRuns.runId, runId)).orderBy(workflowNodeRuns.seq);
  }

  async nodeRun(runId: string, key: string) {
    const [row] = await this.db
      .select()
      .from(workflowNodeRuns)
      .where(and(eq(workflowNodeRuns.runId, runId), eq(workflowNodeRuns.key, key)));
    return row;
  }

  /**
   * Writes node rows of one run (starts, finishes, pauses, skips; each replacing what its key had) in one
   * statement, only while `owner` holds the run's lease: the run row is share-locked, so a takeover by
   * another process either waits for this write (and then sees it) or has happened (and nothing is written).
   * Returns false when the lease is gone. Rows go as one JSON parameter, whatever their number.
   */
  async putNodeRuns(runId: string, owner: string, rows: NodeRunRow[]): Promise<boolean> {
    const data = JSON.stringify(
      rows.map((r) => ({
        key: r.key,
        node_id: r.nodeId,
        scope: r.scope,
        type: r.type,
        title: r.title,
        status: r.status,
        input: r.input ?? null,
        output: r.output ?? null,
        handle: r.handle,
        error: r.error,
        attempts: r.attempts,
        tokens: r.tokens,
        seq: r.seq,
        started_at: r.startedAt,
        finished_at: r.finishedAt,
      })),
    );
    const result = await this.checkpoints.execute(sql`
        with lease as (
          select id from workflow_runs where id = ${runId} and lease_owner = ${owner} for share
        ), written as (
          insert into workflow_node_runs
            (run_id, key, node_id, scope, type, title, status, input, output, handle, error, attempts, tokens, seq, started_at, finished_at)
          select lease.id, v.key, v.node_id, v.scope, v.type, v.title, v.status, nullif(v.input, 'null'::jsonb), nullif(v.output, 'null'::jsonb),
            v.handle, v.error, v.attempts, v.tokens, v.seq, v.started_at, v.finished_at
          from lease, jsonb_to_recordset(${data}::jsonb) as v(key text, node_id text, scope text, type text, title text, status text,
            input jsonb, output jsonb, handle text, error text, attempts int, tokens int, seq int, started_at timestamptz, finished_at timestamptz)
          on conflict (run_id, key) do update set status = excluded.status, input = excluded.input, output = excluded.output,
            handle = excluded.handle, error = excluded.error, attempts = excluded.attempts, tokens = excluded.tokens, seq = excluded.seq,
            started_at = excluded.started_at, finished_at = excluded.finished_at
          returning 1
        )
        select (select count(*) from lease)::int as held, (select count(*) from written)::int as n`);
    // node-postgres and PGlite both answer with { rows }.
    return Number((result as unknown as { rows: { held: number }[] }).rows[0]?.held ?? 0) > 0;
  }

  /** The answer of a paused human-input node: only while it is still PAUSED (a second answer changes nothing). */
  async answerNodeRun(runId: string, key: string, output: Record<string, unknown>) {
    const rows = await this.db
      .update(workflowNodeRuns)
      .set({ status: "SUCCEEDED", output, finishedAt: new Date() })
      .where(and(eq(workflowNodeRuns.runId, runId), eq(workflowNodeRuns.key, key), eq(workflowNodeRuns.status, "PAUSED")))
      .returning({ key: workflowNodeRuns.key });
    return rows.length > 0;
  }

  /** Before a resume: the failed and interrupted rows go, so those nodes run again; finished ones stay. */
  async clearUnfinished(runId: string) {
    await this.db
      .delete(workflowNodeRuns)
      .where(
        and(
          eq(workflowNodeRuns.runId, runId),
          or(eq(workflowNodeRuns.status, "RUNNING"), and(eq(workflowNodeRuns.status, "FAILED"), isNull(workflowNodeRuns.handle))),
        ),
      );
  }
}
