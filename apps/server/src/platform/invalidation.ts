import { type SQL, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { LRUCache } from "lru-cache";
import type { Database, Tx } from "../db/client.ts";

/** What a cached copy is of. "user": a user's identity (level, role, sessions); key: the user id. */
/** "mcp": replies waiting in the outbox of an SSE MCP session; key: the session id. */
/** "chatStream": new events of a reply stream; "chatStop": stop a reply; key: the reply id. */
/** "robots": the names of a tenant's RPA robots (offered to every chat as a tool); key: the tenant id. */
/** "workflowRun": changes of a run executing in another process; key: the notice (see workflows/run-notices.ts). */
/** "chatRead": someone reads a reply (it is not abandoned); key: the reply id. */
/** "agentUse": an agent's use count grew (the marketplace orders by it); key: the agent id. */
/** "jobs": a job was queued (idle workers of the queue start it at once); key: the queue's name. */
export type CacheTopic =
  | "user"
  | "agent"
  | "agentUse"
  | "models"
  | "mcp"
  | "chatStream"
  | "chatStop"
  | "chatRead"
  | "robots"
  | "workflowRun"
  | "jobs";

const CHANNEL = "agentfair_invalidate";
/** The key handlers get when messages may have been missed (a lost connection): drop everything. */
export const EVERYTHING = "*";

/**
 * Tells every process that its cached copies of something are stale: this process at once, and
 * every process (this one again) through PostgreSQL NOTIFY. Given the transaction that makes the
 * change, the NOTIFY is part of it and arrives at commit, so no process can cache what was read
 * before the commit. (PGlite has one process and runs one transaction at a time: at once is enough.)
 * Caches also expire on their own, which bounds the harm of a message that never arrives.
 */
export class Invalidation {
  private readonly handlers = new Map<string, Set<(key: string) => void>>();
  private stopListening: (() => Promise<void>) | null = null;
  /** Bumped by every invalidation of a topic: a lookup that began before one must not keep what it read. */
  private readonly generations = new Map<string, number>();

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start() {
    if (!this.database.listen) return;
    this.stopListening = await this.database.listen(
      CHANNEL,
      (payload) => {
        // Keys may hold "|" themselves (a workflow run's notice carries text).
        const bar = payload.indexOf("|");
        if (bar > 0) this.deliver(payload.slice(0, bar), payload.slice(bar + 1));
      },
      () => {
        this.log.info("cache invalidations: listening again; every cache starts empty");
        this.deliver(EVERYTHING, "");
      },
      (err) => this.log.warn({ err }, "cache invalidations: the listening connection was lost"),
    );
  }

  async stop() {
    await this.stopListening?.();
    this.stopListening = null;
  }

  /** Reads under way, by cache and key, with the generation they began in. */
  private readonly reading = new WeakMap<object, Map<string, { generation: number; value: Promise<unknown> }>>();

  /**
   * Reads through `cache`. A value read while an invalidation arrived is returned but not kept: it
   * may be what the invalidation was about. Callers that miss while the same key is being read,
   * with no invalidation since that read began, wait for it instead of reading again (after an
   * invalidation every waiting request would otherwise read the same thing at once).
   * `topic`: what the value is made of (one topic or several). `ttlOf` may shorten an entry's life
   * (e.g. to a session's end).
   */
  async cached<V extends {}>(
    topic: CacheTopic | CacheTopic[],
    cache: LRUCache<string, V>,
    key: string,
    load: () => Promise<V | undefined>,
    ttlOf?: (value: V) => number,
  ): Promise<V | undefined> {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const topics = Array.isArray(topic) ? topic : [topic];
    const generation = () => topics.reduce((sum, t) => sum + (this.generations.get(t) ?? 0), 0);
    const before = generation();
    const reads = this.reading.get(cache) ?? new Map();
    this.reading.set(cache, reads);
    const running = reads.get(key);
    if (running?.generation === before) return running.value as Promise<V | undefined>;
    const read = load();
    reads.set(key, { generation: before, value: read });
    try {
      const value = await read;
      if (value !== undefined && before === generation()) {
        const ttl = ttlOf?.(value);
        if (ttl === undefined || ttl > 0) cache.set(key, value, ttl === undefined ? undefined : { ttl });
      }
      return value;
    } finally {
      if (reads.get(key)?.value === read) reads.delete(key);
    }
  }

  on(topic: CacheTopic, handler: (key: string) => void) {
    const set = this.handlers.get(topic) ?? new Set();
    set.add(handler);
    this.handlers.set(topic, set);
  }

  /** `tx`: the transaction making the change, if it is not committed yet. */
  async publish(topic: CacheTopic, key: string, tx?: Tx) {
    this.deliver(topic, key);
    if (!this.database.listen) return;
    const payload = `${topic}|${key}`;
    // Inside the transaction a failure must fail the change: it is not caught.
    if (tx && tx !== this.database.db) {
      await tx.execute(sql`select pg_notify(${CHANNEL}, ${payload})`);
      return;
    }
    try {
      await this.database.executeSql("select pg_notify($1, $2)", [CHANNEL, payload]);
    } catch (err) {
      // The change itself is committed; other processes catch up when their entries expire.
      this.log.warn({ err, topic }, "cache invalidation could not be sent");
    }
  }

  /** `publish` for many keys at once: one statement in `tx` (the transaction making the change). */
  async publishAll(topic: CacheTopic, keys: string[], tx: Tx) {
    const notify = this.notifying(topic, keys);
    if (notify) await tx.execute(sql`select ${notify}`);
  }

  /**
   * `publishAll` as part of the statement that makes the change: delivers here, and returns the
   * NOTIFYs to select in that statement (null on PGlite or without keys: nothing to send).
   */
  notifying(topic: CacheTopic, keys: string[]): SQL | null {
    for (const key of keys) this.deliver(topic, key);
    if (!this.database.listen || !keys.length) return null;
    return sql.join(
      keys.map((key) => sql`pg_notify(${CHANNEL}, ${`${topic}|${key}`})`),
      sql`, `,
    );
  }

  private deliver(topic: string, key: string) {
    const topics = topic === EVERYTHING ? [...this.handlers.keys()] : [topic];
    for (const t of topics) {
      this.generations.set(t, (this.generations.get(t) ?? 0) + 1);
      for (const handler of this.handlers.get(t) ?? []) handler(topic === EVERYTHING ? EVERYTHING : key);
    }
  }
}
