import type { ServerResponse } from "node:http";
import type { Platform } from "../../platform/platform.ts";
import type { ChannelsRepository } from "./channels.repository.ts";

/** A comment line keeps proxies from closing an idle stream; the session is marked seen meanwhile. */
const KEEPALIVE_MS = 15_000;
/** Replies whose notification was lost are still picked up this often. */
const POLL_MS = 3_000;

/**
 * The SSE streams this process holds. Replies to a session are written to the database outbox and
 * announced on the "mcp" invalidation topic (PostgreSQL NOTIFY); the process holding the stream
 * takes them out and writes them, so the message POSTs may land on any process.
 */
export class SseHub {
  private readonly streams = new Map<string, ServerResponse>();
  private timer: NodeJS.Timeout | null = null;
  private ticks = 0;

  constructor(
    private readonly platform: Platform,
    private readonly repo: ChannelsRepository,
  ) {
    platform.invalidation.on("mcp", (sessionId) => {
      if (sessionId === "*") void this.drain([...this.streams.keys()]);
      else if (this.streams.has(sessionId)) void this.drain([sessionId]);
    });
  }

  hold(sessionId: string, res: ServerResponse) {
    this.streams.set(sessionId, res);
    res.on("close", () => {
      this.streams.delete(sessionId);
      void this.repo.deleteSession(sessionId).catch(() => undefined);
      if (!this.streams.size) this.stop();
    });
    this.timer ??= setInterval(() => this.tick(), POLL_MS);
    this.timer.unref();
  }

  async deliver(sessionId: string, messages: Record<string, unknown>[]) {
    await this.repo.enqueue(sessionId, messages);
    await this.platform.invalidate("mcp", sessionId);
  }

  private tick() {
    this.ticks++;
    const ids = [...this.streams.keys()];
    void this.drain(ids);
    if ((this.ticks * POLL_MS) % KEEPALIVE_MS < POLL_MS)
      for (const [id, res] of this.streams) {
        res.write(": keepalive\n\n");
        // A revoked key's sessions are deleted: its streams end here.
        void this.repo
          .touchSession(id)
          .then((live) => live || res.end())
          .catch(() => undefined);
      }
  }

  private async drain(sessionIds: string[]) {
    try {
      for (const row of await this.repo.takeOutbox(sessionIds)) {
        const res = this.streams.get(row.sessionId);
        if (res && !res.writableEnded) res.write(`event: message\ndata: ${JSON.stringify(row.message)}\n\n`);
      }
    } catch (err) {
      this.platform.log.warn({ err }, "mcp sse outbox could not be read");
    }
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  close() {
    this.stop();
    for (const res of this.streams.values()) res.end();
    this.streams.clear();
  }
}
