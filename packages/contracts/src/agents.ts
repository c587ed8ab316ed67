import { z } from "zod";
import { agentKnowledgeSettings, defaultKnowledgeSettings } from "./knowledge.ts";
import { MODE_PRESETS, type ModelMode, modelMode, modelModes } from "./models.ts";
import { ruleTreeProject } from "./rules.ts";

/** Agent status (doc 2 §4 dictionary: unreleased C00 / released C90). Detail is blocked while it contains 'Unreleased'. */
export const AGENT_STATUS = { unreleased: "C00_Unreleased", released: "C90_Released" } as const;
export const agentStatus = z.enum([AGENT_STATUS.unreleased, AGENT_STATUS.released]);
export type AgentStatus = z.infer<typeof agentStatus>;
export const isUnreleased = (status: string | null | undefined) => !status || status.includes("Unreleased");

/** Listing filter of My agents (doc 1 §4): listed and not listed. */
export const LISTING_FILTERS = ["C90_Launched", "C90_bay"] as const;
export const listingFilter = z.enum(LISTING_FILTERS);

/** Listing review requests: PENDING shows '审核中'. */
export const APPLY_STATUSES = ["PENDING", "APPROVED", "REJECTED"] as const;
export const applyStatus = z.enum(APPLY_STATUSES);
export type ApplyStatus = z.infer<typeof applyStatus>;
export const APPLY_PENDING_TEXT = "审核中";

/** Doc 1 §9. */
export const AGENT_NAME_MAX = 15;
export const AGENT_PAGE_SIZE = 99;
export const AGENT_DESCRIPTION_MAX = 500;
/** Doc 2 §5: prompt or input content max 1500 bytes (UTF-8). */
export const PERSONA_MAX_BYTES = 1500;
export const PRESET_QUESTIONS_MAX = 10;
export const VARIABLES_MAX = 30;
export const REVIEW_PAGE_SIZE = 20;

/** Default tag list (doc 1 §9); the wire carries the key, the web shows the label. */
export const DEFAULT_TAGS = [
  "general",
  "securities",
  "HR",
  "fund",
  "marketing",
  "government",
  "finance",
  "telecom",
  "insurance",
  "bank",
] as const;
export const launchTag = z.enum(DEFAULT_TAGS);
export type LaunchTag = z.infer<typeof launchTag>;

/** The report agent type: no edit button (doc 1 §2). */
export const INSIGHT_AGENT_TYPE = "insight";
/**
 * The special categories of report agents (doc 1 §9), also the names a plan template's `types`
 * lists: question → one chart, → a dashboard of charts, → a Word report, → a slide deck, → a
 * long-form report from the bound knowledge bases and data tables.
 */
export const INSIGHT_CATEGORIES = ["chatBi", "chat dashboard", "chatWord", "chatPPT", "industry report"] as const;
export const insightCategory = z.enum(INSIGHT_CATEGORIES);
export type InsightCategory = z.infer<typeof insightCategory>;

/**
 * Model modes come from models.ts (precise, balanced, creative, custom); these are the full
 * sampling settings the studio fills in for each named mode (temperature and top P as MODE_PRESETS).
 */
export const AGENT_MODE_PRESETS: Record<
  Exclude<ModelMode, "custom">,
  { temperature: number; topP: number; presencePenalty: number; frequencyPenalty: number }
> = {
  precise: { ...MODE_PRESETS.precise, presencePenalty: 0, frequencyPenalty: 0 },
  balanced: { ...MODE_PRESETS.balanced, presencePenalty: 0, frequencyPenalty: 0 },
  creative: { ...MODE_PRESETS.creative, presencePenalty: 0.3, frequencyPenalty: 0.3 },
};
/** The four modes in display order. */
export const MODEL_MODES_LIST = modelModes;
export const MAX_TOKENS_LIMIT = 32768;

export const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

/** The first duplicated variable name, or null (doc 2 §5: 'variable name duplicate'). */
export function duplicateVariableName(vars: { name: string }[]): string | null {
  const seen = new Set<string>();
  for (const v of vars) {
    const key = v.name.trim();
    if (seen.has(key)) return key;
    seen.add(key);
  }
  return null;
}

