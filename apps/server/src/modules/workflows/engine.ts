import { randomUUID } from "node:crypto";
import { withoutNul } from "../../db/client.ts";
import {
  FAIL_HANDLE,
  type GraphEdge,
  type GraphNode,
  type HumanInputRequest,
  type NodeCommon,
  type NodeType,
  nodeData,
  type WorkflowGraph,
} from "@agentfair/contracts";
import { type AnswerFeed, answerFeeds } from "./answer-stream.ts";
import { CheckpointWriter, LeaseLost } from "./checkpoints.ts";
import { jsonSizeWithin, type Lookup, resolveText } from "./template.ts";
import type { NodeRunRow, RunRow, WorkflowsRepository } from "./workflows.repository.ts";

/** What a node's executor returns. */
export interface NodeResult {
  output: Record<string, unknown>;
  /** The branch taken (condition case, class id); undefined: every plain edge. */
  handle?: string;
  tokens?: number;
  /** What the node worked on (resolved parameters, the request), shown in its trace. */
  input?: unknown;
  /** A human-input node: the run waits for this. */
  pause?: HumanInputRequest;
}

export interface NodeContext {
  run: RunRow;
  node: GraphNode;
  /** The node's data parsed with its type's schema (defaults filled in). */
  data: Record<string, unknown>;
  scope: string;
  lookup: Lookup;
  signal: AbortSignal;
  /** Set when answer nodes show this node's text as it is written: the executor passes each piece here. */
  stream?: (text: string) => void;
  /** Loops and iterations: runs one pass of the body (nodes whose parentId is this node). */
  runBody(index: number, vars: Record<string, unknown>): Promise<Lookup>;
  /** The steps and data of the run and the sub-workflow runs it started: a sub-workflow node hands it to its child. */
  budget: RunBudget;
}

/**
 * Node steps and node data shared by a run and every sub-workflow run under it, so `maxSteps` and
 * `maxDataChars` bound the whole tree: a workflow that runs itself once per item of an iteration multiplied
 * its runs by the items at each level, and a run holds every node's input and output until it ends.
 */
export interface RunBudget {
  steps: number;
  /** Characters of the nodes' inputs and outputs as JSON (about their bytes). */
  data: number;
}

/** A sub-workflow run's parent: its budget, and the node's signal (the parent stopping stops the child). */
export interface RunParent {
  budget: RunBudget;
  signal: AbortSignal;
}

export type NodeExecutor = (ctx: NodeContext) => Promise<NodeResult>;

export interface EngineLimits {
  /** Branches of one scope that run at once. */
  concurrency: number;
  /** Node executions of one run with its sub-workflow runs (retries count once; loop passes count each node). */
  maxSteps: number;
  /** Wall-clock limit of one execution of a run. */
  maxRunMs: number;
  /** Inputs and outputs of a run's nodes together (sub-workflow runs included), in characters of JSON. */
  maxDataChars: number;
  /**
   * Lease of the executing process, renewed every quarter of it: a run whose process died is taken over
   * once it lapses (the sweep looks every half lease), so this bounds how long a crashed run waits.
   */
  leaseMs: number;
}

export const DEFAULT_LIMITS: EngineLimits = {
  concurrency: 4,
  maxSteps: 1000,
  maxRunMs: 10 * 60_000,
  maxDataChars: 64_000_000,
  leaseMs: 6_000,
};

/**
 * Node types that only compute from the run's own values. Any other type reaches outside the run (a model,
 * a sandbox, the network, another run, a person) and starts only once every row before it is written.
 */
const PURE = new Set<NodeType>(["start", "end", "answer", "template", "condition", "assign", "aggregate", "list", "loop", "iteration"]);

/** Default wall-clock limit of one try, per type (a node's timeoutMs overrides it). */
const DEFAULT_TIMEOUT: Partial<Record<NodeType, number>> = { loop: 600_000, iteration: 600_000, subworkflow: 600_000, human: 600_000 };
const DEFAULT_NODE_TIMEOUT = 60_000;
/** A node still running after this long gets its RUNNING row (faster ones write only their finished row). */
const START_ROW_DELAY_MS = 25;

