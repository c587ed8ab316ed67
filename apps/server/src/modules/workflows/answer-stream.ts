import type { GraphEdge, GraphNode, NodeCommon, NodeType } from "@agentfair/contracts";
import { referencedNodes } from "./template.ts";

/** Node types whose `text` output is written as it is produced. */
const WRITERS = new Set<NodeType>(["llm", "agent"]);

/** An answer node that shows a writer's text while the writer is still producing it. */
export interface AnswerFeed {
  answerId: string;
  /** The answer's template before the writer's `{{writer.text}}`: sent first, resolved when the writer starts writing. */
  prefix: string;
  prefixRefs: string[];
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");

/**
 * The answer nodes of a scope that can stream, by the writer that feeds them: an answer whose only way in is
 * a plain edge from an LLM or agent node, and whose text shows that node's `text`. The writer must not retry
 * or take a fail branch or default value (what was already streamed could not be taken back); any other
 * answer is sent whole when it runs.
 */
export function answerFeeds(nodes: GraphNode[], edges: GraphEdge[], dataOf: (n: GraphNode) => Record<string, unknown>) {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const feeds = new Map<string, AnswerFeed[]>();
  for (const answer of nodes) {
    if (answer.type !== "answer") continue;
    const incoming = edges.filter((e) => e.target === answer.id);
    const sourceId = incoming[0]?.source;
    const writer = sourceId ? byId.get(sourceId) : undefined;
    if (!writer || !WRITERS.has(writer.type)) continue;
    if (incoming.some((e) => e.source !== sourceId || (e.sourceHandle && e.sourceHandle !== "source"))) continue;
    let text: string;
    let common: NodeCommon;
    try {
      text = String(dataOf(answer).text ?? "");
      common = dataOf(writer) as NodeCommon;
    } catch {
      continue;
    }
    if ((common.retries ?? 0) > 0 || (common.onError ?? "fail") !== "fail") continue;
    const ref = new RegExp(`\\{\\{\\s*${escapeRe(writer.id)}\\.text\\s*\\}\\}`).exec(text);
    if (!ref) continue;
    const prefix = text.slice(0, ref.index);
    feeds.set(writer.id, [...(feeds.get(writer.id) ?? []), { answerId: answer.id, prefix, prefixRefs: referencedNodes(prefix) }]);
  }
  return feeds;
}
