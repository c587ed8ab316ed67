import { type GraphNode, nodeData, type WorkflowGraph } from "@agentfair/contracts";
import { AppError } from "../../platform/errors.ts";
import type { MessageKey } from "../../platform/messages.ts";

const NODE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const LOOPS = new Set(["loop", "iteration"]);
/** `{{nodeId.field…}}`: the node and the first field of a reference. */
const REF = /\{\{\s*([A-Za-z0-9_-]+)\.([A-Za-z0-9_]+)[^}]*\}\}/g;

const invalid = (key: MessageKey, params?: Record<string, string | number>) => new AppError(key, 400, params);

/**
 * The checks of a saved draft (doc 2 §5, §8): one start node, an end reachable from it, no dangling
 * edges, node data of its type, unique variable names, and no cycle (repetition is a loop node's body).
 * Returns the graph with each node's data parsed (defaults filled in).
 */
export function validateGraph(graph: WorkflowGraph): WorkflowGraph {
  const byId = new Map<string, GraphNode>();
  for (const n of graph.nodes) {
    if (!NODE_ID.test(n.id)) throw invalid("workflowNodeIdInvalid", { node: n.id.slice(0, 64) });
    if (byId.has(n.id)) throw invalid("workflowNodeIdDuplicate", { node: n.id });
    byId.set(n.id, n);
  }
  const top = graph.nodes.filter((n) => !n.parentId);
  const starts = top.filter((n) => n.type === "start");
  // §8: the start node cannot be deleted; a second one would make the entry ambiguous.
  if (starts.length === 0) throw invalid("workflowStartRequired");
  if (starts.length > 1) throw invalid("workflowStartSingle");
  if (graph.nodes.some((n) => n.parentId && n.type === "start")) throw invalid("workflowStartSingle");

  const nodes = graph.nodes.map((n) => {
    if (n.parentId) {
      const parent = byId.get(n.parentId);
      if (!parent || !LOOPS.has(parent.type)) throw invalid("workflowParentInvalid", { node: n.id });
      if (n.type === "end" || n.type === "human") throw invalid("workflowNodeNotInLoop", { node: n.id });
    }
    const parsed = nodeData[n.type].safeParse(n.data ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw invalid("workflowNodeDataInvalid", { node: n.id, detail: `${issue.path.join(".")}: ${issue.message}`.slice(0, 200) });
    }
    return { ...n, data: parsed.data as Record<string, unknown> };
  });

  const edgeKeys = new Set<string>();
  for (const e of graph.edges) {
    const s = byId.get(e.source);
    const t = byId.get(e.target);
    if (!s || !t) throw invalid("workflowEdgeDangling", { edge: `${e.source} → ${e.target}`.slice(0, 140) });
    if (e.source === e.target || (s.parentId ?? "") !== (t.parentId ?? ""))
      throw invalid("workflowEdgeInvalid", { edge: `${e.source} → ${e.target}` });
    if (t.type === "start") throw invalid("workflowEdgeInvalid", { edge: `${e.source} → ${e.target}` });
    const k = `${e.source}|${e.target}|${e.sourceHandle ?? ""}`;
    if (edgeKeys.has(k)) throw invalid("workflowEdgeInvalid", { edge: `${e.source} → ${e.target}` });
    edgeKeys.add(k);
  }

  // Variables: the start node's inputs, and the names each node defines, are unique within their list.
  for (const n of nodes) {
    const names = variableNames(n);
    const seen = new Set<string>();
    for (const name of names) {
      if (seen.has(name)) throw invalid("variableNameDuplicate", { node: n.id, name });
      seen.add(name);
    }
  }

  // A code node that declares its outputs offers only those (the reference's first segment is the field).
  const declared = new Map<string, Set<string>>();
  for (const n of nodes) {
    const outs = n.type === "code" ? (n.data.outputs as { name: string }[] | undefined) : undefined;
    if (outs) declared.set(n.id, new Set(outs.map((o) => o.name)));
  }
  if (declared.size) {
    for (const n of nodes) {
      for (const m of JSON.stringify(n.data).matchAll(REF)) {
        const fields = declared.get(m[1]);
        if (fields && !fields.has(m[2])) throw invalid("workflowOutputUndeclared", { node: n.id, ref: `${m[1]}.${m[2]}` });
      }
    }
  }

  // No cycle within any scope: repetition is a loop or iteration node's body.
  const out = new Map<string, string[]>(graph.nodes.map((n) => [n.id, []]));
  for (const e of graph.edges) out.get(e.source)?.push(e.target);
  const color = new Map<string, number>();
  const visit = (id: string): void => {
    color.set(id, 1);
    for (const next of out.get(id) ?? []) {
      const c = color.get(next) ?? 0;
      if (c === 1) throw invalid("workflowCycle", { node: next });
      if (c === 0) visit(next);
    }
    color.set(id, 2);
  };
  for (const n of graph.nodes) if (!color.get(n.id)) visit(n.id);

  // Every top-level node is reachable from the start, and an end node is among them.
  const reach = new Set<string>([starts[0].id]);
  const queue = [starts[0].id];
  while (queue.length) {
    const id = queue.shift() as string;
    for (const next of out.get(id) ?? [])
      if (!reach.has(next)) {
        reach.add(next);
        queue.push(next);
      }
  }
  if (!top.some((n) => n.type === "end" && reach.has(n.id))) throw invalid("workflowEndUnreachable");
  const stray = top.find((n) => !reach.has(n.id));
  if (stray) throw invalid("workflowNodeUnreachable", { node: stray.id });
  return { nodes, edges: graph.edges };
}

function variableNames(n: GraphNode & { data: Record<string, unknown> }): string[] {
  const d = n.data as Record<string, unknown>;
  const names = (list: unknown) => (Array.isArray(list) ? list.map((x) => String((x as { name?: unknown }).name ?? "")) : []);
  switch (n.type) {
    case "start":
      return names(d.inputs);
    case "assign":
      return names(d.assignments);
    case "extractor":
      return names(d.parameters);
    case "human":
      return names(d.fields);
    case "code":
      return names(d.outputs);
    default:
      return [];
  }
}
