import { translate } from "../../platform/messages.ts";
import type { ChatEvent, HumanInputRequest, Language } from "@agentfair/contracts";
import type { RuntimeTool, ToolKind } from "../../runtime/tool-registry.ts";
import type { PluginRow } from "../tools/tools.repository.ts";
import type { RunRow, WorkflowRow } from "./workflows.repository.ts";
import type { WorkflowPlugins } from "../tools/workflow-plugins.ts";
import type { WorkflowsService } from "./workflows.service.ts";

/**
 * Which graph of a bound workflow an agent runs: a studio debug run of the draft agent runs the workflow's
 * draft (what the owner sees on the canvas, released or not); a released agent runs the latest released
 * version only, and an unreleased workflow is not there for it.
 */
export async function boundGraph(workflows: WorkflowsService, wf: WorkflowRow, debug: boolean) {
  if (debug) return { which: "draft" as const, graph: wf.draft };
  if (!wf.releasedVersion) return null;
  const version = await workflows.repo.version(wf.id, wf.releasedVersion);
  return version ? { which: "released" as const, graph: version.graph } : null;
}

/**
 * The 'workflow' tool kind: workflows bound to an agent (as plugins or as workflows) that the model calls by
 * their callable name, in the version `boundGraph` picks. Only the agent owner's own workflows count. Each
 * node's progress goes into the chat.
 */
export function workflowToolKind(workflows: WorkflowsService, plugins: WorkflowPlugins): ToolKind {
  return {
    kind: "workflow",
    async toolsFor({ agent, caller }) {
      const ids = [...new Set([...agent.bindings.plugins, ...agent.bindings.workflows])];
      if (!ids.length) return [];
      const debug = agent.versionId === null;
      const rows = (await plugins.rows(ids)).filter(
        (r) =>
          r.pluginType === "WORKFLOW" &&
          r.ownerId === agent.ownerId &&
          r.tenantId === agent.tenantId &&
          (r.pluginStatus === "C90_Released" || debug),
      );
      const wfs = new Map((await workflows.repo.byIds(rows.map((r) => r.id))).map((w) => [w.id, w]));
      const tools: RuntimeTool[] = [];
      for (const row of rows) {
        const wf = wfs.get(row.id);
        const bound = wf ? await boundGraph(workflows, wf, debug) : null;
        if (!wf || !bound) continue;
        const { which, graph } = bound;
        const start = graph.nodes.find((n) => n.type === "start" && !n.parentId);
        const inputs = (start?.data.inputs as { name: string; type: string; description?: string; required?: boolean }[] | undefined) ?? [];
        tools.push({
          name: row.pluginCallableName,
          displayName: row.pluginName,
          // a workflow is a plugin: a card or design bound to it shows its result in the reply
          pluginId: row.id,
          description: `${row.pluginName}：${row.pluginDescription || row.pluginName}`.slice(0, 1000),
          parameters: {
            type: "object",
            properties: Object.fromEntries(
              inputs.map((i) => [
                i.name,
                {
                  type: ["string", "number", "boolean", "object", "array"].includes(i.type) ? i.type : "string",
                  ...(i.description ? { description: i.description } : {}),
                },
              ]),
            ),
            required: inputs.filter((i) => i.required).map((i) => i.name),
          },
          async execute(args, { signal, emit }) {
            const r = await runInChat(workflows, row, wf, which, (args ?? {}) as Record<string, unknown>, caller.userId, signal, emit);
            return r.result;
          },
        });
      }
      return tools;
    },
  };
}

/**
 * Runs a workflow for a chat (a tool call or a self-orchestrated reply): answer nodes' text goes into the
 * reply as it is produced and each node's progress is a `workflow_node` event. A run that pauses for a
 * person answers with a message saying so (and where to answer) instead of failing the reply.
 */
export async function runInChat(
  workflows: WorkflowsService,
  row: Pick<PluginRow, "tenantId" | "ownerId" | "pluginName">,
  wf: WorkflowRow,
  which: "released" | "draft",
  inputs: Record<string, unknown>,
  userId: string,
  signal: AbortSignal,
  emit?: (event: ChatEvent) => void,
  /** What the reply says itself (a pause) is in this language; a tool's result is read by the model. */
  lang: Language = "zh",
): Promise<{ result: unknown; answered: string; paused: boolean; outputs: Record<string, unknown> }> {
  const run = await workflows.createRun({ tenantId: row.tenantId, ownerId: row.ownerId }, userId, wf, which, inputs, 0);
  let answered = "";
  let end: RunRow | undefined;
  // Followed wherever it executes: here, or on a worker that took its job.
  const changes = workflows.follow(run.id, signal);
  workflows.dispatch(run.id);
  for await (const c of changes) {
    // Top-level answer nodes are the reply: their text arrives in pieces while their LLM writes it.
    if (c.type === "delta" && !c.scope) {
      answered += c.text;
      emit?.({ type: "content", delta: c.text });
    } else if (c.type === "node" && !c.node.scope) {
      const n = c.node;
      emit?.({
        type: "workflow_node",
        workflowName: row.pluginName,
        runId: run.id,
        nodeId: n.id,
        nodeType: n.type,
        title: n.title,
        status: n.status as "RUNNING",
      });
    } else if (c.type === "end") end = c.run;
  }
  if (!end) {
    await workflows.stopForChat(run.id);
    throw new Error("stopped");
  }
  if (end.status === "FAILED") throw new Error(end.error ?? "the workflow failed");
  if (end.status === "SUCCEEDED") {
    const outputs = end.outputs ?? {};
    return { result: outputs, answered, paused: false, outputs };
  }
  const waiting = end.waiting as HumanInputRequest | null;
  const message = translate("workflowWaitingForInput", lang, {
    name: row.pluginName,
    node: waiting?.nodeId ?? "",
    prompt: waiting?.prompt || "-",
  });
  const text = `${answered ? "\n\n" : ""}${message}`;
  answered += text;
  emit?.({ type: "content", delta: text });
  return { result: { status: "PAUSED", runId: run.id, message, waiting }, answered, paused: true, outputs: {} };
}
