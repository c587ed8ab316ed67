import {
  type AgentCard,
  type AgentDraft,
  type AgentPublic,
  type AgentSnapshot,
  type AgentStatus,
  defaultAgentDraft,
  skillCount,
  defaultKnowledgeSettings,
} from "@agentfair/contracts";
import type { AgentConfig, ListingCard } from "../../db/schema/agents.ts";
import type { AgentRow, ApplyRow, MarketRow } from "./agents.repository.ts";
import type { RuntimeAgent } from "./runtime-agent.ts";

export const yuan = (cents: number) => cents / 100;
export const cents = (yuanValue: number) => Math.round(yuanValue * 100);

export const defaultConfig = (): AgentConfig => splitDraft(defaultAgentDraft("")).config;

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

/** The card a listing request asks for: the agent's current card and price, and the owner's copy choice. */
export function listingCardOf(row: AgentRow, snap: AgentSnapshot, copyable: boolean): ListingCard {
  return {
    agentName: row.agentName,
    agentDescription: row.agentDescription,
    agentIcon: row.agentIcon,
    agentIconBackground: row.agentIconBackground,
    priceCents: row.priceCents,
    copyable,
    skillNum: skillCount(snap.bindings),
  };
}

/**
 * The approved listing of a listed agent. Every approval writes one (and the migration wrote those
 * of earlier listings); the fallback only keeps a row written otherwise from failing: not copyable.
 */
export const listingOf = (
  row: Pick<AgentRow, "listing" | "agentName" | "agentDescription" | "agentIcon" | "agentIconBackground" | "priceCents">,
): ListingCard =>
  row.listing ?? {
    agentName: row.agentName,
    agentDescription: row.agentDescription,
    agentIcon: row.agentIcon,
    agentIconBackground: row.agentIconBackground,
    priceCents: row.priceCents,
    copyable: false,
    skillNum: 0,
  };

export const sameListingCard = (a: ListingCard, b: ListingCard) => (Object.keys(a) as (keyof ListingCard)[]).every((k) => a[k] === b[k]);

/** The owner's view of an agent (My agents, the owner's answers): its current card. */
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
    insightCategory: row.config.insightCategory ?? null,
    agentStatus: row.agentStatus as AgentStatus,
    launchTags: row.config.launchTags ?? [],
    launchVersion: row.launchVersion,
    launchVersionDisabled: row.launchVersionDisabled,
    lastModifiedDate: row.lastModifiedAt.toISOString(),
    copyByMe: row.copyByMe,
    labelId: row.config.labelId ?? null,
    taskNum: row.useCount,
    skillNum: skillCount(row.config.bindings),
    copyable: row.listing?.copyable ?? false,
    mine: row.ownerId === callerId,
    applyStatus: (apply?.status as AgentCard["applyStatus"]) ?? null,
    applyReason: apply?.reason ?? null,
  };
}

/**
 * A marketplace card: the approved listing's card and price, whoever looks (the owner too); as
 * anyone but its owner sees it (`mine` false).
 */
export function toMarketCard(row: MarketRow): AgentCard {
  const l = row.listing;
  return {
    id: row.id,
    agentId: row.id,
    agentName: l.agentName,
    name: l.agentName,
    agentDescription: l.agentDescription,
    desc: l.agentDescription,
    agentIcon: l.agentIcon,
    agentIconBackground: l.agentIconBackground,
    price: yuan(l.priceCents),
    agentType: row.agentType,
    insightCategory: row.insightCategory ?? null,
    agentStatus: row.agentStatus as AgentStatus,
    launchTags: row.launchTags ?? [],
    launchVersion: row.launchVersion,
    launchVersionDisabled: row.launchVersionDisabled,
    lastModifiedDate: new Date(row.lastModifiedMs).toISOString(),
    copyByMe: row.copyByMe,
    labelId: row.labelId ?? null,
    taskNum: row.useCount,
    skillNum: l.skillNum,
    copyable: l.copyable,
    mine: false,
    applyStatus: null,
    applyReason: null,
  };
}

/**
 * What a hirer sees of a released snapshot: no persona, model settings or variables. `listing`:
 * the hirer's view, with the approved card and price; without it the owner's (current card and price).
 */
export function toPublic(
  row: AgentRow,
  snap: AgentSnapshot,
  versionNo: number | null,
  listing: ListingCard | null,
  rules: Pick<AgentPublic, "ruleTree" | "rules">,
): AgentPublic {
  // The owner's name, icon and description are the agent's own now (renamed since a release or not).
  const card = listing ?? row;
  return {
    agentId: row.id,
    agentName: card.agentName,
    agentIcon: card.agentIcon,
    agentIconBackground: card.agentIconBackground,
    desc: card.agentDescription,
    agentDescription: card.agentDescription,
    price: yuan(listing ? listing.priceCents : row.priceCents),
    agentType: row.agentType,
    agentStatus: row.agentStatus as AgentStatus,
    usageGuide: snap.usageGuide,
    chatOption: snap.chatOption,
    plugins: snap.bindings.plugins,
    externalPlugins: snap.bindings.externalPlugins,
    workflows: snap.bindings.workflows,
    ruleTree: rules.ruleTree,
    rules: rules.rules,
    launchTags: snap.launchTags,
    example: snap.example,
    versionNo,
  };
}

/** The run's agent; `listing` for hirers: they are charged the approved price. */
export function toRuntime(row: AgentRow, snap: AgentSnapshot, versionId: string | null, listing: ListingCard | null): RuntimeAgent {
  // The owner's name, icon and description are the agent's own now (renamed since a release or not).
  const card = listing ?? row;
  return {
    agentId: row.id,
    ownerId: row.ownerId,
    tenantId: row.tenantId,
    versionId,
    draftRevision: row.draftRevision,
    agentName: card.agentName,
    agentDescription: card.agentDescription,
    agentIcon: card.agentIcon,
    agentIconBackground: card.agentIconBackground,
    agentType: row.agentType,
    priceCents: listing ? listing.priceCents : row.priceCents,
    persona: snap.persona,
    model: snap.model,
    usageGuide: snap.usageGuide,
    chatOption: snap.chatOption,
    variables: snap.variables,
    bindings: snap.bindings,
    knowledge: { ...defaultKnowledgeSettings(), ...snap.knowledge },
    ...(snap.orchestration ? { orchestration: snap.orchestration } : {}),
    designId: snap.designId ?? null,
    ...(snap.insightCategory ? { insightCategory: snap.insightCategory } : {}),
  };
}
