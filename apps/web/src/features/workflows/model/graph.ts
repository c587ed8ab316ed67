import { defaultData, newNodeId, outputFields, scopeFields, sourceHandles } from "./nodes";
import {
  type ConditionCase,
  LOOP_TYPES,
  type NodeData,
  type NodeType,
  type StartInput,
  TOP_ONLY,
  type WfEdge,
  type WfNode,
  type WireGraph,
} from "./types";

interface Snapshot {
  nodes: WfNode[];
  edges: WfEdge[];
}
export interface GraphState extends Snapshot {
  past: Snapshot[];
  future: Snapshot[];
  /** Set by the last action the graph refused (an i18n key); the editor shows it once. */
  refused: string | null;
  /** Bumped on every change the server has not seen. */
  revision: number;
}

const HISTORY_MAX = 100;

export type GraphAction =
  | { type: "load"; nodes: WfNode[]; edges: WfEdge[] }
  | { type: "add"; nodeType: NodeType; position: { x: number; y: number }; parentId?: string | null }
  | { type: "connect"; source: string; target: string; sourceHandle?: string | null }
  | { type: "remove"; nodeIds: string[]; edgeIds?: string[] }
  | { type: "update"; id: string; data: Partial<NodeData> }
  | { type: "view"; nodes?: WfNode[]; edges?: WfEdge[] }
  | { type: "checkpoint" }
  | { type: "positions"; positions: Record<string, { x: number; y: number }> }
  | { type: "undo" }
  | { type: "redo" };

export const emptyGraph = (): GraphState => ({ nodes: [], edges: [], past: [], future: [], refused: null, revision: 0 });

/** The message for deleting the start node (doc 2 §8). */
export const START_UNDELETABLE = "workflows.editor.startUndeletable";

/** A loop's or iteration's box: at least this big, and grown to hold its body. */
export const GROUP_MIN = { width: 460, height: 220 };
/** Where a loop's body starts inside its box (below its header). */
export const GROUP_HEADER = 64;
const NODE_SIZE = { width: 200, height: 80 };

/** The size of a loop's box: its body nodes' extent plus a margin. */
export function groupSize(
  id: string,
  nodes: Pick<WfNode, "id" | "parentId" | "position" | "measured">[],
): { width: number; height: number } {
  let width = GROUP_MIN.width;
  let height = GROUP_MIN.height;
  for (const n of nodes) {
    if (n.parentId !== id) continue;
    width = Math.max(width, n.position.x + (n.measured?.width ?? NODE_SIZE.width) + 24);
    height = Math.max(height, n.position.y + (n.measured?.height ?? NODE_SIZE.height) + 24);
  }
  return { width: Math.round(width), height: Math.round(height) };
}

/** A node's position on the canvas (body nodes are placed relative to their loop). */
export function absolutePosition(node: WfNode, nodes: WfNode[]): { x: number; y: number } {
  let { x, y } = node.position;
  let parent = node.parentId ? nodes.find((n) => n.id === node.parentId) : undefined;
  for (let guard = 0; parent && guard < 20; guard++) {
    x += parent.position.x;
    y += parent.position.y;
    parent = parent.parentId ? nodes.find((n) => n.id === parent?.parentId) : undefined;
  }
  return { x, y };
}

const depthOf = (node: WfNode, nodes: WfNode[]) => {
  let d = 0;
  let cur: WfNode | undefined = node;
  while (cur?.parentId && d < 20) {
    d++;
    cur = nodes.find((n) => n.id === cur?.parentId);
  }
  return d;
};

/** A node's drawn size: a loop's box, else what React Flow measured (a default before that). */
export const sizeOf = (n: Pick<WfNode, "id" | "type" | "parentId" | "position" | "measured">, nodes: WfNode[]) =>
  LOOP_TYPES.has(n.type)
    ? groupSize(n.id, nodes)
    : { width: n.measured?.width ?? NODE_SIZE.width, height: n.measured?.height ?? NODE_SIZE.height };

/** Whether the segment a-b crosses the rectangle (Liang-Barsky clipping). */
function segmentHitsBox(a: { x: number; y: number }, b: { x: number; y: number }, box: { x: number; y: number; w: number; h: number }) {
  let t0 = 0;
  let t1 = 1;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const edges: [number, number][] = [
    [-dx, a.x - box.x],
    [dx, box.x + box.w - a.x],
    [-dy, a.y - box.y],
    [dy, box.y + box.h - a.y],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const r = q / p;
    if (p < 0) t0 = Math.max(t0, r);
    else t1 = Math.min(t1, r);
    if (t0 > t1) return false;
  }
  return true;
}

