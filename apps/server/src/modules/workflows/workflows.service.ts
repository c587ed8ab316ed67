import {
  CALLABLE_NAME,
  defaultKnowledgeSettings,
  type HumanInputRequest,
  type humanInputAnswer,
  type NodeRun,
  type runPageRequest,
  type runRequest,
  type Workflow,
  type WorkflowEvent,
  type WorkflowGraph,
  type WorkflowInput,
  type WorkflowRun,
  type WorkflowRunSummary,
  type WorkflowSummary,
  type workflowPageRequest,
} from "@agentfair/contracts";
import { generateText, streamText } from "ai";
import type { z } from "zod";
import { type Caller, callerOfUser } from "../../platform/auth.ts";
import { AppError, badRequest, notFound } from "../../platform/errors.ts";
import { translate } from "../../platform/messages.ts";
import { createSafeFetch } from "../../platform/net.ts";
import type { Platform } from "../../platform/platform.ts";
import type { Sandboxes } from "../../platform/sandbox/index.ts";
import type { AgentsForRuntime, RuntimeAgent } from "../agents/runtime-agent.ts";
import type { Billing } from "../billing/billing.seam.ts";
import type { KnowledgeService } from "../knowledge/knowledge.service.ts";
import type { ModelsService } from "../models/models.service.ts";
import { chatModelOf, type ResolvedModel } from "../models/provider.ts";
import type { PluginRow } from "../tools/tools.repository.ts";
import type { WorkflowPlugins } from "../tools/workflow-plugins.ts";
import { checkpointDatabase } from "./checkpoint-db.ts";
import { type AnswerDelta, DEFAULT_LIMITS, type EngineLimits, type RunParent, WorkflowEngine } from "./engine.ts";
import { type NodeDeps, nodeExecutors } from "./nodes.ts";
import { answerText, RunNotices } from "./run-notices.ts";
import { validateGraph } from "./validate.ts";
import { type NodeRunRow, type RunRow, type WorkflowRow, WorkflowsRepository } from "./workflows.repository.ts";

export const RUN_JOB = "workflows.run";
/** Nesting of sub-workflows. */
const MAX_DEPTH = 5;
/** Runs one user may start a minute (by hand, by their tasks, over the API); a run inside a chat reply is the chat's. */
export const WORKFLOW_RUNS_PER_MINUTE = 60;
const TERMINAL = new Set(["SUCCEEDED", "FAILED", "PAUSED"]);

export interface WorkflowsDeps {
  plugins: WorkflowPlugins;
  sandboxes?: Sandboxes;
  models?: () => ModelsService | undefined;
  knowledge?: () => KnowledgeService | undefined;
  agents?: () => Pick<AgentsForRuntime, "runtimeAgent"> | undefined;
  /** Each model call of a node is one of the day's chats of whoever started the run. */
  billing?: () => Pick<Billing, "claimModelCall"> | undefined;
  limits?: Partial<EngineLimits>;
  /** PostgreSQL: node checkpoints go through an asynchronous-commit pool on this database. */
  checkpointUrl?: string;
  /** Tests replace node types (e.g. a slow node) through this. */
  nodeDeps?: Partial<NodeDeps>;
}

