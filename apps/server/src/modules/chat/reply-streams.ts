import type { ChatEvent } from "@agentfair/contracts";
import { and, asc, desc, eq, gt, inArray, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { chatStreamEvents, chatStreams } from "../../db/schema/index.ts";
import type { Caller } from "../../platform/auth.ts";
import { notFound } from "../../platform/errors.ts";
import { EVERYTHING } from "../../platform/invalidation.ts";
import type { Platform } from "../../platform/platform.ts";

/**
 * Events are gathered this long and written together, those of every stream of the process in one
 * transaction: a transaction per stream and token kept PostgreSQL and the pool busy (300 streams
 * at 10 tokens a second made 3,000 transactions a second) while new replies waited to start.
 */
const BATCH_MS = 40;
/** The writing process renews its streams this often (all of them in one statement)… */
const ALIVE_EVERY_MS = 10_000;
/** …and a stream not renewed for this long lost its process. */
const ALIVE_FOR_MS = 30_000;
/** A reader with nothing new checks this often whether the writer is still alive. */
const READER_CHECK_MS = 5_000;
/** Ended streams are kept this long for late readers, then purged. */
const KEEP_ENDED_MS = 10 * 60_000;

/** Topics on the platform's NOTIFY channel: new events of a stream; a stop for a reply; someone reads a reply. */
const EVENTS = "chatStream" as const;
const STOP = "chatStop" as const;
const READ = "chatRead" as const;
/** A reader says it reads this often (and at least three times within the unread limit). */
const READING_EVERY_MS = 30_000;

/**
 * A stream this process writes: what is not written yet, how far it got, and when it was last read.
 * One object per open reply, with its methods on the class: nothing is made per reply but it (an
 * open reply holds its memory for as long as it streams).
 */
class Writing implements StreamWriter {
  events: ChatEvent[] = [];
  /** Events written or taken for writing so far. */
  seq = 0;
  created = false;
  /** Its end is asked for, and then written. */
  end = false;
  endWritten = false;
  /** When someone (anywhere) last read the reply, or its asker's connection ended. */
  private readAt = Date.now();
  private unread: NodeJS.Timeout | undefined;

  constructor(
    private readonly streams: ReplyStreams,
    readonly id: string,
    readonly sessionId: string,
    readonly userId: string,
    private readonly controller: AbortController,
    private readonly asker: AbortSignal,
  ) {
    if (asker.aborted) this.handleEvent();
    else asker.addEventListener("abort", this, { once: true });
  }

  /** Someone reads the reply. */
  read() {
    this.readAt = Date.now();
  }

  /** The asker's connection ended (its signal's abort event): the reply now runs while someone reads it. */
  handleEvent() {
    this.readAt = Date.now();
    this.watch();
  }

  private watch() {
    const left = this.readAt + this.streams.unreadFor - Date.now();
    if (left > 0) {
      this.unread = setTimeout(() => this.watch(), left);
      this.unread.unref();
      return;
    }
    this.streams.unreadStopped(this.id);
    this.controller.abort();
  }

  push(event: ChatEvent) {
    this.streams.pushed(this, event);
  }

  async close() {
    clearTimeout(this.unread);
    this.asker.removeEventListener("abort", this);
    await this.streams.closed(this);
  }
}

export interface StreamWriter {
  push(event: ChatEvent): void;
  /** Writes what is left and marks the stream ended. */
  close(): Promise<void>;
}

/**
 * Replies as streams that outlive their request: every event is written to PostgreSQL in small
 * batches and announced with NOTIFY, so any process can read a reply from any point (a reconnect
 * that the balancer sends to another process, a session opened again while its reply runs) and
 * any process can stop it. PGlite has one process: its notices are delivered at once.
 */
export class ReplyStreams {
  /** Readers waiting on this process, by stream. */
  private readonly waiting = new Map<string, Set<() => void>>();
  /** Replies running on this process, by stream: what a stop aborts. */
  private readonly running = new Map<string, AbortController>();
  /** Replies running on this process, by stream: notes that someone (anywhere) reads it. */
  private readonly reading = new Map<string, Writing>();
  private readonly db: Db;
  /** Streams with something to write, and the writes in order (a stream's events land in order). */
  private readonly unwritten = new Set<Writing>();
  private writes: Promise<void> = Promise.resolve();
  private batch: NodeJS.Timeout | undefined;
  private batchAt = 0;

  constructor(private readonly platform: Platform) {
    this.db = platform.db;
    const alive = setInterval(() => {
      if (!this.running.size) return;
      this.db
        .update(chatStreams)
        .set({ aliveAt: new Date() })
        .where(inArray(chatStreams.id, [...this.running.keys()]))
        .catch((err) => this.platform.log.warn({ err }, "renewing the reply streams failed"));
    }, ALIVE_EVERY_MS);
    alive.unref();
    platform.invalidation.on(EVENTS, (key) => this.wake(key));
    platform.invalidation.on(STOP, (key) => {
      if (key !== EVERYTHING) this.running.get(key)?.abort();
    });
    platform.invalidation.on(READ, (key) => {
      // Notices may have been missed: every reply counts as read now.
      if (key === EVERYTHING) for (const writing of this.reading.values()) writing.read();
      else this.reading.get(key)?.read();
    });
    platform.jobs.schedule("chat.purge-streams", "*/10 * * * *", () => this.purge());
  }

  private wake(key: string) {
    const wakers = key === EVERYTHING ? [...this.waiting.values()].flatMap((s) => [...s]) : [...(this.waiting.get(key) ?? [])];
    for (const w of wakers) w();
  }

  /**
   * Starts the stream of a reply; `controller` is aborted by a stop from any process, and once nobody has read
   * the reply for CHAT_UNREAD_STOP_MS after `asker` (the asker's connection) ended: an abandoned reply does not
   * run (and cost) on its own for as long as its tools and workflows allow.
   */
  open(id: string, sessionId: string, userId: string, controller: AbortController, asker: AbortSignal): StreamWriter {
    this.running.set(id, controller);
    const writing = new Writing(this, id, sessionId, userId, controller, asker);
    this.reading.set(id, writing);
    return writing;
  }

  /** How long a reply whose asker has gone runs unread (CHAT_UNREAD_STOP_MS). */
  get unreadFor() {
    return this.platform.config.CHAT_UNREAD_STOP_MS;
  }

  /** For Writing: a reply nobody read was stopped. */
  unreadStopped(id: string) {
    this.platform.log.info({ reply: id }, "a reply nobody read was stopped");
  }

  /** For Writing: an event of one of this process's streams. */
  pushed(writing: Writing, event: ChatEvent) {
    writing.events.push(event);
    this.unwritten.add(writing);
    // The stop is written with the stream's end: whoever reads it finds the reply ended too.
    if (event.type === "stop") {
      writing.end = true;
      void this.writeNow();
      return;
    }
    // The first event (the session) is written at once, so a reader that comes right after finds the stream.
    this.writeIn(writing.seq || writing.events.length > 1 ? BATCH_MS : 0);
  }

  /** For Writing: writes what is left and marks the stream ended. */
  async closed(writing: Writing) {
    this.reading.delete(writing.id);
    writing.end = true;
    this.unwritten.add(writing);
    await this.writeNow();
    this.running.delete(writing.id);
  }

  /** Writes what is unwritten within `ms` (sooner if already planned). */
  private writeIn(ms: number) {
    const at = Date.now() + ms;
    if (this.batch && this.batchAt <= at) return;
    clearTimeout(this.batch);
    this.batchAt = at;
    this.batch = setTimeout(() => void this.writeNow(), ms);
  }

  /** Writes everything unwritten now, after the writes before; resolves when it is written (or failed). */
  private writeNow() {
    clearTimeout(this.batch);
    this.batch = undefined;
    this.writes = this.writes.then(() => this.write());
    return this.writes;
  }

  private async write() {
    const batch = [...this.unwritten].map((w) => {
      const events = w.events;
      w.events = [];
      const fromSeq = w.seq;
      w.seq += events.length;
      return { w, events, fromSeq, end: w.end && !w.endWritten };
    });
    this.unwritten.clear();
    const todo = batch.filter((b) => b.events.length || b.end || !b.w.created);
    if (!todo.length) return;
    try {
      await this.writeBatch(todo);
    } catch (err) {
      if (todo.length === 1) {
        // The reply goes on for its own reader; only a later reader misses these events.
        this.platform.log.warn({ err }, "writing a reply stream failed");
        return;
      }
      // One stream's bad write (an event the database refuses) must not cost the others theirs.
      for (const one of todo) await this.writeBatch([one]).catch((err) => this.platform.log.warn({ err }, "writing a reply stream failed"));
    }
  }

  /**
   * The batch's new streams and events, and their NOTIFY, in one statement (no transaction: its
   * begin and commit were two of its four round trips); then the ends, after their stop events.
   * The ends cannot share the statement (an event's foreign key fails on a stream row the same
   * statement changes), so a batch with an end is one transaction: a reader who finds the stop
   * event (or hears of it: NOTIFY is sent at commit) finds the stream ended too.
   */
  private async writeBatch(todo: { w: Writing; events: ChatEvent[]; fromSeq: number; end: boolean }[]) {
    const ended = todo.filter((b) => b.end);
    const write = async (db: Tx) => {
      const ctes: SQL[] = [];
      const fresh = todo.filter((b) => !b.w.created);
      if (fresh.length)
        ctes.push(
          sql`s as (${db
            .insert(chatStreams)
            .values(fresh.map(({ w }) => ({ id: w.id, sessionId: w.sessionId, userId: w.userId })))
            .getSQL()})`,
        );
      const rows = todo.filter((b) => b.events.length);
      if (rows.length)
        ctes.push(
          sql`e as (${db
            .insert(chatStreamEvents)
            .values(rows.map((b) => ({ streamId: b.w.id, fromSeq: b.fromSeq, toSeq: b.fromSeq + b.events.length, events: b.events })))
            .getSQL()})`,
        );
      const notify = this.platform.invalidation.notifying(
        EVENTS,
        todo.map((b) => b.w.id),
      );
      if (ctes.length) await db.execute(sql`with ${sql.join(ctes, sql`, `)} select ${notify ?? sql`1`}`);
      else if (notify) await db.execute(sql`select ${notify}`);
      if (!ended.length) return;
      // Its stop event is written: its readers end there; the stream counts as lost once unrenewed.
      const now = new Date();
      await db
        .update(chatStreams)
        .set({ endedAt: now, aliveAt: now })
        .where(
          inArray(
            chatStreams.id,
            ended.map((b) => b.w.id),
          ),
        );
    };
    if (ended.length) await this.db.transaction(write);
    else await write(this.db);
    for (const b of todo) b.w.created = true;
    for (const b of ended) b.w.endWritten = true;
  }

  /** Stops a reply of the caller wherever it runs (the reply then ends as stopped and is saved). */
  async stop(caller: Caller, id: string) {
    const [row] = await this.db.select().from(chatStreams).where(eq(chatStreams.id, id));
    if (!row || row.userId !== caller.userId) throw notFound();
    if (row.endedAt) return;
    this.running.get(id)?.abort();
    await this.platform.invalidation.publish(STOP, id);
  }

  /** The running reply of a session (the newest whose process is alive), if any. */
  async runningIn(sessionId: string) {
    const [row] = await this.db
      .select({ id: chatStreams.id })
      .from(chatStreams)
      .where(
        and(
          eq(chatStreams.sessionId, sessionId),
          isNull(chatStreams.endedAt),
          gt(chatStreams.aliveAt, new Date(Date.now() - ALIVE_FOR_MS)),
        ),
      )
      .orderBy(desc(chatStreams.createdAt))
      .limit(1);
    return row?.id;
  }

  /**
   * Writes the caller's reply's events after the first `after` until its stop event. A stream whose
   * process died ends here as failed with `lost` (the caller's wording of it).
   */
  async read(caller: Caller, id: string, after: number, signal: AbortSignal, write: (e: ChatEvent) => void, lost: () => ChatEvent[]) {
    const owner = async () => (await this.db.select().from(chatStreams).where(eq(chatStreams.id, id)))[0];
    const first = await owner();
    if (!first || first.userId !== caller.userId) throw notFound();
    let cursor = after;
    let wake = () => {};
    const wakers = this.waiting.get(id) ?? new Set();
    const waker = () => wake();
    wakers.add(waker);
    this.waiting.set(id, wakers);
    const onAbort = () => wake();
    signal.addEventListener("abort", onAbort);
    // Tells the reply's process (whichever it is) that someone reads it, so it is not stopped as abandoned.
    const says = () => void this.platform.invalidation.publish(READ, id);
    says();
    const saying = setInterval(says, Math.max(50, Math.min(READING_EVERY_MS, this.platform.config.CHAT_UNREAD_STOP_MS / 3)));
    saying.unref();
    try {
      while (!signal.aborted) {
        // Armed before reading, so a notice that comes during the read is not lost.
        const woken = new Promise<boolean>((resolve) => {
          const t = setTimeout(() => resolve(false), READER_CHECK_MS);
          t.unref();
          wake = () => {
            clearTimeout(t);
            resolve(true);
          };
        });
        const rows = await this.db
          .select()
          .from(chatStreamEvents)
          .where(and(eq(chatStreamEvents.streamId, id), gt(chatStreamEvents.toSeq, cursor)))
          .orderBy(asc(chatStreamEvents.fromSeq));
        for (const row of rows) {
          const events = row.events as ChatEvent[];
          for (let i = Math.max(0, cursor - row.fromSeq); i < events.length; i++) {
            write(events[i]!);
            if (events[i]!.type === "stop") return;
          }
          cursor = row.toSeq;
        }
        if (await woken) continue;
        const now = await owner();
        if (!now) return;
        if (!now.endedAt && now.aliveAt.getTime() < Date.now() - ALIVE_FOR_MS) {
          for (const e of lost()) write(e);
          return;
        }
        // Ended, and every event read: nothing more will come.
        if (now.endedAt && !rows.length) return;
      }
    } finally {
      clearInterval(saying);
      wakers.delete(waker);
      if (!wakers.size) this.waiting.delete(id);
      signal.removeEventListener("abort", onAbort);
    }
  }

  /** Ended streams after a while, and streams whose process died long ago. */
  async purge() {
    const ended = new Date(Date.now() - KEEP_ENDED_MS);
    await this.db
      .delete(chatStreams)
      .where(or(lt(chatStreams.endedAt, ended), and(isNull(chatStreams.endedAt), lt(chatStreams.aliveAt, ended))));
  }
}