/**
 * Where a new node goes: at `preferred` if the spot is free, else the nearest free spot below or
 * beside it. Free means not over another node of the same scope (top level, or one loop's body) nor
 * over an edge between two of them (drawn as the line from the source's right to the target's left).
 */
export function freePosition(
  preferred: { x: number; y: number },
  nodes: WfNode[],
  edges: Pick<WfEdge, "source" | "target">[],
  parentId?: string | null,
): { x: number; y: number } {
  const scope = parentId ?? undefined;
  const siblings = nodes.filter((n) => n.parentId === scope);
  const byId = new Map(siblings.map((n) => [n.id, n]));
  const lines = edges.flatMap((e) => {
    const a = byId.get(e.source);
    const b = byId.get(e.target);
    if (!a || !b) return [];
    const sa = sizeOf(a, nodes);
    const sb = sizeOf(b, nodes);
    return [
      [
        { x: a.position.x + sa.width, y: a.position.y + sa.height / 2 },
        { x: b.position.x, y: b.position.y + sb.height / 2 },
      ] as const,
    ];
  });
  const GAP = 24;
  const free = (p: { x: number; y: number }) => {
    const box = { x: p.x - GAP, y: p.y - GAP, w: NODE_SIZE.width + 2 * GAP, h: NODE_SIZE.height + 2 * GAP };
    for (const n of siblings) {
      const sz = sizeOf(n, nodes);
      if (
        n.position.x < box.x + box.w &&
        n.position.x + sz.width > box.x &&
        n.position.y < box.y + box.h &&
        n.position.y + sz.height > box.y
      )
        return false;
    }
    return !lines.some(([a, b]) => segmentHitsBox(a, b, box));
  };
  const step = NODE_SIZE.height + GAP + 16;
  // Down first (a column under the preferred spot), then up, then a column further right.
  for (let col = 0; col < 6; col++)
    for (let k = 0; k < 12; k++)
      for (const sign of k === 0 ? [1] : [1, -1]) {
        const p = { x: preferred.x + col * (NODE_SIZE.width + 2 * GAP), y: preferred.y + sign * k * step };
        if (parentId && (p.x < 8 || p.y < GROUP_HEADER)) continue;
        if (free(p)) return { x: Math.round(p.x), y: Math.round(p.y) };
      }
  return preferred;
}

/** The innermost loop or iteration box under a canvas point (where a dropped node goes), if any. */
export function loopAt(point: { x: number; y: number }, nodes: WfNode[]): WfNode | null {
  let best: WfNode | null = null;
  for (const n of nodes) {
    if (!LOOP_TYPES.has(n.type)) continue;
    const p = absolutePosition(n, nodes);
    const size = groupSize(n.id, nodes);
    const inside = point.x >= p.x && point.y >= p.y && point.x <= p.x + size.width && point.y <= p.y + size.height;
    if (inside && (!best || depthOf(n, nodes) > depthOf(best, nodes))) best = n;
  }
  return best;
}

/** The node and every node inside it (a loop's body, nested loops' bodies). */
function withDescendants(ids: Set<string>, nodes: WfNode[]): Set<string> {
  const out = new Set(ids);
  let grew = true;
  while (grew) {
    grew = false;
    for (const n of nodes)
      if (n.parentId && out.has(n.parentId) && !out.has(n.id)) {
        out.add(n.id);
        grew = true;
      }
  }
  return out;
}

const snap = (s: Snapshot): Snapshot => ({ nodes: s.nodes, edges: s.edges });
/** A change that undo can take back: the present goes to the past and the redo list is dropped. */
function commit(s: GraphState, next: Partial<Snapshot>): GraphState {
  return {
    ...s,
    ...next,
    past: [...s.past, snap(s)].slice(-HISTORY_MAX),
    future: [],
    refused: null,
    revision: s.revision + 1,
  };
}