export class NodeFailure extends Error {
  constructor(
    readonly nodeId: string,
    message: string,
  ) {
    super(message);
  }
}

class RunAbort extends Error {}

/** A piece of an answer node's text (top-level answers are the chat's reply). */
export interface AnswerDelta {
  nodeId: string;
  scope: string;
  text: string;
  /** Where the piece starts in the answer's text: a reader in another process places it (or sees a gap). */
  at: number;
}

/**
 * Something that wants each change of a run (the run-events stream, the chat's progress steps). Node and run
 * changes are reported once written; answer text as it is produced.
 */
export type RunListener = (runId: string, change: { node?: NodeRunRow; run?: RunRow; delta?: AnswerDelta }) => void;

interface ScopeResult {
  lookup: Lookup;
  paused: HumanInputRequest | null;
}

interface Exec {
  run: RunRow;
  done: Map<string, NodeRunRow>;
  budget: RunBudget;
  seq: number;
  deadline: number;
  abort: AbortController;
  parsed: Map<GraphNode, Record<string, unknown>>;
  writer: CheckpointWriter;
  /** Answer text already sent, by answer key; null: that answer is sent whole when it runs. */
  streamed: Map<string, string | null>;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

/** A finished row that a resumed run keeps: succeeded, skipped, or failed with its failure handled. */
const keeps = (r: NodeRunRow) => r.status === "SUCCEEDED" || r.status === "SKIPPED" || (r.status === "FAILED" && r.handle !== null);

/** A new row of a node's run, next in the run's order: a skipped node never started, a running one has its first attempt. */
function nodeRow(exec: Exec, node: GraphNode, scope: string, key: string, status: "SKIPPED" | "RUNNING"): NodeRunRow {
  const running = status === "RUNNING";
  return {
    runId: exec.run.id,
    key,
    nodeId: node.id,
    scope,
    type: node.type,
    title: titleOf(node),
    status,
    input: null,
    output: null,
    handle: null,
    error: null,
    attempts: running ? 1 : 0,
    tokens: 0,
    seq: ++exec.seq,
    startedAt: running ? new Date() : null,
    finishedAt: null,
  };
}

/** Whether an edge carries the branch its source took. */
function edgeTaken(edge: GraphEdge, row: NodeRunRow): boolean {
  if (row.status === "SKIPPED") return false;
  const h = edge.sourceHandle || null;
  const isPlain = h === null || h === "source";
  if (row.handle === FAIL_HANDLE) return h === FAIL_HANDLE;
  if (row.handle === null || row.handle === "") return isPlain;
  return h === row.handle;
}

/**
 * The workflow engine: ready-queue execution of a graph with bounded parallel branches and joins.
 * Each node's start, output, error and timing is written as it happens; a run resumed (after a crash
 * or a failure) keeps every finished node's row and output and runs only what is left.
 */
export class WorkflowEngine {
  readonly processId = randomUUID();
  private readonly listeners = new Set<RunListener>();
  /** Runs this process executes now: their leases are renewed together. */
  private readonly held = new Map<string, AbortController>();
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    readonly repo: WorkflowsRepository,
    private readonly executors: Partial<Record<NodeType, NodeExecutor>>,
    readonly limits: EngineLimits = DEFAULT_LIMITS,
  ) {}

  /** Stops this process's execution of a run at once (its lease was given up: nothing more is written). */
  drop(runId: string) {
    this.held.get(runId)?.abort(new LeaseLost());
  }

  /** Whether this process executes the run now. */
  holds(runId: string) {
    return this.held.has(runId);
  }

