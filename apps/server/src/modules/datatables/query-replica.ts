import { Worker } from "node:worker_threads";

/** A table the worker must hold: its physical name (schema-qualified), version and how to copy it. */
export interface ReplicaTable {
  name: string;
  version: number;
  ddl: string;
  /** Its rows as a JSON array, read when the worker's copy is missing or older. */
  rows: () => Promise<string>;
}

export interface ReplicaQuery {
  sql: string;
  values: unknown[];
  maxCost: number;
}

export type ReplicaAnswer =
  | { ok: true; result: { tooExpensive: true } | { rows: Record<string, unknown>[]; fields: { name: string; dataTypeID: number }[] } }
  | { ok: false; error: { code?: string; message: string } };

/** What a query that outlived its time answers (the worker was ended). */
export class ReplicaTimeout extends Error {}

interface Started {
  worker: Worker;
  ready: Promise<void>;
  /** The version of each table the worker holds. */
  versions: Map<string, number>;
}

/**
 * Data-table SQL on a PGlite platform runs here, in `query-worker.mjs`: one query at a time, each
 * ended (with the worker) when it outlives `timeoutMs`. The worker starts on the first query and
 * stops after `idleMs` without one; its copies of the tables are refreshed when their version moves.
 */
export class QueryReplica {
  private started?: Started;
  private queue: Promise<unknown> = Promise.resolve();
  private idle?: NodeJS.Timeout;
  private seq = 0;

  constructor(private readonly options: { schema: string; timeoutMs: number; idleMs: number; heapMb: number; templateDir: string }) {}

  run(tables: ReplicaTable[], query: ReplicaQuery): Promise<ReplicaAnswer> {
    const next = this.queue.then(() => this.runNow(tables, query));
    this.queue = next.catch(() => {});
    return next;
  }

  /**
   * Starts the worker ahead of a query (someone opened the data tables, where they may type SQL), so
   * the first query does not wait seconds for PGlite to start; it stops after `idleMs` as usual.
   */
  warm() {
    if (this.started) return;
    this.started = this.start();
    // A worker that fails to start is started again by the next query.
    this.started.ready.catch(() => {});
    clearTimeout(this.idle);
    this.idle = setTimeout(() => void this.close(), this.options.idleMs);
    this.idle.unref();
  }

  async close() {
    clearTimeout(this.idle);
    const started = this.started;
    this.started = undefined;
    await started?.worker.terminate();
  }

  private start(): Started {
    const worker = new Worker(new URL("./query-worker.mjs", import.meta.url), {
      workerData: { schema: this.options.schema, heapMb: this.options.heapMb, templateDir: this.options.templateDir },
    });
    worker.unref();
    // An uncaught error ends the worker ("exit" follows): the query waiting on it fails, the next starts another.
    worker.on("error", () => {});
    const ready = new Promise<void>((resolve, reject) => {
      const onMessage = (m: { ready?: boolean }) => {
        if (!m.ready) return;
        worker.off("message", onMessage);
        resolve();
      };
      worker.on("message", onMessage);
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`the query worker ended (${code})`)));
    });
    const started: Started = { worker, ready, versions: new Map() };
    worker.on("exit", () => {
      if (this.started === started) this.started = undefined;
    });
    return started;
  }

  private async runNow(tables: ReplicaTable[], query: ReplicaQuery): Promise<ReplicaAnswer> {
    clearTimeout(this.idle);
    this.started ??= this.start();
    const started = this.started;
    try {
      // Starting PGlite takes a few seconds on a busy machine: the query's time starts after it.
      await started.ready;
      const load: { name: string; ddl: string; rows: string }[] = [];
      for (const t of tables) {
        if (started.versions.get(t.name) !== t.version) load.push({ name: t.name, ddl: t.ddl, rows: await t.rows() });
      }
      const id = ++this.seq;
      const answer = await new Promise<ReplicaAnswer>((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          started.worker.off("message", onMessage);
          started.worker.off("exit", onExit);
        };
        const timer = setTimeout(() => {
          done();
          reject(new ReplicaTimeout());
        }, this.options.timeoutMs);
        const onMessage = (m: ReplicaAnswer & { id?: number }) => {
          if (m.id !== id) return;
          done();
          resolve(m);
        };
        const onExit = (code: number) => {
          done();
          reject(new Error(`the query worker ended (${code})`));
        };
        started.worker.on("message", onMessage);
        started.worker.on("exit", onExit);
        started.worker.postMessage({ id, load, ...query });
      });
      // A failed load leaves the worker's copy unknown: it is copied again next time.
      for (const t of tables) {
        if (answer.ok || !load.some((l) => l.name === t.name)) started.versions.set(t.name, t.version);
        else started.versions.delete(t.name);
      }
      return answer;
    } catch (e) {
      if (this.started === started) this.started = undefined;
      await started.worker.terminate();
      throw e;
    } finally {
      this.idle = setTimeout(() => void this.close(), this.options.idleMs);
      this.idle.unref();
    }
  }
}