export function graphReducer(s: GraphState, a: GraphAction): GraphState {
  switch (a.type) {
    case "load":
      return { ...emptyGraph(), nodes: a.nodes, edges: a.edges };
    case "add": {
      if (a.nodeType === "start" && s.nodes.some((n) => n.type === "start")) return { ...s, refused: "workflows.editor.oneStart" };
      const id = newNodeId(
        a.nodeType,
        s.nodes.map((n) => n.id),
      );
      const parentId = a.parentId ?? undefined;
      if (parentId && TOP_ONLY.has(a.nodeType)) return { ...s, refused: "workflows.editor.notInLoop" };
      const node: WfNode = { id, type: a.nodeType, position: a.position, data: defaultData(a.nodeType), ...(parentId ? { parentId } : {}) };
      return commit(s, { nodes: [...s.nodes.map((n) => ({ ...n, selected: false })), { ...node, selected: true }] });
    }
    case "connect": {
      if (a.source === a.target) return s;
      const from = s.nodes.find((n) => n.id === a.source);
      const to = s.nodes.find((n) => n.id === a.target);
      // A loop's body is its own flow: edges stay inside one scope (the server refuses the others).
      if (from && to && (from.parentId ?? "") !== (to.parentId ?? "")) return { ...s, refused: "workflows.editor.crossScope" };
      const handle = a.sourceHandle ?? null;
      if (s.edges.some((e) => e.source === a.source && e.target === a.target && (e.sourceHandle ?? null) === handle)) return s;
      const edge: WfEdge = { id: `e_${a.source}_${handle ?? "out"}_${a.target}`, source: a.source, target: a.target, sourceHandle: handle };
      return commit(s, { edges: [...s.edges, edge] });
    }
    case "remove": {
      const startIds = new Set(s.nodes.filter((n) => n.type === "start" && a.nodeIds.includes(n.id)).map((n) => n.id));
      const blocked = startIds.size > 0;
      const ids = withDescendants(new Set(a.nodeIds.filter((id) => !startIds.has(id))), s.nodes);
      // The canvas sends a deleted node's edges with it: those of a start node that stays, stay too.
      const edgeIds = new Set(
        (a.edgeIds ?? []).filter((eid) => {
          const e = s.edges.find((x) => x.id === eid);
          return !e || !(startIds.has(e.source) || startIds.has(e.target));
        }),
      );
      const nodes = s.nodes.filter((n) => !ids.has(n.id));
      const edges = s.edges.filter((e) => !edgeIds.has(e.id) && !ids.has(e.source) && !ids.has(e.target));
      if (nodes.length === s.nodes.length && edges.length === s.edges.length) return blocked ? { ...s, refused: START_UNDELETABLE } : s;
      return { ...commit(s, { nodes, edges }), refused: blocked ? START_UNDELETABLE : null };
    }
    case "update": {
      const nodes = s.nodes.map((n) => (n.id === a.id ? { ...n, data: { ...n.data, ...a.data } } : n));
      // Removing a condition branch drops the edges that left from it.
      const node = nodes.find((n) => n.id === a.id);
      const handles = node ? sourceHandles(node) : null;
      const edges = handles ? s.edges.filter((e) => e.source !== a.id || handles.includes(e.sourceHandle ?? "")) : s.edges;
      return commit(s, { nodes, edges });
    }
    case "view":
      // Selection, measured sizes and drag positions: what React Flow reports, outside the history.
      return { ...s, nodes: a.nodes ?? s.nodes, edges: a.edges ?? s.edges, refused: null };
    case "checkpoint":
      return { ...commit(s, {}), revision: s.revision + 1 };
    case "positions":
      return commit(s, { nodes: s.nodes.map((n) => (a.positions[n.id] ? { ...n, position: a.positions[n.id] } : n)) });
    case "undo": {
      const prev = s.past.at(-1);
      if (!prev) return s;
      return { ...s, ...prev, past: s.past.slice(0, -1), future: [snap(s), ...s.future], refused: null, revision: s.revision + 1 };
    }
    case "redo": {
      const next = s.future[0];
      if (!next) return s;
      return { ...s, ...next, past: [...s.past, snap(s)], future: s.future.slice(1), refused: null, revision: s.revision + 1 };
    }
  }
}

/** Every node a path of edges leads from to `id` (not `id` itself). */
export function upstreamOf(id: string, edges: Pick<WfEdge, "source" | "target">[]): Set<string> {
  const seen = new Set<string>();
  const stack = [id];
  while (stack.length) {
    const cur = stack.pop() as string;
    for (const e of edges) {
      if (e.target === cur && !seen.has(e.source) && e.source !== id) {
        seen.add(e.source);
        stack.push(e.source);
      }
    }
  }
  return seen;
}

export interface VariableOption {
  nodeId: string;
  type: string;
  /** The node's own title ("" when it has none). */
  title: string;
  field: string;
  /** `{{nodeId.field}}` */
  ref: string;
}

/**
 * The nodes a node may reference and, for each, the fields it offers: the nodes upstream of it; inside a
 * loop's body also the loop's pass variables and whatever is upstream of the loop (outward, level by
 * level); a loop itself also sees its body (its output and break conditions read the pass's results).
 */
