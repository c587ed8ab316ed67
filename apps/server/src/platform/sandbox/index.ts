import { type SandboxJob, SandboxPool, type SandboxResult } from "./pool.ts";

export type { SandboxFetchRequest, SandboxFetchResponse, SandboxJob, SandboxResult } from "./pool.ts";

export type SandboxLanguage = "javascript" | "python";

export interface SandboxOptions {
  /** Wall-clock limit of one call. */
  timeoutMs: number;
  /** Memory of one call: QuickJS's runtime limit, and the Python WebAssembly heap is 4× this (CPython itself needs ~40 MB). */
  memoryMb: number;
  jsWorkers: number;
  pyWorkers: number;
  /** Largest result of one call, as JSON in UTF-8 (PLUGIN_RESPONSE_MAX_BYTES, as HTTP answers): past it the call fails. */
  maxResultBytes?: number;
}

/**
 * The code sandboxes: JavaScript in QuickJS and Python in Pyodide, each in its own pool of worker
 * threads. The Python pool starts on its first use (Pyodide takes a few seconds to load).
 */
export class Sandboxes {
  private js?: SandboxPool;
  private py?: SandboxPool;

  constructor(readonly options: SandboxOptions) {}

  run(language: SandboxLanguage, job: Omit<SandboxJob, "timeoutMs"> & { timeoutMs?: number }): Promise<SandboxResult> {
    const timeoutMs = Math.min(job.timeoutMs ?? this.options.timeoutMs, this.options.timeoutMs);
    return this.pool(language).run({ ...job, timeoutMs });
  }

  /** Starts a language's workers now (benchmarks, tests) instead of on the first call. */
  warm(language: SandboxLanguage) {
    return this.pool(language).warm();
  }

  async close() {
    await Promise.all([this.js?.close(), this.py?.close()]);
  }

  private pool(language: SandboxLanguage): SandboxPool {
    const o = this.options;
    const common = {
      perTenant: 0,
      recycleAfter: 500,
      queueTimeoutMs: Math.max(10_000, o.timeoutMs * 2),
      queueLimit: 50,
      maxResultBytes: o.maxResultBytes,
    };
    if (language === "javascript") {
      this.js ??= new SandboxPool({
        ...common,
        script: new URL("./js-worker.mjs", import.meta.url),
        size: o.jsWorkers,
        perTenant: Math.max(1, Math.ceil(o.jsWorkers / 2)),
        memoryMb: 64,
        ownerAffinity: false,
        workerData: { memoryMb: o.memoryMb },
      });
      return this.js;
    }
    this.py ??= new SandboxPool({
      ...common,
      script: new URL("./py-worker.mjs", import.meta.url),
      size: o.pyWorkers,
      perTenant: Math.max(1, Math.ceil(o.pyWorkers / 2)),
      memoryMb: 192,
      ownerAffinity: true,
      // Pyodide's interpreter takes seconds to start (far more on a loaded machine): the first
      // calls wait for it rather than fail.
      queueTimeoutMs: Math.max(120_000, o.timeoutMs * 3),
      workerData: { heapMb: o.memoryMb * 4 },
    });
    return this.py;
  }
}
