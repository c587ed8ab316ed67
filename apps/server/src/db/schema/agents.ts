import type { AgentDraft, AgentSnapshot } from "@agentfair/contracts";
import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, unique } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns.ts";
import { ownedColumns } from "./owned.ts";

/** Editable config of the studio; identity (name, description, icon, price) lives in columns. */
export type AgentConfig = Omit<AgentDraft, "agentName" | "agentDescription" | "agentIcon" | "agentIconBackground">;

/**
 * What hirers see of a listed agent and are charged: the card and price as submitted for listing,
 * whether copies are allowed, and the listed version's skill count. A listing request carries one;
 * approval makes it the agent's listing, which stays until another request is approved.
 */
export interface ListingCard {
  agentName: string;
  agentDescription: string;
  agentIcon: string;
  agentIconBackground: string;
  priceCents: number;
  /** The owner lets hirers copy the agent (a copy includes the persona). */
  copyable: boolean;
  skillNum: number;
}

export const agents = pgTable(
  "agents",
  {
    id: id(),
    ...ownedColumns(),
    agentName: text("agent_name").notNull(),
    agentDescription: text("agent_description").notNull().default(""),
    agentIcon: text("agent_icon").notNull().default("1"),
    agentIconBackground: text("agent_icon_background").notNull().default("#e8f3ff"),
    /** Integer cents; the wire carries yuan. */
    priceCents: bigint("price_cents", { mode: "number" }).notNull().default(0),
    agentType: text("agent_type"),
    /** C00_Unreleased until the first release, then C90_Released. */
    agentStatus: text("agent_status").notNull().default("C00_Unreleased"),
    config: jsonb("config").$type<AgentConfig>().notNull(),
    /** Bumped on every draft save; a debug run of this revision unlocks release. */
    draftRevision: integer("draft_revision").notNull().default(1),
    debugSucceededRevision: integer("debug_succeeded_revision"),
    /** Whether the current editing round (since the last release) has been counted as an edit. */
    editCounted: boolean("edit_counted").notNull().default(false),
    latestVersionNo: integer("latest_version_no"),
    /** The approved version shown in the marketplace; null when never listed. */
    launchVersion: integer("launch_version"),
    launchVersionDisabled: boolean("launch_version_disabled").notNull().default(false),
    /** The approved listing's card and price (set with launchVersion); null when never listed. */
    listing: jsonb("listing").$type<ListingCard>(),
    copyByMe: boolean("copy_by_me").notNull().default(false),
    copiedFromId: text("copied_from_id"),
    useCount: bigint("use_count", { mode: "number" }).notNull().default(0),
    createdAt: createdAt(),
    lastModifiedAt: timestamp("last_modified_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    // My agents: the owner's live agents, newest edit first.
    index("agents_mine").on(t.ownerId, t.lastModifiedAt.desc().nullsFirst(), t.id).where(sql`${t.deletedAt} is null`),
    index("agents_listed").on(t.tenantId).where(sql`${t.launchVersion} is not null and ${t.deletedAt} is null`),
    // The marketplace's filter and order: a page reads its rows from here at any catalogue size.
    index("agents_market")
      .on(t.useCount.desc().nullsFirst(), t.lastModifiedAt.desc().nullsFirst(), t.id)
      .where(sql`${t.launchVersion} is not null and ${t.launchVersionDisabled} = false and ${t.deletedAt} is null`),
  ],
);

/**
 * Listed agents per tenant, kept by a trigger on `agents` (migration 0013): the marketplace's
 * unfiltered total without counting every listed agent on every page.
 */
export const agentMarketCounts = pgTable("agent_market_counts", {
  tenantId: text("tenant_id").primaryKey(),
  listed: bigint("listed", { mode: "number" }).notNull().default(0),
});

/** Released versions: immutable snapshots. */
export const agentVersions = pgTable(
  "agent_versions",
  {
    id: id(),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    versionNo: integer("version_no").notNull(),
    notes: text("notes").notNull().default(""),
    snapshot: jsonb("snapshot").$type<AgentSnapshot>().notNull(),
    draftRevision: integer("draft_revision").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
  },
  (t) => [unique("agent_versions_no").on(t.agentId, t.versionNo)],
);

export const agentLabels = pgTable("agent_labels", {
  id: id(),
  labelName: text("label_name").notNull().unique(),
  sort: integer("sort").notNull().default(0),
  createdAt: createdAt(),
});

/** Listing requests and their review by an administrator. */
export const agentApplies = pgTable(
  "agent_applies",
  {
    id: id(),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    tenantId: text("tenant_id").notNull(),
    applicantId: text("applicant_id").notNull(),
    versionNo: integer("version_no").notNull(),
    /** The card, price and copy choice submitted (null only on requests older than this column). */
    card: jsonb("card").$type<ListingCard>(),
    status: text("status").notNull().default("PENDING"),
    reason: text("reason"),
    reviewerId: text("reviewer_id"),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  // By agent: the my-agents list reads each card's latest request, and deleting an agent cascades here.
  (t) => [index("agent_applies_status").on(t.status, t.createdAt), index("agent_applies_agent").on(t.agentId, t.createdAt)],
);

/** Who copied which agent: 'copied before, copy again?' survives deleting the copy. */
export const agentCopies = pgTable(
  "agent_copies",
  {
    userId: text("user_id").notNull(),
    sourceAgentId: text("source_agent_id").notNull(),
    count: integer("count").notNull().default(1),
    lastCopiedAt: timestamp("last_copied_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.sourceAgentId] })],
);

/** Chat count: one per user, agent and day (POST /api/agentSession/addCounts). */
export const agentSessionCounts = pgTable(
  "agent_session_counts",
  {
    agentId: text("agent_id").notNull(),
    userId: text("user_id").notNull(),
    day: text("day").notNull(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.userId, t.day] })],
);