export function visibleFields(id: string, nodes: WfNode[], edges: WfEdge[]): Map<string, string[]> {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const out = new Map<string, string[]>();
  const node = byId.get(id);
  let cur = node;
  for (let guard = 0; cur && guard < 20; guard++) {
    const up = upstreamOf(cur.id, edges);
    for (const n of nodes) if (up.has(n.id) && !out.has(n.id)) out.set(n.id, outputFields(n));
    const parent: WfNode | undefined = cur.parentId ? byId.get(cur.parentId) : undefined;
    if (parent && !out.has(parent.id)) out.set(parent.id, scopeFields(parent.type));
    cur = parent;
  }
  if (node && LOOP_TYPES.has(node.type)) {
    out.set(node.id, scopeFields(node.type));
    for (const n of nodes) if (n.parentId === id) out.set(n.id, outputFields(n));
  }
  return out;
}

/** The variables a node may reference (see visibleFields), start first. */
export function variablesFor(id: string, nodes: WfNode[], edges: WfEdge[]): VariableOption[] {
  const visible = visibleFields(id, nodes, edges);
  return nodes
    .filter((n) => visible.has(n.id))
    .sort((a, b) => (a.type === "start" ? -1 : b.type === "start" ? 1 : 0))
    .flatMap((n) =>
      (visible.get(n.id) ?? []).map((field) => ({
        nodeId: n.id,
        type: n.type,
        title: String(n.data.title ?? ""),
        field,
        ref: `{{${n.id}.${field}}}`,
      })),
    );
}

const REF = /\{\{\s*([A-Za-z0-9_-]+)\.([^}\s]+)\s*\}\}/g;
/** The `{{nodeId.field}}` references anywhere in a node's data. */
export function referencesIn(data: unknown): { nodeId: string; field: string }[] {
  const out: { nodeId: string; field: string }[] = [];
  const text = JSON.stringify(data ?? null);
  for (const m of text.matchAll(REF)) out.push({ nodeId: m[1], field: m[2] });
  return out;
}

export interface GraphIssue {
  nodeId: string | null;
  /** An i18n key under workflows.validation */
  key: string;
  values?: Record<string, string>;
}

const blank = (v: unknown) => (typeof v === "string" ? v.trim() === "" : v === undefined || v === null);

const filled = (field: string) => (d: Record<string, unknown>) => !blank(d[field]);
const someOf = (field: string) => (d: Record<string, unknown>) => Array.isArray(d[field]) && d[field].some((v) => !blank(v));

/** Per node type: each required setting's label key and whether the node's data has it. */
const REQUIRED: Partial<Record<string, [label: string, has: (d: Record<string, unknown>) => boolean][]>> = {
  answer: [["answerText", filled("text")]],
  template: [["template", filled("template")]],
  llm: [["prompt", filled("prompt")]],
  code: [["code", filled("code")]],
  knowledge: [
    ["knowledgeBases", someOf("knowledgeIds")],
    ["query", filled("query")],
  ],
  tool: [["plugin", filled("pluginId")]],
  http: [["url", filled("url")]],
  agent: [
    ["agent", filled("agentId")],
    ["question", filled("query")],
  ],
  classifier: [
    ["query", filled("query")],
    ["className", (d) => !((d.classes as { name?: string }[] | undefined) ?? []).some((c) => blank(c.name))],
  ],
  extractor: [["query", filled("query")]],
  list: [["listInput", filled("input")]],
  iteration: [["items", filled("items")]],
  aggregate: [["aggregateVariables", someOf("variables")]],
  subworkflow: [["subworkflow", filled("workflowId")]],
};

/**
 * The settings a node cannot do without, by type, each as the property's label key (under
 * workflows.props): what its form asks for before the node can run (a condition's variables are
 * checked apart, per rule). Optional settings (a model: the default one; a system prompt) are not here.
 */
export function missingSettings(node: Pick<WfNode, "type" | "data">): string[] {
  return (REQUIRED[node.type] ?? []).filter(([, has]) => !has(node.data)).map(([label]) => label);
}

/**
 * What the canvas can tell before the server does (the server validates again on save): one start
 * node, an end reachable from it, unique input names, references only to upstream nodes, and each
 * node's required settings filled (a condition's every rule names its variable).
 */