export const modelSettings = z.object({
  /** Model management id; null is the platform default. */
  modelId: z.string().trim().max(64).nullable(),
  mode: modelMode,
  temperature: z.number().min(0).max(2),
  topP: z.number().min(0).max(1),
  presencePenalty: z.number().min(-2).max(2),
  frequencyPenalty: z.number().min(-2).max(2),
  maxTokens: z.number().int().min(1).max(MAX_TOKENS_LIMIT),
});
export type ModelSettings = z.infer<typeof modelSettings>;
export const defaultModelSettings = (): ModelSettings => ({
  modelId: null,
  mode: "balanced",
  ...AGENT_MODE_PRESETS.balanced,
  maxTokens: 2048,
});

export const chatOption = z.object({
  prologue: z.string().max(1000),
  presetQuestions: z.array(z.string().trim().min(1).max(100)).max(PRESET_QUESTIONS_MAX),
  enableFastConfigRuleOnChat: z.boolean(),
  enableChatInsight: z.boolean(),
  chatInsightFeatures: z.array(z.string().max(64)).max(20),
});
export type ChatOption = z.infer<typeof chatOption>;

export const VARIABLE_NAME_PATTERN = /^[A-Za-z_\u4e00-\u9fa5][A-Za-z0-9_\u4e00-\u9fa5]{0,31}$/;
/**
 * Where a memory variable's value is kept for each user: "user" carries across the user's sessions with
 * the agent, "session" starts at the default in every new session (absent: "user").
 */
export const MEMORY_SCOPES = ["user", "session"] as const;
export type MemoryScope = (typeof MEMORY_SCOPES)[number];
/** Longest value a memory variable holds (the default and what a user or the model writes). */
export const MEMORY_VALUE_MAX = 500;
export const memoryVariable = z.object({
  name: z.string().trim().regex(VARIABLE_NAME_PATTERN),
  default: z.string().max(MEMORY_VALUE_MAX),
  description: z.string().max(200),
  scope: z.enum(MEMORY_SCOPES).optional(),
});
export type MemoryVariable = z.infer<typeof memoryVariable>;

const ids = z.array(z.string().trim().min(1).max(64)).max(50);
/** Skills bound to the agent; the tools, workflows, knowledge and rules issues fill them. */
export const agentBindings = z.object({ plugins: ids, externalPlugins: ids, workflows: ids, knowledgeBases: ids, rules: ids });
export type AgentBindings = z.infer<typeof agentBindings>;
export const emptyBindings = (): AgentBindings => ({ plugins: [], externalPlugins: [], workflows: [], knowledgeBases: [], rules: [] });
/**
 * The number of skills a hirer sees (tools, external tools, workflows, rules; knowledge bases are the
 * owner's private data). The card's count and the detail page's list agree on it (doc 1 §3 leaves
 * skillNum decorative; a real count keeps the two places consistent).
 */
export const skillCount = (b: Pick<AgentBindings, "plugins" | "externalPlugins" | "workflows" | "rules">) =>
  b.plugins.length + b.externalPlugins.length + b.workflows.length + b.rules.length;

/**
 * The agent orchestration screen (doc 2 §2 dictionary areas): single-agent (the agent answers itself) or
 * multi-agent, where the lead agent either hands turns to its bound agents (self-scheduling) or follows a
 * bound workflow (self-orchestration). Absent: single-agent.
 */
export const ORCHESTRATION_MODES = ["single", "multi"] as const;
export const MULTI_AGENT_MODES = ["scheduling", "workflow"] as const;
export const agentOrchestration = z.object({
  mode: z.enum(ORCHESTRATION_MODES),
  multiMode: z.enum(MULTI_AGENT_MODES),
  /** Self-scheduling: the agents the lead may hand a turn to. */
  agents: ids.max(10),
  /** Self-orchestration: the workflow (one of bindings.workflows) that drives the conversation. */
  workflowId: z.string().max(64).nullable(),
});
export type AgentOrchestration = z.infer<typeof agentOrchestration>;
export const defaultOrchestration = (): AgentOrchestration => ({ mode: "single", multiMode: "scheduling", agents: [], workflowId: null });

/** Icon: '#<file id>' an uploaded file, a number a built-in image, otherwise an emoji name. */
export const agentIcon = z.string().trim().max(80);
export const agentIconBackground = z.string().trim().max(32);
export const agentName = z.string().trim().min(1).max(AGENT_NAME_MAX);
/** Price on the wire in yuan (the unit of accountBalance); stored as integer cents. */
export const price = z.number().min(0).max(100000);

