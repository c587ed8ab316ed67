import { Worker } from "node:worker_threads";

/** What a sandboxed call may ask of the host: one fetch, answered through the platform's safe fetch. */
export interface SandboxFetchRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
}
export interface SandboxFetchResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface SandboxJob {
  /** Fairness key: one tenant's runaway calls never take every worker. */
  tenantKey: string;
  /** Isolation key: workers whose interpreter keeps state between calls serve one owner at a time. */
  ownerKey: string;
  code: string;
  params: unknown;
  /** Wall-clock limit of this call, enforced from outside the worker. */
  timeoutMs: number;
  /** Present only when the plugin's owner enabled network access. */
  fetch?: (req: SandboxFetchRequest) => Promise<SandboxFetchResponse>;
  signal?: AbortSignal;
}

export interface SandboxResult {
  ok: boolean;
  result: unknown;
  error: string | null;
  durationMs: number;
  logs: string[];
}

export interface PoolOptions {
  /** The worker script (plain ESM JavaScript, so it runs under any loader). */
  script: URL;
  size: number;
  /** Most calls of one tenant running at once (the rest queue). */
  perTenant: number;
  /** V8 heap cap of each worker (the interpreter's own limit is set inside). */
  memoryMb: number;
  /** Interpreters that keep module state between calls (Pyodide): a worker serves one owner until replaced. */
  ownerAffinity: boolean;
  /** A worker is replaced after this many calls, so slow leaks do not accumulate. */
  recycleAfter: number;
  /** Longest a call waits in the queue before it is refused. */
  queueTimeoutMs: number;
  /** Most queued calls per tenant. */
  queueLimit: number;
  /** Extra data for the worker (e.g. where its interpreter's files are). */
  workerData?: unknown;
  /** Largest result (JSON, UTF-8 bytes); a larger one fails the call. */
  maxResultBytes?: number;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  isReady: boolean;
  busy: Pending | null;
  owner: string | null;
  calls: number;
  dead: boolean;
}

interface Pending {
  job: SandboxJob;
  resolve(r: SandboxResult): void;
  queuedAt: number;
  startedAt: number;
  timer?: NodeJS.Timeout;
  queueTimer?: NodeJS.Timeout;
  onAbort?: () => void;
}

type WorkerMessage =
  | { type: "ready" }
  | { type: "done"; ok: boolean; result?: string; error?: string; logs?: string[] }
  | { type: "fetch"; reqId: number; request: SandboxFetchRequest; shared?: SharedArrayBuffer };

const FAIL_INIT = "the sandbox could not start";

/**
 * A pool of worker threads that run untrusted code. The wall-clock limit is kept here, outside the
 * worker: a call past its time has its worker terminated and replaced, whatever the code does. Calls
 * queue per tenant and are dispatched round-robin with a per-tenant cap, so one tenant's runaway
 * plugins wait behind each other, not in front of another tenant's calls.
 */
export class SandboxPool {
  private readonly slots: Slot[] = [];
  private readonly queues = new Map<string, Pending[]>();
  private readonly running = new Map<string, number>();
  private closed = false;
  /** Workers that died before they were ready, in a row: past a few the pool stops respawning. */
  private startFailures = 0;

  constructor(private readonly opts: PoolOptions) {
    for (let i = 0; i < opts.size; i++) this.slots.push(this.spawn());
  }

  /** Resolves when every worker has started (tests and benchmarks use it to measure warm calls). */
  async warm() {
    await Promise.all(this.slots.map((s) => s.ready.catch(() => {})));
  }

  run(job: SandboxJob): Promise<SandboxResult> {
    return new Promise((resolve) => {
      if (this.closed) return resolve(failure("the sandbox is shut down", 0));
      if (!this.slots.length) return resolve(failure(FAIL_INIT, 0));
      const queue = this.queues.get(job.tenantKey) ?? [];
      if (queue.length >= this.opts.queueLimit) return resolve(failure("too many calls are waiting, try again later", 0));
      const pending: Pending = { job, resolve, queuedAt: Date.now(), startedAt: 0 };
      pending.queueTimer = setTimeout(() => {
        this.dequeue(pending);
        resolve(failure("the sandbox is busy, try again later", Date.now() - pending.queuedAt));
      }, this.opts.queueTimeoutMs);
      if (job.signal) {
        pending.onAbort = () => {
          if (pending.startedAt) return;
          this.dequeue(pending);
          clearTimeout(pending.queueTimer);
          resolve(failure("aborted", 0));
        };
        job.signal.addEventListener("abort", pending.onAbort, { once: true });
      }
      queue.push(pending);
      this.queues.set(job.tenantKey, queue);
      this.dispatch();
    });
  }