/** A new workflow's draft: start → end. */
export const INITIAL_GRAPH: WorkflowGraph = {
  nodes: [
    { id: "start", type: "start", data: { title: "开始", inputs: [] }, position: { x: 80, y: 200 } },
    { id: "end", type: "end", data: { title: "结束", outputs: {} }, position: { x: 480, y: 200 } },
  ],
  edges: [{ id: "start-end", source: "start", target: "end" }],
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const ms = (a: Date | null, b: Date | null) => (a && b ? b.getTime() - a.getTime() : null);
const sameGraph = (a: WorkflowGraph, b: WorkflowGraph | null) => !!b && JSON.stringify(a) === JSON.stringify(b);

/** Where a node's model call runs (the owner's tenant's models) and who asked for it (counted as their chat). */
type RunPayer = Pick<RunRow, "tenantId" | "startedBy">;

/** Workflows: versioned graphs (also WORKFLOW tools), their runs, and the durable engine that executes them. */
export class WorkflowsService {
  readonly repo: WorkflowsRepository;
  readonly engine: WorkflowEngine;
  /** Changes of runs executing in other processes. */
  private readonly notices: RunNotices;
  /** Executions this process is running now (tests and sub-workflow nodes wait on them). */
  private readonly local = new Map<string, Promise<boolean>>();
  private readonly closeCheckpoints: () => Promise<void>;

  constructor(
    private readonly platform: Platform,
    private readonly deps: WorkflowsDeps,
  ) {
    const checkpoints = deps.checkpointUrl ? checkpointDatabase(deps.checkpointUrl) : null;
    this.closeCheckpoints = checkpoints?.close ?? (async () => {});
    this.repo = new WorkflowsRepository(platform.db, checkpoints?.db);
    const c = platform.config;
    const nodeDeps: NodeDeps = {
      sandboxes: deps.sandboxes,
      fetch: createSafeFetch({ allowHosts: c.NET_ALLOW_HOSTS }),
      maxResponseBytes: c.PLUGIN_RESPONSE_MAX_BYTES,
      llm: (run, req) => this.llm(run, req),
      knowledge: (run, ids, query, topK) => this.retrieve(run, ids, query, topK),
      tool: (run, pluginId, params, signal) => deps.plugins.runAsOwner(run, pluginId, params, signal),
      subworkflow: (run, workflowId, inputs, parent) => this.runChild(run, workflowId, inputs, parent),
      agent: (run, agentId, query, signal, onText) => this.askAgent(run, agentId, query, signal, onText),
      ...deps.nodeDeps,
    };
    this.engine = new WorkflowEngine(this.repo, nodeExecutors(nodeDeps), {
      ...DEFAULT_LIMITS,
      concurrency: c.WORKFLOW_CONCURRENCY,
      maxSteps: c.WORKFLOW_MAX_STEPS,
      maxRunMs: c.WORKFLOW_MAX_RUN_MS,
      ...deps.limits,
    });
    this.notices = new RunNotices(platform, this.engine);
    platform.jobs.define<{ runId: string }>(
      RUN_JOB,
      { retryLimit: 3, retryDelaySeconds: 5, expireInSeconds: 60 * 60, concurrency: 4 },
      async (job) => {
        await this.executeLocal(job.data.runId);
      },
    );
  }

  private stopRecovery: (() => void) | null = null;

  /**
   * On a process that executes runs: continues at once the runs whose process died (lease lapsed), then
   * sweeps every half lease, so a crashed run waits about one lease, not a scheduler's minute.
   */
  startRecovery() {
    this.stopRecovery ??= this.engine.sweepEvery((id) => this.executeLocal(id));
  }

  async close() {
    this.stopRecovery?.();
    await Promise.allSettled(this.local.values());
    await this.closeCheckpoints();
  }

  // ---- access ------------------------------------------------------------------------------------

  /** The one owner and tenant check of workflows and their runs: anyone else's is not found. */
  private async owned(caller: Caller, id: string): Promise<{ plugin: PluginRow; createdBy: string; wf: WorkflowRow }> {
    const found = await this.deps.plugins.rowWithCreator(id);
    if (found?.plugin.pluginType !== "WORKFLOW") throw notFound();
    if (found.plugin.ownerId !== caller.userId || found.plugin.tenantId !== caller.tenantId) throw notFound();
    const wf = await this.repo.byId(id);
    if (!wf) throw notFound();
    return { plugin: found.plugin, createdBy: found.createdBy, wf };
  }

  private async ownedRun(caller: Caller, runId: string): Promise<RunRow> {
    const run = await this.repo.run(runId);
    if (!run || run.ownerId !== caller.userId || run.tenantId !== caller.tenantId) throw notFound();
    return run;
  }

  // ---- workflows -------------------------------------------------------------------------------------

  private identity(input: WorkflowInput) {
    if (!input.workflowName) throw badRequest("workflowNameRequired");
    if (!input.workflowCallableName) throw badRequest("callableNameRequired");
    if (!CALLABLE_NAME.test(input.workflowCallableName)) throw badRequest("callableNameInvalid");
    return {
      pluginName: input.workflowName,
      pluginDescription: input.workflowDescription,
      pluginIcon: input.workflowIcon || "1",
      pluginIconBackground: input.workflowIconBackground || "#e8f3ff",
      pluginCallableName: input.workflowCallableName,
      pluginTags: [...new Set(input.workflowTags)],
    };
  }

  async create(caller: Caller, input: WorkflowInput): Promise<string> {
    const row = await this.deps.plugins.create(caller, this.identity(input));
    await this.repo.insert({ id: row.id, draft: INITIAL_GRAPH });
    return row.id;
  }

  async update(caller: Caller, id: string, input: WorkflowInput): Promise<Workflow> {
    const { plugin } = await this.owned(caller, id);
    await this.deps.plugins.update(plugin, this.identity(input));
    return this.get(caller, id);
  }

  async callableName(caller: Caller, name: string, description: string) {
    const text = name.trim() || description.trim();
    if (!text) throw badRequest("workflowCallableNameSourceRequired");
    return this.deps.plugins.suggestCallableName(caller.userId, text);
  }

  private async toWire(plugin: PluginRow, createdBy: string, wf: WorkflowRow): Promise<Workflow> {
    const released = wf.releasedVersion ? ((await this.repo.version(wf.id, wf.releasedVersion))?.graph ?? null) : null;
    return { ...this.summaryOf(plugin, createdBy, wf, released), draft: wf.draft, released };
  }

  private summaryOf(plugin: PluginRow, createdBy: string, wf: WorkflowRow, released: WorkflowGraph | null | undefined): WorkflowSummary {
    return {
      id: plugin.id,
      workflowName: plugin.pluginName,
      workflowDescription: plugin.pluginDescription,
      workflowIcon: plugin.pluginIcon,
      workflowIconBackground: plugin.pluginIconBackground,
      workflowCallableName: plugin.pluginCallableName,
      workflowTags: plugin.pluginTags,
      pluginStatus: plugin.pluginStatus as Workflow["pluginStatus"],
      releasedVersion: wf.releasedVersion,
      draftChanged: released === undefined ? wf.releasedVersion === null : !sameGraph(wf.draft, released),
      createdBy,
      lastModifiedDate: new Date(Math.max(plugin.lastModifiedAt.getTime(), wf.draftUpdatedAt.getTime())).toISOString(),
    };
  }

  async get(caller: Caller, id: string): Promise<Workflow> {
    const { plugin, createdBy, wf } = await this.owned(caller, id);
    return this.toWire(plugin, createdBy, wf);
  }

  /** The caller's workflows: the tools list filtered to WORKFLOW, with their graph state. */
  async page(caller: Caller, req: z.infer<typeof workflowPageRequest>) {
    const { list, total } = await this.deps.plugins.pageOfOwner(caller, req.workflowName, req.pageNumber, req.pageSize);
    const wfs = new Map((await this.repo.byIds(list.map((r) => r.plugin.id))).map((w) => [w.id, w]));
    const content: WorkflowSummary[] = [];
    for (const r of list) {
      const wf = wfs.get(r.plugin.id);
      if (wf) content.push(this.summaryOf(r.plugin, r.createdBy, wf, undefined));
    }
    return { content, totalElements: total, totalPages: Math.ceil(total / req.pageSize) };
  }

  async saveGraph(caller: Caller, id: string, graph: WorkflowGraph): Promise<Workflow> {
    const { plugin } = await this.owned(caller, id);
    const valid = validateGraph(graph);
    await this.repo.saveDraft(id, valid);
    await this.deps.plugins.update(plugin, {});
    return this.get(caller, id);
  }

  async release(caller: Caller, id: string) {
    const { plugin, wf } = await this.owned(caller, id);
    const graph = validateGraph(wf.draft);
    const version = await this.repo.release(id, graph);
    await this.deps.plugins.update(plugin, { pluginStatus: "C90_Released" });
    return { version };
  }

  async remove(caller: Caller, id: string) {
    await this.owned(caller, id);
    // The plugin row goes; the workflow, its versions and runs follow by cascade.
    await this.deps.plugins.remove(id);
  }

  // ---- runs -------------------------------------------------------------------------------------------

  async start(caller: Caller, id: string, req: z.infer<typeof runRequest>): Promise<string> {
    const { wf } = await this.owned(caller, id);
    await this.platform.rateLimiter.take(`workflow-run:${caller.userId}`, WORKFLOW_RUNS_PER_MINUTE, 60);
    const run = await this.createRun({ tenantId: caller.tenantId, ownerId: caller.userId }, caller.userId, wf, req.version, req.inputs, 0);
    this.dispatch(run.id);
    return run.id;
  }

  /** Writes a RUNNING run of the draft or of the latest released version (inputs checked against the start node). */
  async createRun(
    owner: { tenantId: string; ownerId: string },
    startedBy: string,
    wf: WorkflowRow,
    which: "draft" | "released",
    inputs: Record<string, unknown>,
    depth: number,
  ): Promise<RunRow> {
    let graph: WorkflowGraph;
    let version = "draft";
    if (which === "released") {
      if (!wf.releasedVersion) throw badRequest("workflowNotReleased");
      const v = await this.repo.version(wf.id, wf.releasedVersion);
      if (!v) throw badRequest("workflowNotReleased");
      graph = v.graph;
      version = String(v.version);
    } else {
      graph = validateGraph(wf.draft);
    }
    const start = graph.nodes.find((n) => n.type === "start" && !n.parentId);
    for (const input of (start?.data.inputs as { name: string; required?: boolean; default?: unknown }[] | undefined) ?? []) {
      const v = inputs[input.name];
      if (input.required && (v === undefined || v === null || v === "") && input.default === undefined)
        throw badRequest("workflowInputRequired", { name: input.name });
    }
    return this.repo.insertRun({
      workflowId: wf.id,
      tenantId: owner.tenantId,
      ownerId: owner.ownerId,
      startedBy,
      version,
      graph,
      status: "RUNNING",
      inputs,
      depth,
    });
  }

  /**
   * Hands a run to the job queue (any worker continues it after a crash) and, on a worker process, starts it
   * here at once; whoever takes the lease first runs it, the other finds it taken.
   */
  dispatch(runId: string) {
    this.platform.jobs.send(RUN_JOB, { runId }).catch(() => {
      // Without a started queue (tests, a web-only process before start) the recovery sweep still finds it.
    });
    if (this.platform.config.ROLE !== "web") void this.executeLocal(runId);
  }

  /** Executes a run in this process unless it already does (or another live process holds it). */
  executeLocal(runId: string, parent?: RunParent): Promise<boolean> {
    const existing = this.local.get(runId);
    if (existing) return existing;
    const p = this.engine
      .execute(runId, parent)
      .catch((err) => {
        this.platform.log.error({ err, runId }, "workflow run failed to execute");
        return false;
      })
      .finally(() => this.local.delete(runId));
    this.local.set(runId, p);
    return p;
  }

  /** Waits until this process's execution of a run (if any) ends: tests. */
  async settled(runId: string) {
    await this.local.get(runId);
  }

  /**
   * Stops a run whose chat reply was stopped (by its asker, or as nobody read it): it ends failed, and can be
   * resumed from its history. A process shutting down stops nothing: its runs continue elsewhere or after it.
   */
  async stopForChat(runId: string) {
    if (this.platform.stopping.aborted) return;
    await this.repo.stopRun(runId, "stopped: the chat reply that ran it was stopped");
    this.engine.drop(runId);
  }

  async resume(caller: Caller, runId: string): Promise<string> {
    const run = await this.ownedRun(caller, runId);
    if (run.status !== "FAILED") throw badRequest("workflowRunNotResumable");
    // A draft run takes the current draft, so a fix made in the editor is what the failed node runs.
    let graph = run.graph;
    if (run.version === "draft") {
      const wf = await this.repo.byId(run.workflowId);
      if (wf) graph = validateGraph(wf.draft);
    }
    await this.repo.clearUnfinished(run.id);
    await this.repo.updateRun(run.id, { status: "RUNNING", graph, error: null, failedNodeId: null, finishedAt: null });
    this.dispatch(run.id);
    return run.id;
  }

  async answer(caller: Caller, runId: string, answer: z.infer<typeof humanInputAnswer>): Promise<string> {
    const run = await this.ownedRun(caller, runId);
    const waiting = run.waiting;
    if (run.status !== "PAUSED" || !waiting || waiting.nodeId !== answer.nodeId || waiting.scope !== answer.scope)
      throw badRequest("workflowRunNotWaiting");
    const values: Record<string, unknown> = {};
    for (const f of waiting.fields) {
      const v = answer.values[f.name];
      if (f.required && (v === undefined || v === null || v === "")) throw badRequest("workflowInputRequired", { name: f.name });
      values[f.name] = v ?? null;
    }
    const key = answer.scope ? `${answer.scope}/${answer.nodeId}` : answer.nodeId;
    if (!(await this.repo.answerNodeRun(run.id, key, values))) throw badRequest("workflowRunNotWaiting");
    await this.repo.updateRun(run.id, { status: "RUNNING", waiting: null });
    this.dispatch(run.id);
    return run.id;
  }

  async getRun(caller: Caller, runId: string): Promise<WorkflowRun> {
    const run = await this.ownedRun(caller, runId);
    return this.runWire(run, await this.repo.nodeRuns(run.id));
  }

  async runs(caller: Caller, id: string, req: z.infer<typeof runPageRequest>) {
    await this.owned(caller, id);
    const { list, total } = await this.repo.runsOf(id, req.pageNumber, req.pageSize);
    const name = (await this.deps.plugins.row(id))?.pluginName ?? "";
    return {
      content: list.map((r) => this.runSummary(r, name)),
      totalElements: total,
      totalPages: Math.ceil(total / req.pageSize),
    };
  }

  private runSummary(run: RunRow, workflowName: string): WorkflowRunSummary {
    return {
      id: run.id,
      workflowId: run.workflowId,
      workflowName,
      status: run.status as WorkflowRun["status"],
      version: run.version,
      inputs: run.inputs,
      outputs: run.outputs ?? null,
      error: run.error,
      failedNodeId: run.failedNodeId,
      waiting: (run.waiting as HumanInputRequest | null) ?? null,
      tokens: run.tokens,
      startedAt: run.startedAt.toISOString(),
      finishedAt: iso(run.finishedAt),
      durationMs: ms(run.startedAt, run.finishedAt),
    };
  }

  async runWire(run: RunRow, nodes: NodeRunRow[]): Promise<WorkflowRun> {
    const name = (await this.deps.plugins.row(run.workflowId))?.pluginName ?? "";
    return { ...this.runSummary(run, name), nodes: nodes.map(nodeWire) };
  }

  /**
   * The run's changes as events: a snapshot (of a run the caller may read), then each node change and answer
   * piece, and the run's end (or pause), wherever the run executes (see `follow`).
   */
  async *events(first: WorkflowRun, signal: AbortSignal): AsyncGenerator<WorkflowEvent> {
    yield { type: "snapshot", run: first };
    if (TERMINAL.has(first.status)) return;
    for await (const c of this.follow(first.id, signal, first.nodes)) {
      if (c.type === "delta") yield { type: "delta", nodeId: c.nodeId, scope: c.scope, text: c.text };
      else if (c.type === "node") yield { type: "node", node: c.node };
      else
        yield {
          type: "run",
          status: c.run.status as WorkflowRun["status"],
          outputs: c.run.outputs ?? null,
          error: c.run.error,
          waiting: (c.run.waiting as HumanInputRequest | null) ?? null,
        };
    }
  }

  /**
   * Follows a run wherever it executes, from now until it ends or pauses (or `signal`): each node change, the
   * answer text as it is written, and the end. This process's own executions report at once; another
   * process's through its notices (answer text) and the database (node rows), read again on each notice and
   * every half second. Listens from the call, so nothing is missed between it and a dispatch.
   */
  follow(runId: string, signal: AbortSignal, known: NodeRun[] = []): AsyncGenerator<RunChange> {
    const queue: (RunChange | "read")[] = ["read"];
    let wake: (() => void) | null = null;
    const push = (c: RunChange | "read") => {
      queue.push(c);
      wake?.();
    };
    const stopLocal = this.engine.listen((id, change) => {
      if (id !== runId) return;
      if (change.delta) push({ type: "delta", ...change.delta });
      else if (change.node) push({ type: "node", node: nodeWire(change.node) });
      // The end: read once more, so no node row written before it is missed.
      else push("read");
    });
    const stopRemote = this.notices.listen(runId, (change) => push("delta" in change ? { type: "delta", ...change.delta } : "read"));
    const text = answerText();
    const seen = new Map(known.map((n) => [`${n.scope}/${n.id}`, n]));
    /**
     * A node's state if it is news (a run only moves forward: an older state read late is not), after what an
     * ended answer adds to the text shown of it.
     */
    const news = (n: NodeRun): RunChange[] => {
      const k = `${n.scope}/${n.id}`;
      const before = seen.get(k);
      if (before && (JSON.stringify(before) === JSON.stringify(n) || (n.status === "RUNNING" && before.status !== "RUNNING"))) return [];
      seen.set(k, n);
      const full = n.type === "answer" && n.status === "SUCCEEDED" ? String((n.output as { text?: unknown } | null)?.text ?? "") : "";
      const rest = full && text.rest(n.id, n.scope, full);
      const delta: RunChange[] = rest ? [{ type: "delta", nodeId: n.id, scope: n.scope, text: rest, at: full.length - rest.length }] : [];
      return [...delta, { type: "node", node: n }];
    };
    const repo = this.repo;
    const engine = this.engine;
    return (async function* (): AsyncGenerator<RunChange> {
      try {
        while (!signal.aborted) {
          if (!queue.length) {
            const ticked = await new Promise<boolean>((resolve) => {
              const t = setTimeout(() => resolve(true), 500);
              wake = () => {
                clearTimeout(t);
                resolve(false);
              };
              signal.addEventListener("abort", wake, { once: true });
            });
            if (wake) signal.removeEventListener("abort", wake);
            wake = null;
            if (ticked && !engine.holds(runId)) queue.push("read");
            continue;
          }
          const item = queue.shift()!;
          if (item === "read") {
            const run = await repo.run(runId);
            if (!run) return;
            for (const n of (await repo.nodeRuns(runId)).map(nodeWire)) yield* news(n);
            if (TERMINAL.has(run.status)) {
              yield { type: "end", run };
              return;
            }
          } else if (item.type === "delta") {
            const piece = text.piece(item);
            if (piece) yield { ...item, text: piece };
          } else if (item.type === "node") yield* news(item.node);
        }
      } finally {
        stopLocal();
        stopRemote();
      }
    })();
  }

  // ---- what nodes call -----------------------------------------------------------------------------------

  private async llm(run: RunPayer, req: Parameters<NonNullable<NodeDeps["llm"]>>[1]) {
    const models = this.deps.models?.();
    const model = models ? await models.usable(run.tenantId, "LLM", req.modelId || null) : null;
    if (!model) throw new Error("no usable language model: an administrator adds one at /models");
    await this.claimModelCall(run.startedBy, model);
    const call = {
      model: chatModelOf(model),
      system: req.system || undefined,
      prompt: req.json ? `${req.prompt}\n\nAnswer with one JSON object only.` : req.prompt,
      temperature: req.temperature,
      maxRetries: 0,
      abortSignal: req.signal,
    };
    let text: string;
    let usage: { inputTokens?: number; outputTokens?: number };
    if (req.onText) {
      // Streamed: answer nodes show the text as it comes (see answer-stream.ts).
      const r = streamText(call);
      text = "";
      let failed: unknown = null;
      for await (const part of r.fullStream) {
        if (part.type === "text-delta" && part.text) {
          text += part.text;
          req.onText(part.text);
        } else if (part.type === "error") failed ??= part.error;
      }
      if (failed) throw failed instanceof Error ? failed : new Error(String(failed));
      usage = await r.totalUsage;
    } else {
      const r = await generateText(call);
      text = r.text;
      usage = r.usage;
    }
    const tokens = (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
    await models?.record(model, { inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 }).catch(() => {});
    return { text, tokens };
  }

  /**
   * A node's model call is one of the day's chats of whoever started the run (a loop of model nodes is
   * as many chats): refused past the day's count with billing's message, which the run's error shows.
   */
  private async claimModelCall(userId: string, model: ResolvedModel) {
    const billing = this.deps.billing?.();
    if (!billing) return;
    const payer = await callerOfUser(this.platform.db, this.platform.config, userId);
    if (!payer) throw new Error("the user who started this run no longer exists");
    try {
      await billing.claimModelCall(payer, model.row);
    } catch (err) {
      throw err instanceof AppError ? new Error(translate(err.key, "zh", err.params)) : err;
    }
  }

  private async retrieve(run: RunRow, ids: string[], query: string, topK: number) {
    const knowledge = this.deps.knowledge?.();
    if (!knowledge) throw new Error("knowledge retrieval is not available");
    const settings = { ...defaultKnowledgeSettings(), topK: Math.min(topK, 20) };
    const bases = await knowledge.basesOfAgent({
      ownerId: run.ownerId,
      tenantId: run.tenantId,
      bindings: { knowledgeBases: ids },
      knowledge: settings,
    });
    if (!bases.length || !query.trim()) return [];
    const { hits } = await knowledge.retrieve(bases, query, settings);
    return hits.map((h) => ({ title: h.question ?? h.title ?? "", content: h.answer ?? h.content, score: h.score }));
  }

  /**
   * An agent node (multi-agent): one of the owner's own agents (its released version, else its draft)
   * answers the query with its persona and model. Only own agents: a listed agent of someone else is
   * priced and billed per chat, which a workflow must not get around.
   */
  private async askAgent(run: RunRow, agentId: string, query: string, signal: AbortSignal, onText?: (text: string) => void) {
    const agent = await this.ownAgent(run, agentId);
    if (!agent) throw new Error("the agent does not exist");
    return this.askOwnAgent(run, agent, query, signal, onText);
  }

  /** One of the owner's own agents (its released version, else its draft); null for anyone else's. */
  async ownAgent(owner: { ownerId: string; tenantId: string }, agentId: string): Promise<RuntimeAgent | null> {
    const agents = this.deps.agents?.();
    if (!agents) return null;
    const caller = { userId: owner.ownerId, tenantId: owner.tenantId, isAdmin: false } as Caller;
    const agent = await agents
      .runtimeAgent(caller, agentId, { release: true })
      .catch(() => agents.runtimeAgent(caller, agentId, { release: false }))
      .catch(() => null);
    return agent && agent.ownerId === owner.ownerId && agent.tenantId === owner.tenantId ? agent : null;
  }

  /** Asks an agent (its persona on its model), counted and billed on the model like any model call of a workflow node. */
  async askOwnAgent(run: RunPayer, agent: RuntimeAgent, query: string, signal: AbortSignal, onText?: (text: string) => void) {
    return this.llm(run, {
      modelId: agent.model.modelId ?? "",
      system: agent.persona,
      prompt: query,
      temperature: agent.model.temperature,
      json: false,
      signal,
      onText,
    });
  }

  /**
   * A sub-workflow node: the owner's other workflow (its released version), run to its end here, within the
   * parent's step budget and stopped with the node.
   */
  private async runChild(parent: RunRow, workflowId: string, inputs: Record<string, unknown>, from: RunParent) {
    if (parent.depth + 1 > MAX_DEPTH) throw new Error(`sub-workflows nest at most ${MAX_DEPTH} deep`);
    const row = await this.deps.plugins.row(workflowId);
    const wf = row && row.ownerId === parent.ownerId && row.tenantId === parent.tenantId ? await this.repo.byId(workflowId) : undefined;
    if (!wf) throw new Error("the sub-workflow does not exist");
    const child = await this.createRun(parent, parent.startedBy, wf, "released", inputs, parent.depth + 1);
    return this.waitFor(child.id, from.signal, from);
  }

  /** Runs a run here and returns its outputs (fails when the run fails or pauses). */
  async waitFor(runId: string, signal?: AbortSignal, parent?: RunParent): Promise<Record<string, unknown>> {
    const end = await this.settle(runId, signal, parent);
    if (end.status === "PAUSED") throw new Error("the workflow waits for a person's input");
    return end.outputs;
  }

  /** Runs a run here until it ends or pauses (fails when the run fails). */
  async settle(
    runId: string,
    signal?: AbortSignal,
    parent?: RunParent,
  ): Promise<{ status: "SUCCEEDED"; outputs: Record<string, unknown> } | { status: "PAUSED"; waiting: HumanInputRequest | null }> {
    await this.executeLocal(runId, parent);
    for (;;) {
      const run = await this.repo.run(runId);
      if (!run) throw new Error("the run does not exist");
      if (run.status === "SUCCEEDED") return { status: "SUCCEEDED", outputs: run.outputs ?? {} };
      if (run.status === "FAILED") throw new Error(run.error ?? "the workflow failed");
      if (run.status === "PAUSED") return { status: "PAUSED", waiting: (run.waiting as HumanInputRequest | null) ?? null };
      if (signal?.aborted) throw new Error("stopped");
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}

/** A change of a followed run: a piece of answer text, a node's new state, or the run's end (or pause). */
export type RunChange = ({ type: "delta" } & AnswerDelta) | { type: "node"; node: NodeRun } | { type: "end"; run: RunRow };

export function nodeWire(r: NodeRunRow): NodeRun {
  return {
    id: r.nodeId,
    type: r.type,
    title: r.title,
    scope: r.scope,
    status: r.status as NodeRun["status"],
    input: r.input ?? null,
    output: r.output ?? null,
    error: r.error,
    attempts: r.attempts,
    tokens: r.tokens,
    startedAt: iso(r.startedAt),
    finishedAt: iso(r.finishedAt),
    durationMs: ms(r.startedAt, r.finishedAt),
  };
}
