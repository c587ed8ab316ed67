import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../db/client.ts";

/** What a cached copy is of. "user": a user's identity (level, role, sessions); key: the user id. */
export type CacheTopic = "user" | "agent" | "models";

const CHANNEL = "agentfair_invalidate";
/** The key handlers get when messages may have been missed (a lost connection): drop everything. */
export const EVERYTHING = "*";

/**
 * Tells every process that its cached copies of something are stale: this process at once, the
 * others through PostgreSQL NOTIFY. Publish after the change is committed. Caches also expire on
 * their own (a short TTL), which bounds the harm of a message that never arrives.
 */
export class Invalidation {
  private readonly handlers = new Map<string, Set<(key: string) => void>>();
  private readonly origin = randomUUID();
  private stopListening: (() => Promise<void>) | null = null;
  /** Bumped by every invalidation: a lookup that began before one must not store what it read. */
  generation = 0;

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start() {
    if (!this.database.listen) return;
    this.stopListening = await this.database.listen(
      CHANNEL,
      (payload) => {
        const [origin, topic, key] = payload.split("|");
        if (origin !== this.origin && topic && key !== undefined) this.deliver(topic, key);
      },
      () => this.deliver(EVERYTHING, ""),
    );
  }

  async stop() {
    await this.stopListening?.();
    this.stopListening = null;
  }

  on(topic: CacheTopic, handler: (key: string) => void) {
    const set = this.handlers.get(topic) ?? new Set();
    set.add(handler);
    this.handlers.set(topic, set);
  }

  async publish(topic: CacheTopic, key: string) {
    this.deliver(topic, key);
    if (!this.database.listen) return;
    try {
      await this.database.executeSql("select pg_notify($1, $2)", [CHANNEL, `${this.origin}|${topic}|${key}`]);
    } catch (err) {
      // The change itself is committed; other processes catch up when their entries expire.
      this.log.warn({ err, topic }, "cache invalidation could not be sent");
    }
  }

  private deliver(topic: string, key: string) {
    this.generation++;
    if (topic === EVERYTHING) {
      for (const set of this.handlers.values()) for (const handler of set) handler(EVERYTHING);
      return;
    }
    for (const handler of this.handlers.get(topic) ?? []) handler(key);
  }
}