  async close() {
    this.closed = true;
    for (const queue of this.queues.values()) for (const p of queue) this.finish(p, failure("the sandbox is shut down", 0));
    this.queues.clear();
    await Promise.all(this.slots.map((s) => this.kill(s)));
  }

  private dequeue(p: Pending) {
    const queue = this.queues.get(p.job.tenantKey);
    const i = queue?.indexOf(p) ?? -1;
    if (queue && i >= 0) queue.splice(i, 1);
  }

  private spawn(): Slot {
    const worker = new Worker(this.opts.script, {
      // No environment: even code that escaped its interpreter finds no secrets in process.env.
      env: {},
      workerData: this.opts.workerData,
      resourceLimits: {
        maxOldGenerationSizeMb: this.opts.memoryMb,
        maxYoungGenerationSizeMb: Math.max(8, Math.round(this.opts.memoryMb / 8)),
        codeRangeSizeMb: 16,
        stackSizeMb: 4,
      },
      stdout: true,
      stderr: true,
    });
    worker.unref();
    const slot: Slot = { worker, ready: Promise.resolve(), isReady: false, busy: null, owner: null, calls: 0, dead: false };
    slot.ready = new Promise<void>((resolve, reject) => {
      worker.on("message", (msg: WorkerMessage) => {
        if (msg.type === "ready") {
          slot.isReady = true;
          this.startFailures = 0;
          resolve();
          this.dispatch();
        } else this.onMessage(slot, msg);
      });
      worker.on("error", (err) => {
        reject(err);
        this.onExit(slot, isOutOfMemory(err) ? "memory limit exceeded" : `the sandbox failed: ${err.message}`);
      });
      worker.on("exit", () => {
        reject(new Error(FAIL_INIT));
        this.onExit(slot, "the sandbox stopped");
      });
    });
    slot.ready.catch(() => {});
    return slot;
  }

  private onMessage(slot: Slot, msg: WorkerMessage) {
    const p = slot.busy;
    if (!p) return;
    if (msg.type === "fetch") {
      const shared = msg.shared;
      const reply = (answer: { ok: true; response: SandboxFetchResponse } | { ok: false; error: string }) => {
        if (slot.busy !== p || slot.dead) return;
        if (shared) writeShared(shared, answer);
        else slot.worker.postMessage({ type: "fetched", reqId: msg.reqId, ...answer });
      };
      if (!p.job.fetch) return reply({ ok: false, error: "network access is not enabled for this plugin" });
      p.job.fetch(msg.request).then(
        (response) => reply({ ok: true, response }),
        (err: Error) => reply({ ok: false, error: err?.message ?? String(err) }),
      );
      return;
    }
    if (msg.type !== "done") return;
    slot.busy = null;
    const durationMs = Date.now() - p.startedAt;
    let result: unknown = null;
    let error = msg.error ?? null;
    const max = this.opts.maxResultBytes;
    if (msg.ok && max !== undefined && msg.result !== undefined && Buffer.byteLength(msg.result) > max)
      error = `the result is larger than ${max} bytes`;
    else if (msg.ok) {
      try {
        result = msg.result === undefined ? null : JSON.parse(msg.result);
      } catch {
        error = "the result is not JSON";
      }
    }
    this.finish(p, { ok: msg.ok && !error, result, error, durationMs, logs: msg.logs ?? [] });
    this.running.set(p.job.tenantKey, (this.running.get(p.job.tenantKey) ?? 1) - 1);
    if (slot.calls >= this.opts.recycleAfter) this.replace(slot);
    this.dispatch();
  }

  private finish(p: Pending, result: SandboxResult) {
    clearTimeout(p.timer);
    clearTimeout(p.queueTimer);
    if (p.onAbort) p.job.signal?.removeEventListener("abort", p.onAbort);
    p.resolve(result);
  }

