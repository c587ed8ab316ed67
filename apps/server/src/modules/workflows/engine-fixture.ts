import { randomUUID } from "node:crypto";
import type { WorkflowGraph } from "@agentfair/contracts";
import type { Db } from "../../db/client.ts";
import { plugins, tenants, users } from "../../db/schema/index.ts";
import { DEFAULT_LIMITS, type EngineLimits, type NodeContext, type NodeResult, WorkflowEngine } from "./engine.ts";
import { nodeExecutors } from "./nodes.ts";
import { WorkflowsRepository } from "./workflows.repository.ts";

/** A test step: a code node whose `code` names one of these functions instead of sandboxed source. */
export type Step = (ctx: NodeContext) => Promise<Record<string, unknown>> | Record<string, unknown>;

/**
 * The engine on a database with one owner and one workflow, for engine tests, the crash test's child
 * process and the benchmark: code nodes run named local functions, so what is measured is the engine.
 */
export async function engineFixture(db: Db, steps: Record<string, Step>, limits: Partial<EngineLimits> = {}, checkpoints?: Db) {
  const [tenant] = await db
    .insert(tenants)
    .values({ domain: `wf${randomUUID().slice(0, 8)}`, name: "wf" })
    .returning();
  const [user] = await db
    .insert(users)
    .values({ tenantId: tenant.id, username: `wf${randomUUID().slice(0, 8)}`, passwordHash: "x" })
    .returning();
  const repo = new WorkflowsRepository(db, checkpoints);
  const executors = nodeExecutors({});
  executors.code = async (ctx): Promise<NodeResult> => {
    const name = String(ctx.data.code);
    const step = steps[name];
    if (!step) throw new Error(`no step ${name}`);
    return { output: await step(ctx) };
  };
  const engine = new WorkflowEngine(repo, executors, { ...DEFAULT_LIMITS, ...limits });
  const [plugin] = await db
    .insert(plugins)
    .values({
      tenantId: tenant.id,
      ownerId: user.id,
      pluginName: "engine test",
      pluginType: "WORKFLOW",
      pluginCallableName: `wf_${randomUUID().slice(0, 8)}`,
      definition: {} as never,
    })
    .returning();
  const graph0: WorkflowGraph = { nodes: [], edges: [] };
  await repo.insert({ id: plugin.id, draft: graph0 });
  return {
    repo,
    engine,
    async newRun(graph: WorkflowGraph, inputs: Record<string, unknown> = {}) {
      return repo.insertRun({
        workflowId: plugin.id,
        tenantId: tenant.id,
        ownerId: user.id,
        startedBy: user.id,
        version: "draft",
        graph,
        status: "RUNNING",
        inputs,
      });
    },
    async nodes(runId: string) {
      return Object.fromEntries((await repo.nodeRuns(runId)).map((r) => [r.key, r]));
    },
  };
}

/** A graph from a compact description: `edges` as "a>b" or "a>b:handle". */
export function graphOf(
  nodes: Record<string, { type: string; data?: Record<string, unknown>; parentId?: string }>,
  edges: string[],
): WorkflowGraph {
  return {
    nodes: Object.entries(nodes).map(([id, n]) => ({ id, type: n.type as never, data: n.data ?? {}, parentId: n.parentId })),
    edges: edges.map((e) => {
      const [pair, handle] = e.split(":");
      const [source, target] = pair.split(">");
      return { source, target, sourceHandle: handle ?? null };
    }),
  };
}
