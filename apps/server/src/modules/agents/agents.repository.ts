import { and, count, desc, eq, ilike, inArray, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import type { ListingCard } from "../../db/schema/agents.ts";
import {
  agentApplies,
  agentCopies,
  agentLabels,
  agentMarketCounts,
  agentSessionCounts,
  agents,
  agentVersions,
  tenants,
  users,
} from "../../db/schema/index.ts";
import { containing } from "../../platform/sql.ts";

export type AgentRow = typeof agents.$inferSelect;

/**
 * A marketplace card's row: the approved listing, two config fields (never the whole config) and
 * what the card shows besides, named as the card reads them. Read as plain rows (the query casts
 * what the driver would give as text): mapping 99 rows field by field through the query builder
 * was about a third of the route's time.
 */
export interface MarketRow {
  id: string;
  ownerId: string;
  listing: ListingCard;
  agentType: string | null;
  agentStatus: string;
  launchVersion: number | null;
  launchVersionDisabled: boolean;
  copyByMe: boolean;
  useCount: number;
  lastModifiedMs: number;
  launchTags: string[] | null;
  labelId: string | null;
  insightCategory: string | null;
}
/** A row listed before listing cards existed falls back to its own card, as `listingOf` does. */
export const marketColumns = sql.raw(`id, owner_id as "ownerId",
  coalesce(listing, jsonb_build_object('agentName', agent_name, 'agentDescription', agent_description,
    'agentIcon', agent_icon, 'agentIconBackground', agent_icon_background, 'priceCents', price_cents,
    'copyable', false, 'skillNum', 0)) as listing,
  agent_type as "agentType", agent_status as "agentStatus", launch_version as "launchVersion",
  launch_version_disabled as "launchVersionDisabled", copy_by_me as "copyByMe", use_count::float8 as "useCount",
  (extract(epoch from last_modified_at) * 1000)::float8 as "lastModifiedMs",
  config->'launchTags' as "launchTags", config->>'labelId' as "labelId", config->>'insightCategory' as "insightCategory"`);
export type VersionRow = typeof agentVersions.$inferSelect;
export type ApplyRow = typeof agentApplies.$inferSelect;

const live = isNull(agents.deletedAt);

const listed = and(isNotNull(agents.launchVersion), eq(agents.launchVersionDisabled, false));

/** What a marketplace search or category filter asks for. */
export interface MarketFilter {
  name?: string;
  tag?: string;
  labelId?: string;
}
export interface MarketTotal {
  total: number;
  exact: boolean;
}
/** A filtered list counts its matches up to here (a page more shows them "10000+"). */
export const MARKET_COUNT_LIMIT = 10_000;

/**
 * How a filtered page is read. "index": every match through the filter's indexes (migrations 0013,
 * 0030), then sorted: rows read = matches. "order": the `agents_market` walk, checking each row: rows
 * read about (offset + size) × listed / matches, if matches are spread over the order. Each row costs
 * about the same either way (measured at 100k), so the fewer rows win, and neither reads more than
 * about √((offset + size) × listed). An inexact count says only that very many match: walk.
 */
export type MarketPath = "index" | "order";
export function marketPath(matches: MarketTotal, listedInScope: number, end: number): MarketPath {
  return matches.exact && matches.total * matches.total <= end * listedInScope ? "index" : "order";
}

/**
 * A filter's conditions, in the form `via` reads them. "index": forms the indexes serve. "order":
 * forms no index serves, so the planner keeps to the walk (its estimates for the indexed forms are
 * defaults, 1 in 200, with which it would read every match of a term in every name).
 */
function marketConds(filter: MarketFilter, via: MarketPath): SQL[] {
  const conds: SQL[] = [];
  // Hirers search the listed name (the approved card), not a later rename.
  const name = sql`lower(${agents.listing}->>'agentName')`;
  if (filter.name) {
    const holds = sql`strpos(${name}, lower(${filter.name})) > 0`;
    if (via === "order") conds.push(holds);
    else {
      // What a listed name must hold to contain the term, as `agent_name_grams` (migration 0013)
      // indexes it: the term itself when it is one character, else its character pairs. Cut from the
      // database's lower() of the term, as the names' are: JavaScript lowers some letters otherwise
      // (a final Σ to ς, İ to i and a combining dot). Immutable functions of a constant: the planner
      // folds them into the array.
      const lowered = sql`lower(${filter.name})`;
      const length = Array.from(filter.name).length;
      const grams =
        length <= 1 ? [lowered] : Array.from({ length: length - 1 }, (_, i) => sql`substr(${lowered}, ${sql.raw(String(i + 1))}, 2)`);
      conds.push(sql`agent_name_grams(${agents.listing}->>'agentName') @> array[${sql.join(grams, sql`, `)}]::text[]`);
      // A one-character term is its gram and a two-character one its pair; longer ones are checked.
      if (length > 2) conds.push(holds);
    }
  }
  const tags = sql`${agents.config}->'launchTags'`;
  if (filter.tag) conds.push(via === "order" ? sql`${tags} ? ${filter.tag}` : sql`${tags} @> ${JSON.stringify([filter.tag])}::jsonb`);
  // `agents_market_labels` serves both the label and the order: either way reads it.
  if (filter.labelId) conds.push(sql`${agents.config}->>'labelId' = ${filter.labelId}`);
  return conds;
}

/** The only place that touches the agents tables. Scoping is given by the service. */
export class AgentsRepository {
  constructor(
    private readonly db: Tx,
    /** Told of every change to an agent row (within the change's transaction), for the runtime's cache. */
    private readonly changed: (id: string, tx: Tx) => Promise<void>,
  ) {}

  async byId(id: string, tx: Tx = this.db): Promise<AgentRow | undefined> {
    const [row] = await tx
      .select()
      .from(agents)
      .where(and(eq(agents.id, id), live));
    return row;
  }

  async lockById(tx: Tx, id: string): Promise<AgentRow | undefined> {
    const [row] = await tx
      .select()
      .from(agents)
      .where(and(eq(agents.id, id), live))
      .for("update");
    return row;
  }

  async insert(tx: Tx, values: typeof agents.$inferInsert) {
    const [row] = await tx.insert(agents).values(values).returning();
    return row;
  }

  /** The owner's agents (not deleted) that carry a price, other than `exceptId`. */
  async countPriced(tx: Tx, ownerId: string, exceptId: string) {
    const [{ n }] = await tx
      .select({ n: count() })
      .from(agents)
      .where(and(eq(agents.ownerId, ownerId), isNull(agents.deletedAt), sql`${agents.priceCents} > 0`, sql`${agents.id} <> ${exceptId}`));
    return Number(n);
  }

  async update(tx: Tx, id: string, values: Partial<typeof agents.$inferInsert>) {
    const [row] = await tx.update(agents).set(values).where(eq(agents.id, id)).returning();
    await this.changed(id, tx);
    return row;
  }

  async insertVersion(tx: Tx, values: typeof agentVersions.$inferInsert) {
    const [row] = await tx.insert(agentVersions).values(values).returning();
    return row;
  }

  async version(agentId: string, versionNo: number, tx: Tx = this.db): Promise<VersionRow | undefined> {
    const [row] = await tx
      .select()
      .from(agentVersions)
      .where(and(eq(agentVersions.agentId, agentId), eq(agentVersions.versionNo, versionNo)));
    return row;
  }

  versions(agentId: string) {
    return this.db
      .select({ versionNo: agentVersions.versionNo, notes: agentVersions.notes, createdAt: agentVersions.createdAt })
      .from(agentVersions)
      .where(eq(agentVersions.agentId, agentId))
      .orderBy(desc(agentVersions.versionNo));
  }

  /**
   * How many listed agents of the given tenants match: every listed one from the per-tenant counter,
   * else counted through the filter's indexes up to MARKET_COUNT_LIMIT (`exact` false past it), so a
   * term in every name costs a bounded count too.
   */
  async marketTotal(tenantIds: string[], filter: MarketFilter): Promise<MarketTotal> {
    const conds = marketConds(filter, "index");
    if (!conds.length) {
      const [{ total }] = await this.db
        .select({ total: sql<number>`coalesce(sum(${agentMarketCounts.listed}), 0)::int` })
        .from(agentMarketCounts)
        .where(inArray(agentMarketCounts.tenantId, tenantIds));
      return { total, exact: true };
    }
    const result = await this.db.execute(
      sql`select count(*)::int as n from (select 1 from ${agents} where ${and(live, listed, inArray(agents.tenantId, tenantIds), ...conds)} limit ${MARKET_COUNT_LIMIT + 1}) m`,
    );
    const [{ n }] = (result as unknown as { rows: { n: number }[] }).rows;
    return { total: Math.min(n, MARKET_COUNT_LIMIT), exact: n <= MARKET_COUNT_LIMIT };
  }

  /**
   * A page of listed agents of the given tenants, most used first, reading only what a card shows
   * (not the config). Unfiltered, or `via` "order": in the order of the `agents_market` index, checking
   * each row against the filter. `via` "index": every match through the filter's indexes, then sorted.
   */
  async marketPage(tenantIds: string[], filter: MarketFilter, page: number, size: number, via: MarketPath) {
    const where = and(live, listed, inArray(agents.tenantId, tenantIds), ...marketConds(filter, via));
    const result = await this.db.execute(
      sql`select ${marketColumns} from ${agents} where ${where} order by ${agents.useCount} desc, ${agents.lastModifiedAt} desc, ${agents.id} limit ${size} offset ${(page - 1) * size}`,
    );
    return (result as unknown as { rows: MarketRow[] }).rows;
  }

  async mine(
    ownerId: string,
    tenantId: string,
    filter: { name?: string; status?: string; copyByMe?: boolean },
    page: number,
    size: number,
  ) {
    const conds: (SQL | undefined)[] = [live, eq(agents.ownerId, ownerId), eq(agents.tenantId, tenantId)];
    if (filter.name) conds.push(ilike(agents.agentName, containing(filter.name)));
    if (filter.status === "C90_Launched") conds.push(listed);
    if (filter.status === "C90_bay") conds.push(or(isNull(agents.launchVersion), eq(agents.launchVersionDisabled, true)));
    if (filter.copyByMe !== undefined) conds.push(eq(agents.copyByMe, filter.copyByMe));
    const where = and(...conds);
    const [{ total }] = await this.db.select({ total: count() }).from(agents).where(where);
    const list = await this.db
      .select()
      .from(agents)
      .where(where)
      .orderBy(desc(agents.lastModifiedAt), agents.id)
      .limit(size)
      .offset((page - 1) * size);
    return { list, total };
  }

  /** The latest listing request of each agent. */
  async latestApplies(agentIds: string[]): Promise<Map<string, ApplyRow>> {
    if (agentIds.length === 0) return new Map();
    const rows = await this.db
      .select()
      .from(agentApplies)
      .where(inArray(agentApplies.agentId, agentIds))
      .orderBy(desc(agentApplies.createdAt));
    const out = new Map<string, ApplyRow>();
    for (const r of rows) if (!out.has(r.agentId)) out.set(r.agentId, r);
    return out;
  }

  async pendingApply(tx: Tx, agentId: string) {
    const [row] = await tx
      .select()
      .from(agentApplies)
      .where(and(eq(agentApplies.agentId, agentId), eq(agentApplies.status, "PENDING")));
    return row;
  }

  async insertApply(tx: Tx, values: typeof agentApplies.$inferInsert) {
    const [row] = await tx.insert(agentApplies).values(values).returning();
    return row;
  }

  async lockApply(tx: Tx, id: string) {
    const [row] = await tx.select().from(agentApplies).where(eq(agentApplies.id, id)).for("update");
    return row;
  }

  async updateApply(tx: Tx, id: string, values: Partial<typeof agentApplies.$inferInsert>) {
    await tx.update(agentApplies).set(values).where(eq(agentApplies.id, id));
  }

  async applyPage(status: string | undefined, page: number, size: number) {
    const where = and(status ? eq(agentApplies.status, status) : undefined, live);
    const base = () =>
      this.db
        .select({
          apply: agentApplies,
          agent: agents,
          applicant: users.username,
          tenantName: tenants.name,
          snapshot: agentVersions.snapshot,
          notes: agentVersions.notes,
        })
        .from(agentApplies)
        .innerJoin(agents, eq(agents.id, agentApplies.agentId))
        .innerJoin(users, eq(users.id, agentApplies.applicantId))
        .innerJoin(tenants, eq(tenants.id, agentApplies.tenantId))
        .innerJoin(
          agentVersions,
          and(eq(agentVersions.agentId, agentApplies.agentId), eq(agentVersions.versionNo, agentApplies.versionNo)),
        );
    const [{ total }] = await this.db
      .select({ total: count() })
      .from(agentApplies)
      .innerJoin(agents, eq(agents.id, agentApplies.agentId))
      .where(where);
    const list = await base()
      .where(where)
      .orderBy(desc(agentApplies.createdAt), agentApplies.id)
      .limit(size)
      .offset((page - 1) * size);
    return { list, total };
  }

  labels() {
    return this.db
      .select({ id: agentLabels.id, labelName: agentLabels.labelName })
      .from(agentLabels)
      .orderBy(agentLabels.sort, agentLabels.labelName);
  }

  async labelExists(id: string) {
    const [row] = await this.db.select({ id: agentLabels.id }).from(agentLabels).where(eq(agentLabels.id, id));
    return !!row;
  }

  async wasCopied(userId: string, sourceAgentId: string) {
    const [row] = await this.db
      .select()
      .from(agentCopies)
      .where(and(eq(agentCopies.userId, userId), eq(agentCopies.sourceAgentId, sourceAgentId)));
    return !!row;
  }

  async recordCopy(tx: Tx, userId: string, sourceAgentId: string) {
    await tx
      .insert(agentCopies)
      .values({ userId, sourceAgentId })
      .onConflictDoUpdate({
        target: [agentCopies.userId, agentCopies.sourceAgentId],
        set: { count: sql`${agentCopies.count} + 1`, lastCopiedAt: new Date() },
      });
  }

  async incrementUse(id: string) {
    await this.db
      .update(agents)
      .set({ useCount: sql`${agents.useCount} + 1` })
      .where(eq(agents.id, id));
  }

  async addSessionCount(agentId: string, userId: string, day: string) {
    await this.db.insert(agentSessionCounts).values({ agentId, userId, day }).onConflictDoNothing();
  }

  async sessionCount(agentId: string) {
    const [{ total }] = await this.db.select({ total: count() }).from(agentSessionCounts).where(eq(agentSessionCounts.agentId, agentId));
    return total;
  }

  async username(userId: string) {
    const [row] = await this.db.select({ nickname: users.nickname, username: users.username }).from(users).where(eq(users.id, userId));
    return row ? row.nickname || row.username : "";
  }

  async tenantIsDefault(tenantId: string) {
    const [row] = await this.db.select({ isDefault: tenants.isDefault }).from(tenants).where(eq(tenants.id, tenantId));
    return row?.isDefault ?? false;
  }

  /** Claims the current editing round; true only for the one caller that flipped it. */
  async claimEditRound(id: string) {
    const rows = await this.db
      .update(agents)
      .set({ editCounted: true })
      .where(and(eq(agents.id, id), eq(agents.editCounted, false)))
      .returning({ id: agents.id });
    return rows.length > 0;
  }

  async cancelPendingApplies(tx: Tx, agentId: string) {
    await tx
      .update(agentApplies)
      .set({ status: "REJECTED", reason: "deleted", reviewedAt: new Date() })
      .where(and(eq(agentApplies.agentId, agentId), eq(agentApplies.status, "PENDING")));
  }

  /** Only a debug of the current revision counts; a stale one is ignored. */
  async markDebugSucceeded(id: string, revision: number) {
    await this.db
      .update(agents)
      .set({ debugSucceededRevision: revision })
      .where(and(eq(agents.id, id), eq(agents.draftRevision, revision)));
  }

  /** Use counts of own agents and of agents listed in the scope (all of them when ids is null). */
  useCountRows(ids: string[] | null, userId: string | null, tenantIds: string[]) {
    const visible = or(userId ? eq(agents.ownerId, userId) : undefined, and(listed, inArray(agents.tenantId, tenantIds)));
    const conds: (SQL | undefined)[] = [live, visible];
    if (ids) conds.push(ids.length ? inArray(agents.id, ids) : sql`false`);
    return this.db
      .select({ id: agents.id, useCount: agents.useCount })
      .from(agents)
      .where(and(...conds));
  }
}