  /** A worker died (crash, out of memory, or killed for its time): its call fails and a fresh worker takes its place. */
  private onExit(slot: Slot, reason: string) {
    if (slot.dead) return;
    slot.dead = true;
    const p = slot.busy;
    slot.busy = null;
    if (p) {
      this.running.set(p.job.tenantKey, (this.running.get(p.job.tenantKey) ?? 1) - 1);
      this.finish(p, failure(reason, Date.now() - p.startedAt));
    }
    if (!slot.isReady) this.startFailures++;
    const i = this.slots.indexOf(slot);
    if (i < 0 || this.closed) return;
    if (this.startFailures >= 3) {
      // The interpreter cannot start here: calls fail at once instead of waiting for workers that never come.
      this.slots.splice(i, 1);
      if (!this.slots.length)
        for (const queue of this.queues.values()) for (const q of queue.splice(0)) this.finish(q, failure(FAIL_INIT, 0));
      return;
    }
    this.slots[i] = this.spawn();
    this.dispatch();
  }

  private replace(slot: Slot, reason = "recycled") {
    this.onExit(slot, reason);
    void slot.worker.terminate();
  }

  private async kill(slot: Slot) {
    slot.dead = true;
    await slot.worker.terminate();
  }

  /** Round-robin over tenants with waiting calls, each below its cap, onto idle ready workers. */
  private dispatch() {
    if (this.closed) return;
    for (;;) {
      const tenants = [...this.queues.keys()].filter(
        (k) => (this.queues.get(k)?.length ?? 0) > 0 && (this.running.get(k) ?? 0) < this.opts.perTenant,
      );
      if (!tenants.length) return;
      let placed = false;
      for (const tenant of tenants) {
        const queue = this.queues.get(tenant) as Pending[];
        const p = queue[0];
        const slot = this.pickSlot(p.job.ownerKey);
        if (!slot) continue;
        queue.shift();
        // Move the tenant to the back, so the next free worker goes to another tenant first.
        this.queues.delete(tenant);
        if (queue.length) this.queues.set(tenant, queue);
        if (slot.owner !== null && slot.owner !== p.job.ownerKey && this.opts.ownerAffinity) {
          // Only workers used by other owners are free: one is replaced (unless a fresh one is
          // already starting), and the call waits for it.
          queue.unshift(p);
          this.queues.set(tenant, queue);
          if (!this.slots.some((s) => !s.isReady && !s.dead)) this.replace(slot);
          continue;
        }
        this.start(slot, p);
        placed = true;
        break;
      }
      if (!placed) return;
    }
  }

  private pickSlot(owner: string): Slot | undefined {
    const idle = this.slots.filter((s) => s.isReady && !s.busy && !s.dead);
    if (!this.opts.ownerAffinity) return idle[0];
    return idle.find((s) => s.owner === owner) ?? idle.find((s) => s.owner === null) ?? idle[0];
  }

  private start(slot: Slot, p: Pending) {
    clearTimeout(p.queueTimer);
    slot.busy = p;
    slot.owner = p.job.ownerKey;
    slot.calls++;
    p.startedAt = Date.now();
    this.running.set(p.job.tenantKey, (this.running.get(p.job.tenantKey) ?? 0) + 1);
    p.timer = setTimeout(() => {
      if (slot.busy === p) this.replace(slot, `timed out after ${p.job.timeoutMs} ms`);
    }, p.job.timeoutMs);
    if (p.job.signal) {
      p.job.signal.removeEventListener("abort", p.onAbort as () => void);
      p.onAbort = () => {
        if (slot.busy === p) this.replace(slot, "aborted");
      };
      if (p.job.signal.aborted) return p.onAbort();
      p.job.signal.addEventListener("abort", p.onAbort, { once: true });
    }
    slot.worker.postMessage({
      type: "run",
      code: p.job.code,
      params: JSON.stringify(p.job.params ?? {}),
      network: !!p.job.fetch,
      timeoutMs: p.job.timeoutMs,
    });
  }
}

/**
 * Answers a worker that waits synchronously (Pyodide's Python cannot await): the JSON answer goes
 * into the buffer it sent, after [state, length], and the waiting thread is woken.
 */
function writeShared(shared: SharedArrayBuffer, answer: unknown) {
  const state = new Int32Array(shared, 0, 2);
  const room = new Uint8Array(shared, 8);
  let bytes = new TextEncoder().encode(JSON.stringify(answer));
  if (bytes.length > room.length) bytes = new TextEncoder().encode(JSON.stringify({ ok: false, error: "the answer is too large" }));
  room.set(bytes);
  Atomics.store(state, 1, bytes.length);
  Atomics.store(state, 0, 1);
  Atomics.notify(state, 0);
}

const failure = (error: string, durationMs: number): SandboxResult => ({ ok: false, result: null, error, durationMs, logs: [] });

const isOutOfMemory = (err: Error) => (err as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY" || /out of memory/i.test(err.message);