export function validateGraph(nodes: WfNode[], edges: WfEdge[]): GraphIssue[] {
  const issues: GraphIssue[] = [];
  const starts = nodes.filter((n) => n.type === "start");
  if (starts.length !== 1) issues.push({ nodeId: null, key: "oneStart" });
  const ends = nodes.filter((n) => n.type === "end");
  if (!ends.length) issues.push({ nodeId: null, key: "noEnd" });
  const start = starts[0];
  if (start) {
    const reach = new Set([start.id]);
    const queue = [start.id];
    while (queue.length) {
      const cur = queue.shift() as string;
      for (const e of edges) if (e.source === cur && !reach.has(e.target)) reach.add(e.target) && queue.push(e.target);
    }
    // A loop's body runs when its loop does: its nodes start where no edge inside the body leads to them.
    const top = nodes.filter((n) => !n.parentId);
    const topEnds = ends.filter((n) => !n.parentId);
    if (topEnds.length && !topEnds.some((e) => reach.has(e.id))) issues.push({ nodeId: topEnds[0].id, key: "endUnreachable" });
    for (const n of top) if (!reach.has(n.id)) issues.push({ nodeId: n.id, key: "unreachable" });
    for (const n of nodes) if (n.parentId && TOP_ONLY.has(n.type)) issues.push({ nodeId: n.id, key: "notInLoop" });
    const names = ((start.data.inputs as StartInput[] | undefined) ?? []).map((i) => i.name.trim());
    const dup = names.find((n, i) => n && names.indexOf(n) !== i);
    if (dup) issues.push({ nodeId: start.id, key: "duplicateVariable", values: { name: dup } });
    if (names.some((n) => !n)) issues.push({ nodeId: start.id, key: "emptyVariable" });
  }
  for (const n of nodes) {
    for (const field of missingSettings(n)) issues.push({ nodeId: n.id, key: "required", values: { field } });
    if (n.type === "condition") {
      const cases = (n.data.cases as ConditionCase[] | undefined) ?? [];
      if (cases.some((c) => (c.conditions ?? []).some((r) => blank(r.variable)))) issues.push({ nodeId: n.id, key: "conditionVariable" });
    }
    const visible = visibleFields(n.id, nodes, edges);
    for (const r of referencesIn(n.data)) {
      const fields = visible.get(r.nodeId);
      if (!fields) {
        issues.push({ nodeId: n.id, key: "badReference", values: { ref: `${r.nodeId}.${r.field}` } });
        break;
      }
      // A code node's declared outputs are all it offers (the server checks the same).
      const source = nodes.find((x) => x.id === r.nodeId);
      if (source?.type === "code" && Array.isArray(source.data.outputs) && !fields.includes(r.field.split(".")[0])) {
        issues.push({ nodeId: n.id, key: "undeclaredOutput", values: { ref: `${r.nodeId}.${r.field}` } });
        break;
      }
    }
  }
  return issues;
}

/** The graph as the server stores it (positions kept, so a reload shows the same picture). */
export function toWire(nodes: WfNode[], edges: WfEdge[]): WireGraph {
  return {
    nodes: nodes.map((n) => ({
      id: n.id,
      type: n.type,
      data: n.data,
      position: { x: Math.round(n.position.x), y: Math.round(n.position.y) },
      ...(n.parentId ? { parentId: n.parentId } : {}),
    })),
    edges: edges.map((e) => ({ source: e.source, target: e.target, ...(e.sourceHandle ? { sourceHandle: e.sourceHandle } : {}) })),
  };
}

/** A stored graph for the canvas; an empty one gets a start and an end node. */
export function fromWire(g: WireGraph | null | undefined): { nodes: WfNode[]; edges: WfEdge[] } {
  if (!g?.nodes?.length) {
    return {
      nodes: [
        { id: "start", type: "start", position: { x: 0, y: 80 }, data: defaultData("start") },
        { id: "end", type: "end", position: { x: 480, y: 80 }, data: defaultData("end") },
      ],
      edges: [],
    };
  }
  const nodes: WfNode[] = g.nodes.map((n, i) => ({
    id: n.id,
    type: n.type,
    position: n.position ?? (n.parentId ? { x: 24 + i * 20, y: GROUP_HEADER } : { x: i * 280, y: 80 }),
    data: n.data as NodeData,
    ...(n.parentId ? { parentId: n.parentId } : {}),
  }));
  // React Flow draws a parent before its children.
  const depth = new Map(nodes.map((n) => [n.id, depthOf(n, nodes)]));
  nodes.sort((a, b) => (depth.get(a.id) ?? 0) - (depth.get(b.id) ?? 0));
  const edges = g.edges.map((e) => ({
    id: `e_${e.source}_${e.sourceHandle ?? "out"}_${e.target}`,
    source: e.source,
    target: e.target,
    sourceHandle: e.sourceHandle ?? null,
  }));
  return { nodes, edges };
}