/** Everything the studio edits. */
export const agentDraft = z.object({
  agentName,
  agentDescription: z.string().max(AGENT_DESCRIPTION_MAX),
  agentIcon,
  agentIconBackground,
  persona: z.string().max(PERSONA_MAX_BYTES * 2),
  model: modelSettings,
  usageGuide: z.string().max(2000),
  chatOption,
  variables: z.array(memoryVariable).max(VARIABLES_MAX),
  bindings: agentBindings,
  /** Retrieval settings of the bound knowledge bases (absent: the defaults). */
  knowledge: agentKnowledgeSettings.optional(),
  /** Single- or multi-agent orchestration (absent: single-agent). */
  orchestration: agentOrchestration.optional(),
  /**
   * One of the owner's saved designs (designer) shown as the card or form of every reply, fed by the
   * reply's result data (absent or null: none). Its last button sends into the chat.
   */
  designId: z.string().trim().min(1).max(64).nullable().optional(),
  /** A report agent's special category (absent: a general report agent, as "chat dashboard" without the plan check). */
  insightCategory: insightCategory.optional(),
  example: z.string().max(2000),
  launchTags: z.array(launchTag).max(DEFAULT_TAGS.length),
  labelId: z.string().max(64).nullable(),
});
export type AgentDraft = z.infer<typeof agentDraft>;

/** A new agent's draft: what quick/add stores and what the studio shows before the first save. */
export function defaultAgentDraft(agentName: string): AgentDraft {
  return {
    agentName,
    agentDescription: "",
    agentIcon: "1",
    agentIconBackground: "#e8f3ff",
    persona: "",
    model: defaultModelSettings(),
    usageGuide: "",
    chatOption: { prologue: "", presetQuestions: [], enableFastConfigRuleOnChat: false, enableChatInsight: false, chatInsightFeatures: [] },
    variables: [],
    bindings: emptyBindings(),
    example: "",
    launchTags: [],
    labelId: null,
  };
}

/** A released version's full content (owner / administrator only). */
export const agentSnapshot = agentDraft.extend({ price });
export type AgentSnapshot = z.infer<typeof agentSnapshot>;

export const draftResponse = z.object({
  agentId: z.string(),
  draft: agentDraft,
  price,
  agentStatus,
  /** Bumped on every save; a debug run records the revision it ran. */
  revision: z.number(),
  debugSucceeded: z.boolean(),
  latestVersion: z.number().nullable(),
  /** The draft was saved since the latest release (false before the first): the studio says so. */
  changedSinceRelease: z.boolean(),
  lastModifiedDate: z.string(),
});
export type DraftResponse = z.infer<typeof draftResponse>;

export const quickAddRequest = z.object({
  agentName: agentName.optional(),
  agentDescription: z.string().max(AGENT_DESCRIPTION_MAX).optional(),
  agentIcon: agentIcon.optional(),
  agentIconBackground: agentIconBackground.optional(),
});

export const releaseRequest = z.object({ notes: z.string().trim().max(500).default("") });
export const versionSummary = z.object({ versionNo: z.number(), notes: z.string(), createdAt: z.string() });
export type VersionSummary = z.infer<typeof versionSummary>;
export const versionDetail = versionSummary.extend({ snapshot: agentSnapshot });
export type VersionDetail = z.infer<typeof versionDetail>;

/** One card of a list (marketplace or mine). */
export const agentCard = z.object({
  id: z.string(),
  agentId: z.string(),
  agentName: z.string(),
  name: z.string(),
  agentDescription: z.string(),
  desc: z.string(),
  agentIcon: z.string(),
  agentIconBackground: z.string(),
  /** Yuan; 0 is free. */
  price: z.number(),
  agentType: z.string().nullable(),
  /** A report agent's special category (doc 1 §9), shown as the card's tag; null for others. */
  insightCategory: z.string().nullable(),
  agentStatus,
  launchTags: z.array(z.string()),
  launchVersion: z.number().nullable(),
  launchVersionDisabled: z.boolean(),
  lastModifiedDate: z.string(),
  copyByMe: z.boolean(),
  labelId: z.string().nullable(),
  taskNum: z.number(),
  /** Real number of bound skills (agentSkills): of the listed version in the marketplace, of the draft in My agents. */
  skillNum: z.number(),
  /** The owner lets others copy it (a copy includes the persona); own cards: the listing's setting. */
  copyable: z.boolean(),
  /** The caller owns it: 'use now' instead of 'hire now'. */
  mine: z.boolean(),
  /** Latest listing request of the owner's agent (own lists only). */
  applyStatus: applyStatus.nullable(),
  applyReason: z.string().nullable(),
});
export type AgentCard = z.infer<typeof agentCard>;
export const isListed = (a: { launchVersion: number | null; launchVersionDisabled: boolean }) =>
  a.launchVersion !== null && !a.launchVersionDisabled;

