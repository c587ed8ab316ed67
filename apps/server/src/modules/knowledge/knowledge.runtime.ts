import type { ChatDoc } from "@agentfair/contracts";
import type { ToolKind } from "../../runtime/tool-registry.ts";
import type { RuntimeAgent } from "../agents/runtime-agent.ts";
import type { KnowledgeService } from "./knowledge.service.ts";
import type { Hit } from "./search.ts";

/** What the chat runtime asks of knowledge, beside the retrieval tool. */
export interface KnowledgeForRuntime {
  /** The reply when the agent answers directly from its knowledge bases (no model); null: ask the model. */
  directAnswer(agent: RuntimeAgent, query: string): Promise<{ content: string; docs: ChatDoc[] } | null>;
}

/** "[1] 退货运费谁承担？" for a Q&A pair, "[2] manual.md · 退货政策" for a file's segment (its heading, if any). */
const titleOf = (h: Hit, i: number) => {
  const what =
    h.question ??
    (h.fileName ? [h.fileName, h.title].filter(Boolean).join(" · ") : (h.title ?? h.content.slice(0, 30).replace(/\s+/g, " ")));
  return `[${i + 1}] ${what}`;
};
export const docsOf = (hits: Hit[]): ChatDoc[] => hits.map((h, i) => ({ title: titleOf(h, i), content: h.answer ?? h.content }));

/**
 * The retrieval tool of agents with bound knowledge bases. Its hits stream to the chat as a
 * `docs` event, numbered; the model is asked to cite them as [1], [2].
 */
export function knowledgeToolKind(knowledge: KnowledgeService): ToolKind {
  return {
    kind: "knowledge",
    async toolsFor({ agent }) {
      const bases = await knowledge.basesOfAgent(agent);
      if (!bases.length) return [];
      return [
        {
          name: "knowledge_search",
          displayName: "知识库检索",
          description: `Searches the agent's knowledge bases (${bases
            .map((b) => b.name)
            .join(", ")
            .slice(
              0,
              200,
            )}) and returns numbered passages. Use it for questions the knowledge bases may answer, then answer from the passages and cite them as [1], [2].`,
          parameters: {
            type: "object",
            properties: { query: { type: "string", description: "what to look for, in the user's words" } },
            required: ["query"],
            additionalProperties: false,
          },
          async execute(args, ctx) {
            const query = String((args as { query?: unknown })?.query ?? "").slice(0, 2000);
            const { hits } = await knowledge.retrieveForAgent(agent, query);
            if (hits.length) ctx.emit?.({ type: "docs", docs: docsOf(hits) });
            return {
              passages: hits.map((h, i) => ({
                n: i + 1,
                source: titleOf(h, i),
                text: h.answer ? `${h.question}\n${h.answer}` : h.content,
                score: h.score,
              })),
              instruction: hits.length
                ? "Answer from these passages and cite them as [n]."
                : "Nothing relevant was found in the knowledge bases.",
            };
          },
        },
      ];
    },
  };
}

export function knowledgeForRuntime(knowledge: KnowledgeService): KnowledgeForRuntime {
  return {
    async directAnswer(agent, query) {
      const found = await knowledge.directAnswer(agent, query);
      return found && { content: found.content, docs: docsOf([found.hit]) };
    },
  };
}
