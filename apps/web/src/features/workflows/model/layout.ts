import dagre from "@dagrejs/dagre";
import { GROUP_HEADER, GROUP_MIN } from "./graph";
import type { WfEdge, WfNode } from "./types";

const WIDTH = 200;
const HEIGHT = 80;
const PAD = 24;

/**
 * Left-to-right layers (dagre), so branches fan out downwards and joins line up. Each loop's body is
 * laid out on its own inside its box (innermost first), and the box takes the size of its body.
 */
export function autoLayout(nodes: WfNode[], edges: WfEdge[]): Record<string, { x: number; y: number }> {
  const out: Record<string, { x: number; y: number }> = {};
  const sizes = new Map<string, { width: number; height: number }>();
  const scopeOf = (n: WfNode) => n.parentId ?? "";
  const layoutScope = (scope: string): { width: number; height: number } => {
    const members = nodes.filter((n) => scopeOf(n) === scope);
    for (const n of members) if (nodes.some((c) => c.parentId === n.id)) sizes.set(n.id, layoutScope(n.id));
    if (!members.length) return GROUP_MIN;
    const ids = new Set(members.map((n) => n.id));
    const g = new dagre.graphlib.Graph();
    g.setGraph({ rankdir: "LR", nodesep: 30, ranksep: 56 });
    g.setDefaultEdgeLabel(() => ({}));
    for (const n of members) {
      const size = sizes.get(n.id) ?? { width: n.measured?.width ?? WIDTH, height: n.measured?.height ?? HEIGHT };
      g.setNode(n.id, size);
    }
    for (const e of edges) if (ids.has(e.source) && ids.has(e.target)) g.setEdge(e.source, e.target);
    dagre.layout(g);
    const offset = scope ? { x: PAD, y: GROUP_HEADER } : { x: 0, y: 0 };
    let width = 0;
    let height = 0;
    for (const n of members) {
      const p = g.node(n.id);
      const pos = { x: Math.round(p.x - p.width / 2) + offset.x, y: Math.round(p.y - p.height / 2) + offset.y };
      out[n.id] = pos;
      width = Math.max(width, pos.x + p.width + PAD);
      height = Math.max(height, pos.y + p.height + PAD);
    }
    return { width: Math.max(GROUP_MIN.width, width), height: Math.max(GROUP_MIN.height, height) };
  };
  layoutScope("");
  return out;
}