export const agentPage = z.object({ list: z.array(agentCard), total: z.number() });
export type AgentPage = z.infer<typeof agentPage>;

/**
 * The marketplace serves the first ten pages of any list (most used first): a page further down
 * costs as much as every page above it, and a search or a tag narrows a list faster than paging.
 */
export const MARKET_MAX_PAGES = 10;
/**
 * A marketplace page. A search or filter counts its matches up to a bound (every listed agent
 * otherwise): past it `totalExact` is false and `total` is how many were counted, "10000+".
 */
export const marketPage = agentPage.extend({ totalExact: z.boolean() });
export type MarketPage = z.infer<typeof marketPage>;

export const launchPageRequest = z.object({
  name: z.string().trim().max(50).optional(),
  page: z.number().int().min(1).max(MARKET_MAX_PAGES).default(1),
  size: z.number().int().min(1).max(AGENT_PAGE_SIZE).default(AGENT_PAGE_SIZE),
  tag: launchTag.optional(),
  labelId: z.string().max(64).optional(),
});
export type LaunchPageRequest = z.input<typeof launchPageRequest>;

export const minePageRequest = z.object({
  name: z.string().trim().max(50).optional(),
  status: listingFilter.optional(),
  copyByMe: z.boolean().optional(),
  page: z.number().int().min(1).default(1),
  size: z.number().int().min(1).max(AGENT_PAGE_SIZE).default(AGENT_PAGE_SIZE),
});
export type MinePageRequest = z.input<typeof minePageRequest>;

/** PUT /api/agent/intro/{id}: the name rules are checked by the server with the spec's messages. */
export const introRequest = z.object({
  agentName: z.string().max(200),
  agentDescription: z.string().max(AGENT_DESCRIPTION_MAX).optional(),
  agentIcon: agentIcon.optional(),
  agentIconBackground: agentIconBackground.optional(),
  price: price.optional(),
});
/**
 * The rename rule of doc 1 §5, for the web form and the server alike; each side words it in its
 * own dictionary (名称不能为空, 输入内容不能超过15个字符).
 */
export function renameError(name: string): "blank" | "tooLong" | null {
  if (!name.trim()) return "blank";
  if ([...name.trim()].length > AGENT_NAME_MAX) return "tooLong";
  return null;
}

export const label = z.object({ id: z.string(), labelName: z.string() });
export type Label = z.infer<typeof label>;

export const useCountRow = z.object({ schema_id: z.string(), count: z.number() });
export const useCountByIdsRequest = z.object({ schema_ids: z.array(z.string().max(64)).max(200) });

/** What a hirer may know: never the persona, model settings or variables. */
export const agentPublic = z.object({
  agentId: z.string(),
  agentName: z.string(),
  agentIcon: z.string(),
  agentIconBackground: z.string(),
  desc: z.string(),
  agentDescription: z.string(),
  price: z.number(),
  agentType: z.string().nullable(),
  agentStatus,
  usageGuide: z.string(),
  chatOption,
  plugins: z.array(z.string()),
  externalPlugins: z.array(z.string()),
  workflows: z.array(z.string()),
  /** The bound part of the rule library: projects with ruleDirs with the enabled rules the agent evaluates. */
  ruleTree: z.array(ruleTreeProject),
  /** The rule, directory and project ids bound in the studio (that still lead to a rule). */
  rules: z.array(z.string()),
  launchTags: z.array(z.string()),
  example: z.string(),
  versionNo: z.number().nullable(),
});
export type AgentPublic = z.infer<typeof agentPublic>;

export const agentDetail = z.object({
  agent: agentPublic,
  mine: z.boolean(),
  creator: z.string(),
  taskNum: z.number(),
  chatCount: z.number(),
  versions: z.array(versionSummary),
  launchVersion: z.number().nullable(),
  launchVersionDisabled: z.boolean(),
  /** Whether the caller may copy it: the owner's choice when listing (owners always). */
  copyable: z.boolean(),
});
export type AgentDetail = z.infer<typeof agentDetail>;

export const wasCopiedResponse = z.object({ copied: z.boolean() });
export const copyResponse = z.object({ agentId: z.string() });

/**
 * Submit for listing. `copyable`: the owner lets hirers copy the agent, persona included (the
 * spec's client sends no body but agentId: absent means not copyable).
 */
