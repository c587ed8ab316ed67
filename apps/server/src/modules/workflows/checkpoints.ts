import type { NodeRunRow, WorkflowsRepository } from "./workflows.repository.ts";

/** This process no longer holds the run's lease: another one has taken the run over. */
export class LeaseLost extends Error {
  constructor() {
    super("another process has taken this run over");
  }
}

/**
 * The node rows of one run, written behind the engine with group commit: rows queued while a write is on
 * its way go together in the next one (one round trip for any number), in the order they were queued, so a
 * row never lands before the rows of the nodes it followed. Nodes whose work reaches outside the run wait
 * for `flushed()` before they start (see the engine), so an effect never starts before everything before
 * it is durable; a node is "finished" (reported, never run again) once its row is written.
 */
export class CheckpointWriter {
  /** Rows waiting for the next write, and that write's outcome. */
  private next: { rows: NodeRunRow[]; written: Promise<void>; settle: (err?: unknown) => void } | null = null;
  /** The outcome of the newest write queued: writes go one after another, so all before it are done too. */
  private last: Promise<void> = Promise.resolve();
  private writing = false;
  private failed: unknown = null;

  constructor(
    private readonly repo: WorkflowsRepository,
    private readonly runId: string,
    private readonly owner: string,
  ) {}

  /** Queues a row; resolves once it is written. */
  put(row: NodeRunRow): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    if (!this.next) {
      let settle: (err?: unknown) => void = () => {};
      const written = new Promise<void>((resolve, reject) => {
        settle = (err) => (err ? reject(err) : resolve());
      });
      // Nobody has to wait for a write: its failure is reported through flushed() and the run's end.
      written.catch(() => {});
      this.next = { rows: [], written, settle };
      this.last = written;
    }
    this.next.rows.push({ ...row });
    if (!this.writing) void this.drain();
    return this.next.written;
  }

  /** Resolves when every row queued so far is written; throws LeaseLost (or the write's error) when it was not. */
  flushed(): Promise<void> {
    return this.failed ? Promise.reject(this.failed) : this.last;
  }

  private async drain() {
    this.writing = true;
    // Rows queued in the same turn of the event loop (parallel branches, skips) go in this write.
    await Promise.resolve();
    while (this.next) {
      const batch = this.next;
      this.next = null;
      try {
        const rows = new Map<string, NodeRunRow>();
        for (const r of batch.rows) rows.set(r.key, r);
        if (!(await this.repo.putNodeRuns(this.runId, this.owner, [...rows.values()]))) throw new LeaseLost();
        batch.settle();
      } catch (err) {
        this.failed = err;
        batch.settle(err);
        (this.next as typeof batch | null)?.settle(err);
        this.next = null;
      }
    }
    this.writing = false;
  }
}