  listen(listener: RunListener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(runId: string, change: { node?: NodeRunRow; run?: RunRow; delta?: AnswerDelta }) {
    for (const l of this.listeners) {
      try {
        l(runId, change);
      } catch {
        // A listener's fault never stops a run.
      }
    }
  }

  /**
   * Executes a run if this process can take its lease (another live process holds it: returns false).
   * Returns when the run finished, failed or paused.
   */
  async execute(runId: string, parent?: RunParent): Promise<boolean> {
    const run = await this.repo.claim(runId, this.processId, this.limits.leaseMs);
    if (!run) return false;
    const abort = new AbortController();
    this.held.set(runId, abort);
    this.heartbeat ??= setInterval(() => void this.renewLeases(), Math.max(50, Math.floor(this.limits.leaseMs / 4)));
    // The node that started a sub-workflow timed out, or its run stopped: the child ends failed, not on its own.
    const stop = () => abort.abort(new RunAbort("the run that started this sub-workflow stopped"));
    if (parent?.signal.aborted) stop();
    parent?.signal.addEventListener("abort", stop, { once: true });
    try {
      await this.executeClaimed(run, abort, parent?.budget);
    } finally {
      parent?.signal.removeEventListener("abort", stop);
      this.held.delete(runId);
      if (!this.held.size && this.heartbeat) {
        clearInterval(this.heartbeat);
        this.heartbeat = null;
      }
    }
    return true;
  }

  /** One statement renews every lease of this process; a run whose lease was taken over stops here. */
  private async renewLeases() {
    const ids = [...this.held.keys()];
    const kept = await this.repo.renew(ids, this.processId, this.limits.leaseMs).catch(() => null);
    if (!kept) return;
    for (const id of ids) if (!kept.has(id)) this.held.get(id)?.abort(new LeaseLost());
  }

  /**
   * The sweep: takes over RUNNING runs whose process stopped renewing its lease, now and then every half
   * lease, handing each to `run` (default: execute here). Returns the stop function.
   */
  sweepEvery(run: (runId: string) => unknown = (id) => this.execute(id)) {
    const sweep = async () => {
      const orphans = await this.repo.orphaned(50, this.limits.leaseMs).catch(() => []);
      for (const { id } of orphans) if (!this.held.has(id)) void run(id);
    };
    void sweep();
    const timer = setInterval(() => void sweep(), Math.max(100, Math.floor(this.limits.leaseMs / 2)));
    timer.unref();
    return () => clearInterval(timer);
  }

  private async executeClaimed(run: RunRow, abort: AbortController, budget: RunBudget = { steps: 0, data: 0 }) {
    const rows = await this.repo.nodeRuns(run.id);
    for (const r of rows.filter(keeps)) {
      budget.steps++;
      budget.data += jsonSizeWithin([r.input, r.output], Number.MAX_SAFE_INTEGER);
    }
    const exec: Exec = {
      run,
      done: new Map(rows.filter(keeps).map((r) => [r.key, r])),
      budget,
      seq: rows.reduce((m, r) => Math.max(m, r.seq), 0),
      deadline: Date.now() + this.limits.maxRunMs,
      abort,
      parsed: new Map(),
      writer: new CheckpointWriter(this.repo, run.id, this.processId),
      streamed: new Map(),
    };
    // Paused rows: the answer turned them SUCCEEDED; still PAUSED means the wait goes on.
    for (const r of rows) if (r.status === "PAUSED") exec.done.set(r.key, r);
    const timer = setTimeout(() => exec.abort.abort(new RunAbort("the run took longer than its time limit")), this.limits.maxRunMs);
    try {
      const top = run.graph.nodes.filter((n) => !n.parentId);
      const result = await this.runScope(exec, run.graph, top, "", () => undefined);
      if (result.paused) {
        await this.finishRun(exec, { status: "PAUSED", waiting: result.paused });
        return;
      }
      const ends = top.filter((n) => n.type === "end");
      const outputs: Record<string, unknown> = {};
      for (const end of ends) {
        const row = exec.done.get(end.id);
        if (row?.status === "SUCCEEDED") Object.assign(outputs, row.output as object);
      }
      await this.finishRun(exec, { status: "SUCCEEDED", outputs, waiting: null, error: null, failedNodeId: null, finishedAt: new Date() });
    } catch (err) {
      if (err instanceof LeaseLost || exec.abort.signal.reason instanceof LeaseLost) return;
      const message = err instanceof Error ? err.message : String(err);
      await this.finishRun(exec, {
        status: "FAILED",
        error: message.slice(0, 2000),
        failedNodeId: err instanceof NodeFailure ? err.nodeId : null,
        waiting: null,
        finishedAt: new Date(),
      });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The run's end, after every node row: a failed write of those leaves the run RUNNING (its lease lapses and
   * the sweep continues it); a lost lease leaves it to the process that took it over.
   */
  private async finishRun(exec: Exec, values: Partial<RunRow>) {
    try {
      await exec.writer.flushed();
    } catch (err) {
      if (err instanceof LeaseLost) return;
      throw err;
    }
    let tokens = 0;
    for (const r of exec.done.values()) tokens += r.tokens;
    if (await this.repo.finishRun(exec.run.id, this.processId, { ...values, tokens }))
      this.emit(exec.run.id, { run: { ...exec.run, ...values, tokens } });
  }

  /** Queues a node's row and reports the change once it is written. */
  private write(exec: Exec, row: NodeRunRow) {
    const copy = { ...row };
    exec.writer.put(row).then(
      () => this.emit(exec.run.id, { node: copy }),
      () => {},
    );
  }

  private parse(exec: Exec, node: GraphNode) {
    let data = exec.parsed.get(node);
    if (!data) {
      data = nodeData[node.type].parse(node.data) as Record<string, unknown>;
      exec.parsed.set(node, data);
    }
    return data;
  }

  /**
   * Runs the nodes of one scope (the top level, or one pass of a loop's body) until nothing is ready.
   * A node is ready when every incoming edge is settled and at least one carries its source's branch;
   * when all are settled and none does, it is skipped (and so are its own followers).
   */
  private async runScope(exec: Exec, graph: WorkflowGraph, nodes: GraphNode[], scope: string, parent: Lookup): Promise<ScopeResult> {
    const ids = new Set(nodes.map((n) => n.id));
    const incoming = new Map<string, GraphEdge[]>(nodes.map((n) => [n.id, []]));
    for (const e of graph.edges) if (ids.has(e.source) && ids.has(e.target)) incoming.get(e.target)?.push(e);
    const keyOf = (id: string) => (scope ? `${scope}/${id}` : id);
    const rowOf = (id: string) => exec.done.get(keyOf(id));
    const lookup: Lookup = (id) => {
      if (ids.has(id)) {
        const row = rowOf(id);
        return row && row.status !== "SKIPPED" ? row.output : undefined;
      }
      return parent(id);
    };
    const feeds = answerFeeds(
      nodes,
      graph.edges.filter((e) => ids.has(e.target)),
      (n) => this.parse(exec, n),
    );
    const running = new Map<string, Promise<void>>();
    let failure: unknown = null;
    let paused: HumanInputRequest | null = null;

    const state = (n: GraphNode): "done" | "running" | "ready" | "skip" | "wait" => {
      const row = rowOf(n.id);
      if (row) return "done";
      if (running.has(n.id)) return "running";
      const edges = incoming.get(n.id) ?? [];
      if (!edges.length) return "ready";
      let taken = false;
      for (const e of edges) {
        const src = rowOf(e.source);
        if (!src || src.status === "PAUSED") return "wait";
        if (edgeTaken(e, src)) taken = true;
      }
      return taken ? "ready" : "skip";
    };

    for (;;) {
      if (failure) break;
      let progressed = false;
      for (const n of nodes) {
        const s = state(n);
        if (s === "skip") {
          await this.skip(exec, n, scope, keyOf(n.id));
          progressed = true;
        } else if (s === "ready" && running.size < this.limits.concurrency && !failure) {
          if (exec.abort.signal.aborted) {
            failure = exec.abort.signal.reason ?? new RunAbort("the run was stopped");
            break;
          }
          const p = this.runNode(exec, graph, n, scope, keyOf(n.id), lookup, this.streamTo(exec, feeds.get(n.id), keyOf, scope, lookup))
            .then((pause) => {
              if (pause) paused ??= pause;
            })
            .catch((err) => {
              failure ??= err;
            })
            .finally(() => running.delete(n.id));
          running.set(n.id, p);
          progressed = true;
        }
      }
      if (progressed && !failure) continue;
      if (!running.size) break;
      await Promise.race(running.values());
    }
    await Promise.allSettled(running.values());
    if (failure) throw failure;
    return { lookup, paused };
  }

  /** A writer node's stream into the answer nodes it feeds: each answer's prefix once, then the pieces. */
  private streamTo(exec: Exec, feeds: AnswerFeed[] | undefined, keyOf: (id: string) => string, scope: string, lookup: Lookup) {
    if (!feeds?.length) return undefined;
    return (text: string) => {
      for (const feed of feeds) {
        const key = keyOf(feed.answerId);
        if (exec.done.has(key)) continue;
        let sent = exec.streamed.get(key);
        if (sent === null) continue;
        if (sent === undefined) {
          // The prefix's values must all be there now; else this answer waits and is sent whole.
          if (!feed.prefixRefs.every((id) => lookup(id) !== undefined)) {
            exec.streamed.set(key, null);
            continue;
          }
          sent = resolveText(feed.prefix, lookup);
          if (sent) this.emit(exec.run.id, { delta: { nodeId: feed.answerId, scope, text: sent, at: 0 } });
        }
        exec.streamed.set(key, sent + text);
        this.emit(exec.run.id, { delta: { nodeId: feed.answerId, scope, text, at: sent.length } });
      }
    };
  }

  private async skip(exec: Exec, node: GraphNode, scope: string, key: string) {
    const row = nodeRow(exec, node, scope, key, "SKIPPED");
    exec.done.set(key, row);
    this.write(exec, row);
  }

  /** Runs one node with its timeout, retries and error strategy; returns a pause request for human input. */
  private async runNode(
    exec: Exec,
    graph: WorkflowGraph,
    node: GraphNode,
    scope: string,
    key: string,
    lookup: Lookup,
    stream?: (text: string) => void,
  ): Promise<HumanInputRequest | null> {
    if (++exec.budget.steps > this.limits.maxSteps)
      throw new NodeFailure(node.id, `the run exceeded its limit of ${this.limits.maxSteps} node steps (its sub-workflows' included)`);
    let data: Record<string, unknown>;
    try {
      data = this.parse(exec, node);
    } catch (err) {
      throw new NodeFailure(node.id, `the settings of node ${node.id} are invalid: ${(err as Error).message.slice(0, 300)}`);
    }
    const row = nodeRow(exec, node, scope, key, "RUNNING");
    // A node that reaches outside the run starts once every row before it is written (see CheckpointWriter).
    if (!PURE.has(node.type)) await exec.writer.flushed();
    // The start row is queued only for a node still running after START_ROW_DELAY_MS (rows are written in
    // queue order, so its finish row replaces it): a fast node costs one row in a shared write. A start row
    // is no checkpoint: a RUNNING row is run again on resume either way.
    const startRow = { ...row };
    const startTimer = setTimeout(() => this.write(exec, startRow), START_ROW_DELAY_MS);
    this.emit(exec.run.id, { node: { ...row } });
    try {
      return await this.attempts(exec, graph, node, scope, key, lookup, data, row, stream);
    } finally {
      clearTimeout(startTimer);
    }
  }

  private async attempts(
    exec: Exec,
    graph: WorkflowGraph,
    node: GraphNode,
    scope: string,
    key: string,
    lookup: Lookup,
    data: Record<string, unknown>,
    row: NodeRunRow,
    stream?: (text: string) => void,
  ): Promise<HumanInputRequest | null> {
    const common = data as NodeCommon;

    const executor = this.executors[node.type];
    const retries = common.retries ?? 0;
    const backoff = common.retryBackoffMs ?? 200;
    const timeoutMs = common.timeoutMs ?? DEFAULT_TIMEOUT[node.type] ?? DEFAULT_NODE_TIMEOUT;
    let lastError = "";
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await sleep(backoff * 2 ** (attempt - 1), exec.abort.signal);
      if (exec.abort.signal.aborted) break;
      row.attempts = attempt + 1;
      const ctl = new AbortController();
      const onAbort = () => ctl.abort(exec.abort.signal.reason);
      exec.abort.signal.addEventListener("abort", onAbort, { once: true });
      let timer: NodeJS.Timeout | undefined;
      try {
        if (!executor) throw new Error(`node type ${node.type} cannot run here`);
        const result = await Promise.race([
          executor({
            run: exec.run,
            node,
            data,
            scope,
            lookup,
            signal: ctl.signal,
            stream,
            budget: exec.budget,
            runBody: async (index, vars) => {
              const body = graph.nodes.filter((n) => n.parentId === node.id);
              const passScope = `${key}[${index}]`;
              const own: Lookup = (id) => (id === node.id ? vars : lookup(id));
              return (await this.runScope(exec, graph, body, passScope, own)).lookup;
            },
          }),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => {
              const err = new Error(`timed out after ${timeoutMs} ms`);
              ctl.abort(err);
              reject(err);
            }, timeoutMs);
          }),
        ]);
        if (result.pause) {
          const waiting = { ...result.pause, scope };
          Object.assign(row, { status: "PAUSED", input: waiting, tokens: result.tokens ?? 0 });
          exec.done.set(key, row);
          this.write(exec, row);
          return waiting;
        }
        if (node.type === "answer") {
          // What its writer has not streamed yet (all of it for an answer nobody streamed).
          const at = (exec.streamed.get(key) ?? "").length;
          const text = String(result.output.text ?? "").slice(at);
          if (text) this.emit(exec.run.id, { delta: { nodeId: node.id, scope, text, at } });
        }
        // Counted before anything copies it (a value referring to one list many times, nested, copies exponentially).
        const room = this.limits.maxDataChars - exec.budget.data;
        const size = jsonSizeWithin([result.input ?? null, result.output], room);
        if (size > room)
          throw new NodeFailure(
            node.id,
            `the run's data would exceed its limit of ${(this.limits.maxDataChars / 1e6).toLocaleString("en")} MB (node inputs and outputs, its sub-workflows' included)`,
          );
        exec.budget.data += size;
        Object.assign(row, {
          status: "SUCCEEDED",
          // Stored as jsonb, which cannot hold U+0000 (an HTTP body or a script may send one).
          input: withoutNul(result.input ?? null),
          output: withoutNul(result.output),
          handle: result.handle ?? null,
          tokens: result.tokens ?? 0,
          finishedAt: new Date(),
        });
        this.checkpoint(exec, row);
        return null;
      } catch (err) {
        if (err instanceof NodeFailure) lastError = err.message;
        else lastError = (err instanceof Error ? err.message : String(err)).slice(0, 2000);
        if (err instanceof NodeFailure || err instanceof RunAbort) break;
      } finally {
        clearTimeout(timer);
        exec.abort.signal.removeEventListener("abort", onAbort);
      }
    }
    if (exec.abort.signal.aborted) {
      const reason = exec.abort.signal.reason;
      lastError = reason instanceof Error ? reason.message : lastError || "the run was stopped";
    }
    const strategy = exec.abort.signal.aborted ? "fail" : (common.onError ?? "fail");
    row.error = withoutNul(lastError);
    row.finishedAt = new Date();
    row.status = "FAILED";
    if (strategy === "default") {
      Object.assign(row, { output: common.defaultOutput ?? {}, handle: "" });
      this.checkpoint(exec, row);
      return null;
    }
    if (strategy === "branch") {
      Object.assign(row, { output: { error: lastError }, handle: FAIL_HANDLE });
      this.checkpoint(exec, row);
      return null;
    }
    this.write(exec, row);
    throw new NodeFailure(node.id, lastError);
  }

  /**
   * The checkpoint: a finished node's row. Its followers may start at once; one that reaches outside the
   * run waits until the row is written.
   */
  private checkpoint(exec: Exec, row: NodeRunRow) {
    exec.done.set(row.key, row);
    this.write(exec, row);
  }
}

export const titleOf = (node: GraphNode) => {
  const t = (node.data as { title?: unknown }).title;
  return typeof t === "string" && t ? t.slice(0, 100) : node.id;
};
