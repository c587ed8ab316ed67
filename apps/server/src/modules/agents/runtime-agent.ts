import type { AgentKnowledgeSettings, AgentOrchestration, InsightCategory } from "@agentfair/contracts";
import type { Caller } from "../../platform/auth.ts";

/**
 * The seam between agents and the chat runtime: what the runtime needs of an agent.
 * The agents module implements `AgentsForRuntime`; the chat module only calls it.
 */
export interface RuntimeAgent {
  agentId: string;
  ownerId: string;
  tenantId: string;
  /** The released version run, or null when the studio debugs the current draft. */
  versionId: string | null;
  /** Revision of the draft that was run (debug runs); a successful debug of it unlocks release. */
  draftRevision: number;
  agentName: string;
  agentDescription: string;
  agentIcon: string;
  agentIconBackground: string;
  agentType: string | null;
  /** A report agent's special category (chatBi, chatWord, ...); absent: a general one. */
  insightCategory?: InsightCategory;
  /** Integer cents; 0 is a free agent. */
  priceCents: number;
  persona: string;
  model: {
    /** The Model management id chosen for the agent; null takes the platform default. */
    modelId: string | null;
    mode: "precise" | "balanced" | "creative" | "custom";
    temperature: number;
    topP: number;
    presencePenalty: number;
    frequencyPenalty: number;
    maxTokens: number;
  };
  usageGuide: string;
  chatOption: {
    prologue: string;
    presetQuestions: string[];
    enableFastConfigRuleOnChat: boolean;
    enableChatInsight: boolean;
    chatInsightFeatures: string[];
  };
  variables: { name: string; default: string; description: string; scope?: "user" | "session" }[];
  bindings: { plugins: string[]; externalPlugins: string[]; workflows: string[]; knowledgeBases: string[]; rules: string[] };
  /** Retrieval settings of the bound knowledge bases. */
  knowledge: AgentKnowledgeSettings;
  /** Multi-agent mode (absent: single-agent): bound agents to hand turns to, or a workflow that replies. */
  orchestration?: AgentOrchestration;
  /** The owner's design each reply shows, fed by the reply's result (null: none). */
  designId: string | null;
}

export interface AgentsForRuntime {
  /**
   * The agent as the caller may run it: `release: true` the listed or own released version
   * (marketplace users get it only when listed in their tenant scope); `release: false` the
   * current draft, for its owner only. Throws the catalogue's not-found otherwise.
   */
  runtimeAgent(caller: Caller, agentId: string, opts: { release: boolean }): Promise<RuntimeAgent>;
  /**
   * A reply that ended done. A debug run of a draft revision marks it debugged (what unlocks
   * release); a run of a released version counts one task (schema_use_count). Debug runs are no tasks.
   */
  replyDone(agent: RuntimeAgent): Promise<void>;
}
