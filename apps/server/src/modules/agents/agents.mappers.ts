import {
  type AgentCard,
  type AgentDraft,
  type AgentPublic,
  type AgentSnapshot,
  type AgentStatus,
  defaultKnowledgeSettings,
  defaultModelSettings,
  emptyBindings,
} from "@agentfair/contracts";
import type { AgentConfig } from "../../db/schema/agents.ts";
import type { AgentRow, ApplyRow } from "./agents.repository.ts";
import type { RuntimeAgent } from "./runtime-agent.ts";

export const yuan = (cents: number) => cents / 100;
export const cents = (yuanValue: number) => Math.round(yuanValue * 100);

export function defaultConfig(): AgentConfig {
  return {
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

export function splitDraft(draft: AgentDraft): {
  identity: Pick<AgentRow, "agentName" | "agentDescription" | "agentIcon" | "agentIconBackground">;
  config: AgentConfig;
} {
  const { agentName, agentDescription, agentIcon, agentIconBackground, ...config } = draft;
  return { identity: { agentName: agentName.trim(), agentDescription, agentIcon, agentIconBackground }, config };
}

export function draftOf(row: AgentRow): AgentDraft {
  return {
    agentName: row.agentName,
    agentDescription: row.agentDescription,
    agentIcon: row.agentIcon,
    agentIconBackground: row.agentIconBackground,
    ...defaultConfig(),
    ...row.config,
  };
}

export function snapshotOf(row: AgentRow): AgentSnapshot {
  return { ...draftOf(row), price: yuan(row.priceCents) };
}

export function toCard(row: AgentRow, callerId: string | undefined, apply?: ApplyRow): AgentCard {
  return {
    id: row.id,
    agentId: row.id,
    agentName: row.agentName,
    name: row.agentName,
    agentDescription: row.agentDescription,
    desc: row.agentDescription,
    agentIcon: row.agentIcon,
    agentIconBackground: row.agentIconBackground,
    price: yuan(row.priceCents),
    agentType: row.agentType,
    agentStatus: row.agentStatus as AgentStatus,
    launchTags: row.config.launchTags ?? [],
    launchVersion: row.launchVersion,
    launchVersionDisabled: row.launchVersionDisabled,
    lastModifiedDate: row.lastModifiedAt.toISOString(),
    copyByMe: row.copyByMe,
    labelId: row.config.labelId ?? null,
    taskNum: row.useCount,
    mine: row.ownerId === callerId,
    applyStatus: (apply?.status as AgentCard["applyStatus"]) ?? null,
    applyReason: apply?.reason ?? null,
  };
}

/** What a hirer sees of a released snapshot: no persona, model settings or variables. */
export function toPublic(row: AgentRow, snap: AgentSnapshot, versionNo: number | null): AgentPublic {
  return {
    agentId: row.id,
    agentName: snap.agentName,
    agentIcon: snap.agentIcon,
    agentIconBackground: snap.agentIconBackground,
    desc: snap.agentDescription,
    agentDescription: snap.agentDescription,
    // The price is the agent's current one (what the card shows and what a chat charges).
    price: yuan(row.priceCents),
    agentType: row.agentType,
    agentStatus: row.agentStatus as AgentStatus,
    usageGuide: snap.usageGuide,
    chatOption: snap.chatOption,
    plugins: snap.bindings.plugins,
    externalPlugins: snap.bindings.externalPlugins,
    workflows: snap.bindings.workflows,
    ruleTree: [],
    rules: snap.bindings.rules,
    launchTags: snap.launchTags,
    example: snap.example,
    versionNo,
  };
}

export function toRuntime(row: AgentRow, snap: AgentSnapshot, versionId: string | null): RuntimeAgent {
  return {
    agentId: row.id,
    ownerId: row.ownerId,
    tenantId: row.tenantId,
    versionId,
    draftRevision: row.draftRevision,
    agentName: snap.agentName,
    agentDescription: snap.agentDescription,
    agentIcon: snap.agentIcon,
    agentIconBackground: snap.agentIconBackground,
    agentType: row.agentType,
    priceCents: row.priceCents,
    persona: snap.persona,
    model: snap.model,
    usageGuide: snap.usageGuide,
    chatOption: snap.chatOption,
    variables: snap.variables,
    bindings: snap.bindings,
    knowledge: { ...defaultKnowledgeSettings(), ...snap.knowledge },
  };
}
