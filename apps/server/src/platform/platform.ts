import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config.ts";
import type { Database, Db, Tx } from "../db/client.ts";
import type { CallerCache } from "./auth.ts";
import type { CacheTopic, Invalidation } from "./invalidation.ts";
import type { Jobs } from "./jobs.ts";
import type { Mailer } from "./mail.ts";
import type { Metrics } from "./metrics.ts";
import type { RateLimiter } from "./rate-limit.ts";

/** What every module is given: settings and the shared cross-cutting parts. */
export interface Platform {
  config: Config;
  database: Database;
  db: Db;
  jobs: Jobs;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  metrics: Metrics;
  /** Secret for signing and encryption, shared by every process (generated once if unset). */
  secret: string;
  log: FastifyBaseLogger;
  /** Token → caller; the one way a request's identity is read. */
  callers: CallerCache;
  /** Where caches subscribe to invalidations. */
  invalidation: Invalidation;
  /**
   * Aborted when the process begins to shut down (SIGTERM): streams end with an error event and
   * are saved, and /readyz answers 503 so that the balancer sends no more requests here.
   */
  stopping: AbortSignal;
  /** Drops cached copies of `key` in every process: with the change's transaction, or after its commit. */
  invalidate(topic: CacheTopic, key: string, tx?: Tx): Promise<void>;
}
