import { EVERYTHING } from "../../platform/invalidation.ts";
import type { Platform } from "../../platform/platform.ts";
import type { AnswerDelta, WorkflowEngine } from "./engine.ts";

const TOPIC = "workflowRun" as const;
/** Changes are gathered this long and announced together: a notice per token would cost a statement per token. */
const BATCH_MS = 40;
/** Answer text per notice: a NOTIFY payload holds 8000 bytes, and an escaped character takes up to 6. */
const TEXT_PER_NOTICE = 1000;

/** What another process's notice says of a run: a piece of answer text, or that its rows changed (read them again). */
export type RemoteChange = { delta: AnswerDelta } | { changed: true };

interface Notice {
  /** The process that executes the run. */
  p: string;
  r: string;
  /** Node rows or the run changed. */
  c?: 1;
  /** Answer pieces: node id, scope, offset, text. */
  d?: [string, string, number, string][];
}

/**
 * The changes of runs executing here, announced to the other processes (PostgreSQL NOTIFY): answer text as it
 * is written (it is stored only when its answer node ends) and that node rows changed (they are stored). A
 * reader in another process (a chat whose workflow a worker runs, a test-run panel the balancer sent
 * elsewhere) follows the run through these. PGlite has one process: nothing to announce.
 */
export class RunNotices {
  private readonly outbox = new Map<string, { changed: boolean; deltas: AnswerDelta[] }>();
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private readonly listeners = new Map<string, Set<(change: RemoteChange) => void>>();

  constructor(
    private readonly platform: Platform,
    private readonly engine: WorkflowEngine,
  ) {
    if (!platform.database.listen) return;
    engine.listen((runId, change) => this.queue(runId, change.delta));
    platform.invalidation.on(TOPIC, (key) => this.receive(key));
  }

  /** Another process's changes of one run. */
  listen(runId: string, listener: (change: RemoteChange) => void) {
    const set = this.listeners.get(runId) ?? new Set();
    set.add(listener);
    this.listeners.set(runId, set);
    return () => {
      set.delete(listener);
      if (!set.size) this.listeners.delete(runId);
    };
  }

  private queue(runId: string, delta: AnswerDelta | undefined) {
    const entry = this.outbox.get(runId) ?? { changed: false, deltas: [] };
    if (delta) entry.deltas.push(delta);
    else entry.changed = true;
    this.outbox.set(runId, entry);
    this.timer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  private flush() {
    this.timer = undefined;
    const notices: Notice[] = [];
    for (const [r, { changed, deltas }] of this.outbox) {
      let d: Notice["d"] = [];
      let size = 0;
      for (const delta of deltas)
        for (let i = 0; i < delta.text.length; i += TEXT_PER_NOTICE) {
          const text = delta.text.slice(i, i + TEXT_PER_NOTICE);
          if (size + text.length > TEXT_PER_NOTICE) {
            notices.push({ p: this.engine.processId, r, d });
            d = [];
            size = 0;
          }
          d.push([delta.nodeId, delta.scope, delta.at + i, text]);
          size += text.length;
        }
      notices.push({ p: this.engine.processId, r, ...(d.length ? { d } : {}), ...(changed ? { c: 1 as const } : {}) });
    }
    this.outbox.clear();
    // One after another: a reader gets them in order.
    for (const notice of notices) this.chain = this.chain.then(() => this.platform.invalidation.publish(TOPIC, JSON.stringify(notice)));
  }

  private receive(key: string) {
    if (key === EVERYTHING) {
      // Notices may have been missed: every follower reads its run again (answer text missed shows when its node ends).
      for (const set of this.listeners.values()) for (const l of set) l({ changed: true });
      return;
    }
    let notice: Notice;
    try {
      notice = JSON.parse(key) as Notice;
    } catch {
      return;
    }
    // This process's own runs reach its followers directly.
    if (notice.p === this.engine.processId) return;
    const set = this.listeners.get(notice.r);
    if (!set) return;
    for (const l of set) {
      for (const [nodeId, scope, at, text] of notice.d ?? []) l({ delta: { nodeId, scope, at, text } });
      if (notice.c) l({ changed: true });
    }
  }
}

/**
 * Answer text as a follower shows it, from pieces that may come twice or with a gap (a missed notice, a run
 * taken over by another process): each piece adds only what follows what was shown; after a gap the answer
 * waits for its node's end, whose stored text gives the rest.
 */
export function answerText() {
  const shown = new Map<string, number>();
  return {
    piece(d: AnswerDelta) {
      const key = `${d.scope}/${d.nodeId}`;
      const n = shown.get(key) ?? 0;
      if (d.at > n || d.at + d.text.length <= n) return "";
      shown.set(key, d.at + d.text.length);
      return d.text.slice(n - d.at);
    },
    rest(nodeId: string, scope: string, text: string) {
      const key = `${scope}/${nodeId}`;
      const n = shown.get(key) ?? 0;
      shown.set(key, Math.max(n, text.length));
      return text.slice(n);
    },
  };
}