export const saveApplyRequest = z.object({ agentId: z.string().min(1).max(64), copyable: z.boolean().default(false) });
export const applyItem = z.object({
  id: z.string(),
  agentId: z.string(),
  agentName: z.string(),
  agentDescription: z.string(),
  agentIcon: z.string(),
  agentIconBackground: z.string(),
  price: z.number(),
  /** The owner lets hirers copy it (persona included). */
  copyable: z.boolean(),
  versionNo: z.number(),
  notes: z.string(),
  persona: z.string(),
  prologue: z.string(),
  presetQuestions: z.array(z.string()),
  launchTags: z.array(z.string()),
  applicant: z.string(),
  tenantName: z.string(),
  status: applyStatus,
  reason: z.string().nullable(),
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
});
export type ApplyItem = z.infer<typeof applyItem>;
export const applyPageRequest = z.object({
  status: applyStatus.optional(),
  page: z.number().int().min(1).default(1),
  size: z.number().int().min(1).max(100).default(REVIEW_PAGE_SIZE),
});
export const applyPage = z.object({ list: z.array(applyItem), total: z.number() });
export const rejectRequest = z.object({ reason: z.string().trim().min(1).max(200) });
export const shelfRequest = z.object({ disabled: z.boolean() });

export const widgetResponse = z.object({
  agentId: z.string(),
  agentName: z.string(),
  agentIcon: z.string(),
  agentIconBackground: z.string(),
  agentDescription: z.string(),
  prologue: z.string(),
  presetQuestions: z.array(z.string()),
});
export const addCountsRequest = z.object({ agentId: z.string().min(1).max(64) });

/**
 * Field-by-field differences between two versions, for the studio's version compare: the prompt,
 * every setting (model, chat options, knowledge retrieval, orchestration) and every binding.
 */
export function diffSnapshots(a: AgentSnapshot, b: AgentSnapshot): { field: string; before: string; after: string }[] {
  const flat = (s: AgentSnapshot): Record<string, string> => {
    const knowledge = s.knowledge ?? defaultKnowledgeSettings();
    const orchestration = s.orchestration ?? defaultOrchestration();
    return {
      agentName: s.agentName,
      agentDescription: s.agentDescription,
      agentIcon: s.agentIcon,
      agentIconBackground: s.agentIconBackground,
      price: String(s.price),
      persona: s.persona,
      "model.modelId": s.model.modelId ?? "",
      "model.mode": s.model.mode,
      "model.temperature": String(s.model.temperature),
      "model.topP": String(s.model.topP),
      "model.presencePenalty": String(s.model.presencePenalty),
      "model.frequencyPenalty": String(s.model.frequencyPenalty),
      "model.maxTokens": String(s.model.maxTokens),
      usageGuide: s.usageGuide,
      "chatOption.prologue": s.chatOption.prologue,
      "chatOption.presetQuestions": s.chatOption.presetQuestions.join("\n"),
      "chatOption.enableFastConfigRuleOnChat": String(s.chatOption.enableFastConfigRuleOnChat),
      "chatOption.enableChatInsight": String(s.chatOption.enableChatInsight),
      "chatOption.chatInsightFeatures": s.chatOption.chatInsightFeatures.join(", "),
      variables: s.variables.map((v) => `${v.name}=${v.default} (${v.description})`).join("\n"),
      "bindings.plugins": s.bindings.plugins.join(", "),
      "bindings.externalPlugins": s.bindings.externalPlugins.join(", "),
      "bindings.workflows": s.bindings.workflows.join(", "),
      "bindings.knowledgeBases": s.bindings.knowledgeBases.join(", "),
      "bindings.rules": s.bindings.rules.join(", "),
      "knowledge.topK": String(knowledge.topK),
      "knowledge.vectorWeight": String(knowledge.vectorWeight),
      "knowledge.threshold": String(knowledge.threshold),
      "knowledge.directAnswer": String(knowledge.directAnswer),
      "knowledge.directThreshold": String(knowledge.directThreshold),
      "knowledge.rerank": String(knowledge.rerank ?? false),
      "knowledge.rerankModelId": knowledge.rerankModelId ?? "",
      "orchestration.mode": orchestration.mode,
      "orchestration.multiMode": orchestration.multiMode,
      "orchestration.agents": orchestration.agents.join(", "),
      "orchestration.workflowId": orchestration.workflowId ?? "",
      example: s.example,
      launchTags: s.launchTags.join(", "),
      labelId: s.labelId ?? "",
    };
  };
  const fa = flat(a);
  const fb = flat(b);
  return Object.keys(fa)
    .filter((k) => fa[k] !== fb[k])
    .map((k) => ({ field: k, before: fa[k], after: fb[k] }));
}
