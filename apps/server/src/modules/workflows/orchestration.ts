import type { Caller } from "../../platform/auth.ts";
import type { RuntimeTool, ToolKind } from "../../runtime/tool-registry.ts";
import type { RuntimeAgent } from "../agents/runtime-agent.ts";
import type { ChatOrchestrator } from "../chat/chat.service.ts";
import type { WorkflowPlugins } from "../tools/workflow-plugins.ts";
import { boundGraph, runInChat } from "./workflow-tools.ts";
import type { WorkflowsService } from "./workflows.service.ts";

/** Start inputs that take the user's question when the workflow has several. */
const QUESTION_NAMES = ["query", "question", "input", "message", "text"];

/**
 * Multi-agent self-scheduling: the lead agent gets one `ask_agent_<n>` tool per bound agent and decides
 * itself whom to hand a question to. Only the lead's owner's own agents count (anyone else's is skipped,
 * whatever the draft says); each call is billed on the model, and counted, like the workflow agent node.
 */
export function agentHandoffKind(workflows: WorkflowsService): ToolKind {
  return {
    kind: "handoff",
    async toolsFor({ agent, caller }) {
      const o = agent.orchestration;
      if (o?.mode !== "multi" || o.multiMode !== "scheduling" || !o.agents.length) return [];
      const tools: RuntimeTool[] = [];
      for (const [i, id] of o.agents.entries()) {
        if (id === agent.agentId) continue;
        const target = await workflows.ownAgent(agent, id);
        if (!target) continue;
        tools.push({
          name: `ask_agent_${i + 1}`,
          displayName: target.agentName,
          description: `Hand the question to the agent "${target.agentName}" and get its answer. ${target.agentDescription}`.slice(0, 1000),
          parameters: {
            type: "object",
            properties: { query: { type: "string", description: "The question or task for that agent, complete in itself" } },
            required: ["query"],
          },
          async execute(args, { signal }) {
            const query = String((args as { query?: unknown } | null)?.query ?? "").slice(0, 20_000);
            // On the lead's owner's models, counted as the asker's chat.
            const r = await workflows.askOwnAgent({ tenantId: agent.tenantId, startedBy: caller.userId }, target, query, signal);
            return { agent: target.agentName, answer: r.text };
          },
        });
      }
      return tools;
    },
  };
}

/**
 * Multi-agent self-orchestration: the bound workflow runs for each question and its answer nodes stream
 * as the reply (with no answer node, its outputs are the reply). Only a workflow bound to the agent and
 * owned by the agent's owner: its draft in the studio's debug run, its released version for a released agent.
 */
export function workflowOrchestrator(workflows: WorkflowsService, plugins: WorkflowPlugins): ChatOrchestrator {
  return {
    async reply(caller: Caller, agent: RuntimeAgent, query, signal, emit, lang) {
      const o = agent.orchestration;
      if (o?.mode !== "multi" || o.multiMode !== "workflow" || !o.workflowId) return null;
      const id = o.workflowId;
      if (!agent.bindings.workflows.includes(id) && !agent.bindings.plugins.includes(id)) return null;
      const debug = agent.versionId === null;
      const [row] = (await plugins.rows([id])).filter(
        (r) =>
          r.pluginType === "WORKFLOW" &&
          r.ownerId === agent.ownerId &&
          r.tenantId === agent.tenantId &&
          (r.pluginStatus === "C90_Released" || debug),
      );
      const wf = row ? (await workflows.repo.byIds([row.id]))[0] : undefined;
      const bound = wf ? await boundGraph(workflows, wf, debug) : null;
      if (!row || !wf || !bound) return null;
      const { which, graph } = bound;
      const start = graph.nodes.find((n) => n.type === "start" && !n.parentId);
      const inputs = ((start?.data.inputs as { name: string; type: string }[] | undefined) ?? []).filter((i) => i.type === "string");
      const target = inputs.find((i) => QUESTION_NAMES.includes(i.name.toLowerCase())) ?? inputs[0];
      emit({ type: "progress", stage: 2, percent: 30 });
      const r = await runInChat(workflows, row, wf, which, target ? { [target.name]: query } : {}, caller.userId, signal, emit, lang);
      let content = r.answered;
      if (!content) {
        const values = Object.values(r.outputs);
        content =
          values.length === 1 && typeof values[0] === "string" ? values[0] : values.length ? JSON.stringify(r.outputs, null, 2) : "";
        if (content) emit({ type: "content", delta: content });
      }
      emit({ type: "progress", stage: 4, percent: 90 });
      return { content };
    },
  };
}
