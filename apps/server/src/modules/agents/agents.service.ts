import {
  AGENT_STATUS,
  type AgentCard,
  type AgentDetail,
  type AgentDraft,
  type AgentPublic,
  type AgentSnapshot,
  type DraftResponse,
  duplicateVariableName,
  isListed,
  type LaunchPageRequest,
  type MinePageRequest,
  marketPage,
  PERSONA_MAX_BYTES,
  renameError,
  utf8Bytes,
  type VersionDetail,
} from "@agentfair/contracts";
import { randomUUID } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Db, Tx } from "../../db/client.ts";
import type { ListingCard } from "../../db/schema/agents.ts";
import { type Caller, requireAccess, requireMembership } from "../../platform/auth.ts";
import { insertWithinLimit } from "../../platform/count-limit.ts";
import { badRequest, forbidden, notFound } from "../../platform/errors.ts";
import { EVERYTHING } from "../../platform/invalidation.ts";
import type { Platform } from "../../platform/platform.ts";
import type { RateLimiter } from "../../platform/rate-limit.ts";
import type { Billing } from "../billing/billing.seam.ts";
import type { TenantsService } from "../tenants/tenants.service.ts";
import {
  AgentsRepository,
  type AgentRow,
  type ApplyRow,
  type MarketFilter,
  type MarketTotal,
  marketPath,
  type VersionRow,
} from "./agents.repository.ts";
import {
  cents,
  defaultConfig,
  draftOf,
  listingCardOf,
  listingOf,
  sameListingCard,
  snapshotOf,
  splitDraft,
  toCard,
  toMarketCard,
  toPublic,
  toRuntime,
  yuan,
} from "./agents.mappers.ts";
import type { AgentsForRuntime, RuntimeAgent } from "./runtime-agent.ts";

/**
 * The rule library as the agent's public view needs it (doc 2 §3 Agent `ruleTree`, `rules`): the
 * rules module answers, set once the app has built it.
 */
export interface AgentRuleTrees {
  agentRules(
    agent: { ownerId: string; tenantId: string },
    ids: string[],
    viewer: Caller | null,
  ): Promise<Pick<AgentPublic, "ruleTree" | "rules">>;
}

/** A cached marketplace page: its cards as anyone but their owners sees them, and that answer as JSON. */
interface MarketPage {
  cards: AgentCard[];
  owners: string[];
  total: MarketTotal;
  json: string;
}

/** How long uses counted wait before the marketplace pages are read again (see the "agentUse" handler). */
const USE_REFRESH_MS = 1000;
const isoDay = (d = new Date()) => d.toISOString().slice(0, 10);

/** The designer's side of an agent's design: the caller's own design, else the designer's not-found. */
export interface DesignsForAgents {
  requireOwn(caller: Caller, designId: string): Promise<void>;
}
/** New agents (created or copied) per user and hour: a flood of rows is refused. */
export const AGENT_CREATES_PER_HOUR = 100;

/**
 * Agents: drafts, releases, lists, copies, listing review. Every access decision goes through
 * `requireAccess` with the object shape built by `accessOf` (owner, tenant, listed scope).
 */
export class AgentsService implements AgentsForRuntime {
  private readonly repo: AgentsRepository;
  private readonly db: Db;
  private readonly limiter: RateLimiter;
  private defaultTenantId: string | undefined;
  private designs: DesignsForAgents | undefined;
  /**
   * What released runs read on every reply: agent rows briefly (every change to a row drops it in
   * every process; use counters may lag), versions for good (they never change).
   */
  private readonly runtimeRows = new LRUCache<string, AgentRow>({ max: 10_000, ttl: 30_000 });
  private readonly versionRows = new LRUCache<string, VersionRow>({ max: 10_000 });
  /** Marketplace pages by scope, page and filter (about 50 KB of JSON each, the cards about as much again). */
  private readonly marketPages = new LRUCache<string, MarketPage>({
    maxSize: 16_000_000,
    sizeCalculation: (page) => 2 * page.json.length + 1,
    ttl: 30_000,
  });
  /**
   * Marketplace totals by scope and filter. A counted use changes a page's order but not how many
   * agents match, so these outlive the pages: a page read again after a use runs only its page query.
   */
  private readonly marketTotals = new LRUCache<string, MarketTotal>({ max: 10_000, ttl: 30_000 });
  private ruleTrees: AgentRuleTrees | undefined;

  constructor(
    private readonly platform: Pick<Platform, "db" | "rateLimiter" | "invalidation" | "invalidate">,
    private readonly billing: Billing,
    private readonly tenants: TenantsService,
  ) {
    this.db = platform.db;
    this.limiter = platform.rateLimiter;
    this.repo = new AgentsRepository(this.db, (id, tx) => platform.invalidate("agent", id, tx));
    platform.invalidation.on("agent", (id) => {
      if (id === EVERYTHING) this.runtimeRows.clear();
      else this.runtimeRows.delete(id);
      // Any change may move an agent onto, off or within any page, or in or out of a search.
      this.marketPages.clear();
      this.marketTotals.clear();
    });
    // A use moves its agent within the order by use: the pages go at once, then once more a second
    // later (for reads under way), and the uses in between wait for that. Dropping them on every use
    // left no page cached at many uses a second, in any process.
    platform.invalidation.on("agentUse", () => {
      if (this.useRefresh) return;
      this.marketPages.clear();
      this.useRefresh = setTimeout(() => {
        this.useRefresh = undefined;
        this.marketPages.clear();
      }, USE_REFRESH_MS);
      this.useRefresh.unref();
    });
  }

  private useRefresh: NodeJS.Timeout | undefined;

  useRules(rules: AgentRuleTrees) {
    this.ruleTrees = rules;
  }

  /** The snapshot's bound rules as the chat page shows them (none while no rule library is set). */
  private async rulesOf(caller: Caller | null, row: AgentRow, snap: AgentSnapshot) {
    if (!this.ruleTrees || !snap.bindings.rules.length) return { ruleTree: [], rules: [] };
    return this.ruleTrees.agentRules({ ownerId: row.ownerId, tenantId: row.tenantId }, snap.bindings.rules, caller);
  }

  /** The designer module, given once the app has built it (it is built after agents). */
  useDesigns(designs: DesignsForAgents) {
    this.designs = designs;
  }

  /** A draft may show only one of its owner's own designs (another user's or tenant's is refused). */
  private async checkDesign(caller: Caller, designId: string | null | undefined) {
    if (!designId) return;
    if (!this.designs) throw notFound();
    await this.designs.requireOwn(caller, designId);
  }

  // ---- access --------------------------------------------------------------------------------

  private async defaultTenant() {
    this.defaultTenantId ??= (await this.tenants.defaultTenant()).id;
    return this.defaultTenantId;
  }

  /** Tenants whose listed agents the caller sees: the public platform's, plus the caller's own. */
  private async scope(caller: Caller | null) {
    const dflt = await this.defaultTenant();
    return caller && caller.tenantId !== dflt ? [dflt, caller.tenantId] : [dflt];
  }

  /** A listed agent is public on the default tenant and shared within its own tenant otherwise. */
  private async accessOf(row: AgentRow | undefined, opts: { hirer: boolean }) {
    if (!row) return null;
    const listed = opts.hirer && isListed(row);
    return {
      ownerId: row.ownerId,
      tenantId: row.tenantId,
      sharedWithTenant: listed,
      public: listed && row.tenantId === (await this.defaultTenant()),
    };
  }

  /** Owner (or administrator) only: drafts, versions, edits. Others get not-found. */
  private async ownAgent(caller: Caller, id: string): Promise<AgentRow> {
    const row = await this.repo.byId(id);
    requireAccess(caller, await this.accessOf(row, { hirer: false }), "write");
    return row!;
  }

  /** For other modules (conversation details): the caller owns the agent (else not found); its owner and tenant. */
  async requireOwner(caller: Caller, id: string) {
    const row = await this.ownAgent(caller, id);
    return { ownerId: row.ownerId, tenantId: row.tenantId, publicPlatform: row.tenantId === (await this.defaultTenant()) };
  }

  /** Readable as a hirer (listed in scope) or as the owner. `cached`: read through the runtime's cache. */
  private async readableAgent(caller: Caller | null, id: string, cached = false): Promise<AgentRow> {
    const row = cached
      ? await this.platform.invalidation.cached("agent", this.runtimeRows, id, () => this.repo.byId(id))
      : await this.repo.byId(id);
    requireAccess(caller, await this.accessOf(row, { hirer: true }), "read");
    return row!;
  }

  private isOwner(caller: Caller | null, row: AgentRow) {
    return !!caller && (caller.isAdmin || (row.ownerId === caller.userId && row.tenantId === caller.tenantId));
  }

  /** Hirers see and are charged the approved listing's card and price; owners (null) their own. */
  private hirerListing(caller: Caller | null, row: AgentRow) {
    return this.isOwner(caller, row) ? null : listingOf(row);
  }

  // ---- studio: drafts and releases -------------------------------------------------------------

  async quickAdd(
    caller: Caller,
    body: { agentName?: string; agentDescription?: string; agentIcon?: string; agentIconBackground?: string },
  ) {
    requireMembership(caller);
    const name = body.agentName?.trim() || "未命名智能体";
    const err = renameError(name);
    if (err) throw badRequest(err === "blank" ? "agentNameBlank" : "agentNameTooLong");
    await this.limiter.take(`agent-create:${caller.userId}`, AGENT_CREATES_PER_HOUR, 3600);
    const row = await this.repo.insert(this.db, {
      tenantId: caller.tenantId,
      ownerId: caller.userId,
      agentName: name,
      agentDescription: body.agentDescription ?? "",
      agentIcon: body.agentIcon || "1",
      agentIconBackground: body.agentIconBackground || "#e8f3ff",
      config: defaultConfig(),
    });
    return { agentId: row.id };
  }

  async getDraft(caller: Caller, id: string): Promise<DraftResponse> {
    const row = await this.ownAgent(caller, id);
    return this.draftResponse(row);
  }

  private draftResponse(row: AgentRow): DraftResponse {
    return {
      agentId: row.id,
      draft: draftOf(row),
      price: yuan(row.priceCents),
      agentStatus: row.agentStatus as DraftResponse["agentStatus"],
      revision: row.draftRevision,
      debugSucceeded: row.debugSucceededRevision === row.draftRevision,
      latestVersion: row.latestVersionNo,
      // A save opens an editing round (editCounted) that only a release closes.
      changedSinceRelease: row.latestVersionNo !== null && row.editCounted,
      lastModifiedDate: row.lastModifiedAt.toISOString(),
    };
  }

  private async validateDraft(draft: AgentDraft) {
    const err = renameError(draft.agentName);
    if (err) throw badRequest(err === "blank" ? "agentNameBlank" : "agentNameTooLong");
    if (utf8Bytes(draft.persona) > PERSONA_MAX_BYTES) throw badRequest("personaTooLong", { max: PERSONA_MAX_BYTES });
    const dup = duplicateVariableName(draft.variables);
    if (dup) throw badRequest("variableNameDuplicate", { name: dup });
    if (draft.labelId && !(await this.repo.labelExists(draft.labelId))) throw badRequest("labelNotFound");
  }

  /**
   * Saves the draft. The first save of an editing round (after creation, a copy or a release)
   * counts as one edit: billing decides whether it is inside the free allowance or charged.
   * The round is claimed atomically so parallel saves are counted once; a refused charge saves nothing.
   */
  async saveDraft(caller: Caller, id: string, draft: AgentDraft): Promise<DraftResponse> {
    const row = await this.ownAgent(caller, id);
    requireMembership(caller);
    await this.validateDraft(draft);
    await this.checkDesign(caller, draft.designId);
    const claimed = await this.repo.claimEditRound(id);
    if (claimed) {
      try {
        await this.billing.chargeAgentEdit(caller, { agentId: id, agentName: row.agentName });
      } catch (e) {
        await this.repo.update(this.db, id, { editCounted: false });
        throw e;
      }
    }
    const { identity, config } = splitDraft(draft);
    const updated = await this.db.transaction(async (tx) => {
      const locked = await this.repo.lockById(tx, id);
      if (!locked) throw notFound();
      return this.repo.update(tx, id, { ...identity, config, draftRevision: locked.draftRevision + 1, lastModifiedAt: new Date() });
    });
    return this.draftResponse(updated);
  }

  /** Release: an immutable version of the current draft, only after a successful debug of it. */
  async release(caller: Caller, id: string, notes: string) {
    await this.ownAgent(caller, id);
    requireMembership(caller);
    return this.db.transaction(async (tx) => {
      const row = await this.repo.lockById(tx, id);
      if (!row) throw notFound();
      if (row.debugSucceededRevision !== row.draftRevision) throw badRequest("debugBeforeRelease");
      const versionNo = (row.latestVersionNo ?? 0) + 1;
      await this.repo.insertVersion(tx, {
        agentId: id,
        versionNo,
        notes,
        snapshot: snapshotOf(row),
        draftRevision: row.draftRevision,
        createdBy: caller.userId,
      });
      await this.repo.update(tx, id, {
        agentStatus: AGENT_STATUS.released,
        latestVersionNo: versionNo,
        editCounted: false,
        lastModifiedAt: new Date(),
      });
      return { versionNo };
    });
  }

  async versions(caller: Caller, id: string) {
    await this.ownAgent(caller, id);
    return (await this.repo.versions(id)).map((v) => ({ ...v, createdAt: v.createdAt.toISOString() }));
  }

  async version(caller: Caller, id: string, versionNo: number): Promise<VersionDetail> {
    await this.ownAgent(caller, id);
    const v = await this.repo.version(id, versionNo);
    if (!v) throw notFound();
    return { versionNo: v.versionNo, notes: v.notes, createdAt: v.createdAt.toISOString(), snapshot: v.snapshot };
  }

  /** The snapshot a caller runs: owners their latest release, hirers the listed version. */
  private async releasedSnapshot(
    caller: Caller | null,
    row: AgentRow,
  ): Promise<{ snap: AgentSnapshot; versionNo: number; versionId: string }> {
    const versionNo = this.isOwner(caller, row) ? row.latestVersionNo : isListed(row) ? row.launchVersion : null;
    if (!versionNo) throw badRequest("agentNotReleased");
    const v = await this.platform.invalidation.cached("agent", this.versionRows, `${row.id}:${versionNo}`, () =>
      this.repo.version(row.id, versionNo),
    );
    if (!v) throw badRequest("agentNotReleased");
    return { snap: v.snapshot, versionNo, versionId: v.id };
  }

  async releaseSchema(caller: Caller | null, id: string): Promise<AgentPublic> {
    const row = await this.readableAgent(caller, id);
    const { snap, versionNo } = await this.releasedSnapshot(caller, row);
    return toPublic(row, snap, versionNo, this.hirerListing(caller, row), await this.rulesOf(caller, row, snap));
  }

  async detail(caller: Caller | null, id: string): Promise<AgentDetail> {
    const row = await this.readableAgent(caller, id);
    const mine = this.isOwner(caller, row);
    const listing = this.hirerListing(caller, row);
    let agent: AgentPublic;
    if (row.latestVersionNo) {
      const { snap } = await this.releasedSnapshot(caller, row);
      agent = toPublic(row, snap, mine ? row.latestVersionNo : row.launchVersion, listing, await this.rulesOf(caller, row, snap));
    } else {
      const snap = snapshotOf(row);
      agent = toPublic(row, snap, null, null, await this.rulesOf(caller, row, snap));
    }
    const versions = (await this.repo.versions(id))
      .filter((v) => mine || v.versionNo <= (row.launchVersion ?? 0))
      .map((v) => ({ ...v, createdAt: v.createdAt.toISOString() }));
    return {
      agent,
      mine,
      creator: await this.repo.username(row.ownerId),
      taskNum: row.useCount,
      chatCount: await this.repo.sessionCount(id),
      versions,
      launchVersion: row.launchVersion,
      launchVersionDisabled: row.launchVersionDisabled,
      copyable: mine || !!listing?.copyable,
    };
  }

  // ---- lists -----------------------------------------------------------------------------------

  /**
   * A marketplace page as JSON. Pages are cached (every agent change drops them all, in every
   * process; uses counted drop them at most twice a second): a page is the same for every caller in a scope but for `mine`,
   * set here for the few callers who own one of its cards.
   */
  async marketplace(caller: Caller | null, req: LaunchPageRequest & { page: number; size: number }): Promise<string> {
    const scope = await this.scope(caller);
    const key = JSON.stringify([scope, req.page, req.size, req.name ?? "", req.tag ?? "", req.labelId ?? ""]);
    const page = (await this.platform.invalidation.cached("agent", this.marketPages, key, async () => {
      const filter = { name: req.name, tag: req.tag, labelId: req.labelId };
      const listed = await this.marketTotal(scope, {});
      const total = req.name || req.tag || req.labelId ? await this.marketTotal(scope, filter) : listed;
      const end = req.page * req.size;
      // Past the last match there is nothing to read.
      const list =
        total.exact && end - req.size >= total.total
          ? []
          : await this.repo.marketPage(scope, filter, req.page, req.size, marketPath(total, listed.total, end));
      const cards = list.map(toMarketCard);
      const answer = { list: cards, total: total.total, totalExact: total.exact };
      // Checked against the contract once, when the page is made, instead of on every answer.
      return { cards, owners: list.map((r) => r.ownerId), total, json: JSON.stringify(marketPage.parse(answer)) };
    }))!;
    const userId = caller?.userId;
    if (!userId || !page.owners.includes(userId)) return page.json;
    const list = page.cards.map((card, i) => (page.owners[i] === userId ? { ...card, mine: true } : card));
    return JSON.stringify({ list, total: page.total.total, totalExact: page.total.exact });
  }

  /** How many listed agents in scope match `filter` (all listed ones without one), cached until an agent changes. */
  private marketTotal(scope: string[], filter: MarketFilter) {
    const key = JSON.stringify([scope, filter.name ?? "", filter.tag ?? "", filter.labelId ?? ""]);
    return this.platform.invalidation.cached("agent", this.marketTotals, key, () =>
      this.repo.marketTotal(scope, filter),
    ) as Promise<MarketTotal>;
  }

  async mine(caller: Caller | null, req: MinePageRequest & { page: number; size: number }) {
    // Doc 1 §6: anonymous visitors see empty own lists.
    if (!caller) return { list: [], total: 0 };
    const { list, total } = await this.repo.mine(caller.userId, caller.tenantId, req, req.page, req.size);
    const applies = await this.repo.latestApplies(list.map((r) => r.id));
    return { list: list.map((r) => toCard(r, caller.userId, applies.get(r.id))), total };
  }

  labels() {
    return this.repo.labels();
  }

  // ---- my agents: rename, delete ----------------------------------------------------------------

  /**
   * The card and price. Hirers keep the approved listing's: a change to a listed agent's card or
   * price files a listing request (the answer's applyStatus is then PENDING).
   */
  async intro(
    caller: Caller,
    id: string,
    body: { agentName: string; agentDescription?: string; agentIcon?: string; agentIconBackground?: string; price?: number },
  ) {
    const before = await this.ownAgent(caller, id);
    const err = renameError(body.agentName);
    if (err) throw badRequest(err === "blank" ? "agentNameBlank" : "agentNameTooLong");
    const listedSnap = isListed(before) ? (await this.releasedSnapshot(caller, before)).snap : null;
    // Pricing an unpriced agent takes one of the plan's priced agents (paidAgentCount), counted with the
    // owner's other priced agents under the owner's lock; already priced ones keep their price changes.
    const pricing = body.price !== undefined && cents(body.price) > 0 && before.priceCents <= 0;
    const limit = pricing ? (await this.billing.planLimits(caller)).pricedAgents : null;
    const row = await insertWithinLimit(this.db, `priced-agents:${before.ownerId}`, limit, {
      count: (tx) => this.repo.countPriced(tx, before.ownerId, id),
      refuse: (max) => (max > 0 ? badRequest("pricedAgentLimitReached", { count: max }) : badRequest("pricedAgentsNotIncluded")),
      insert: async (tx) => {
        const row = await this.repo.update(tx, id, {
          agentName: body.agentName.trim(),
          ...(body.agentDescription !== undefined && { agentDescription: body.agentDescription }),
          ...(body.agentIcon !== undefined && { agentIcon: body.agentIcon }),
          ...(body.agentIconBackground !== undefined && { agentIconBackground: body.agentIconBackground }),
          ...(body.price !== undefined && { priceCents: cents(body.price) }),
          lastModifiedAt: new Date(),
        });
        if (listedSnap && row.latestVersionNo) {
          const pending = await this.repo.pendingApply(tx, id);
          const copyable = pending?.card?.copyable ?? listingOf(row).copyable;
          const card = listingCardOf(row, listedSnap, copyable);
          if (!sameListingCard(card, listingOf(row)) || pending) await this.fileListingRequest(tx, caller, row, card, pending);
        }
        return row;
      },
    });
    const apply = (await this.repo.latestApplies([id])).get(id);
    return toCard(row, caller.userId, apply);
  }

  async remove(caller: Caller, id: string) {
    await this.ownAgent(caller, id);
    await this.db.transaction(async (tx) => {
      await this.repo.update(tx, id, { deletedAt: new Date() });
      await this.repo.cancelPendingApplies(tx, id);
    });
  }

  // ---- copy ------------------------------------------------------------------------------------

  async wasCopied(caller: Caller, id: string) {
    await this.readableAgent(caller, id);
    return { copied: await this.repo.wasCopied(caller.userId, id) };
  }

  /**
   * Deep copy of the released version into the caller's own agents, marked copied. A priced
   * agent of someone else is charged through billing first; a refused charge copies nothing.
   * Knowledge-base bindings and the design are private data of the owner and are not carried over.
   */
  async copy(caller: Caller, id: string) {
    const source = await this.readableAgent(caller, id);
    const listing = this.hirerListing(caller, source);
    // A copy includes the persona, model settings and variables: only when the owner allowed it.
    if (listing && !listing.copyable) throw badRequest("agentNotCopyable");
    const { snap } = await this.releasedSnapshot(caller, source);
    await this.limiter.take(`agent-create:${caller.userId}`, AGENT_CREATES_PER_HOUR, 3600);
    if (listing && listing.priceCents > 0) {
      await this.billing.chargeAgentCopy(caller, { agentId: source.id, agentName: listing.agentName, priceCents: listing.priceCents });
    }
    const copy: AgentSnapshot = { ...snap, bindings: { ...snap.bindings, knowledgeBases: [] }, designId: null };
    const { identity, config } = splitDraft(copy);
    return this.db.transaction(async (tx) => {
      const row = await this.repo.insert(tx, {
        tenantId: caller.tenantId,
        ownerId: caller.userId,
        ...identity,
        agentType: source.agentType,
        config,
        agentStatus: AGENT_STATUS.released,
        // The copy starts as its own released v1, identical to its draft, so it runs at once.
        draftRevision: 1,
        debugSucceededRevision: 1,
        latestVersionNo: 1,
        copyByMe: true,
        copiedFromId: source.id,
      });
      await this.repo.insertVersion(tx, {
        agentId: row.id,
        versionNo: 1,
        notes: `复制自「${listing?.agentName ?? source.agentName}」`,
        snapshot: { ...copy, price: 0 },
        draftRevision: 1,
        createdBy: caller.userId,
      });
      await this.repo.recordCopy(tx, caller.userId, source.id);
      return { agentId: row.id };
    });
  }

  // ---- listing and review ------------------------------------------------------------------------

  /**
   * Submits the latest release with the current card and price for listing; `copyable` is the
   * owner's choice whether hirers may copy it. Withdrawing copies applies at once (it only
   * restricts); everything else waits for approval.
   */
  async submitForListing(caller: Caller, agentId: string, copyable: boolean) {
    await this.ownAgent(caller, agentId);
    return this.db.transaction(async (tx) => {
      const row = await this.repo.lockById(tx, agentId);
      if (!row) throw notFound();
      if (!row.latestVersionNo) throw badRequest("agentNotReleased");
      const version = await this.repo.version(row.id, row.latestVersionNo, tx);
      if (!version) throw badRequest("agentNotReleased");
      const card = listingCardOf(row, version.snapshot, copyable);
      const pending = await this.repo.pendingApply(tx, agentId);
      if (isListed(row) && row.launchVersion === row.latestVersionNo && sameListingCard(card, listingOf(row)) && !pending)
        throw badRequest("alreadyListed");
      if (row.listing?.copyable && !copyable) await this.repo.update(tx, agentId, { listing: { ...row.listing, copyable: false } });
      await this.fileListingRequest(tx, caller, row, card, pending);
      return { status: "PENDING" as const };
    });
  }

  /** One pending request per agent: a new submission moves it to the newest version and card. */
  private async fileListingRequest(tx: Tx, caller: Caller, row: AgentRow, card: ListingCard, pending: ApplyRow | undefined) {
    const versionNo = row.latestVersionNo!;
    if (pending) await this.repo.updateApply(tx, pending.id, { versionNo, card });
    else await this.repo.insertApply(tx, { agentId: row.id, tenantId: row.tenantId, applicantId: caller.userId, versionNo, card });
  }

  async applyPage(caller: Caller, req: { status?: string; page: number; size: number }) {
    if (!caller.isAdmin) throw forbidden();
    const { list, total } = await this.repo.applyPage(req.status, req.page, req.size);
    return {
      total,
      list: list.map(({ apply, agent, applicant, tenantName, snapshot, notes }) => {
        const card = apply.card ?? listingOf(agent);
        return {
          id: apply.id,
          agentId: agent.id,
          agentName: card.agentName,
          agentDescription: card.agentDescription,
          agentIcon: card.agentIcon,
          agentIconBackground: card.agentIconBackground,
          price: yuan(card.priceCents),
          copyable: card.copyable,
          versionNo: apply.versionNo,
          notes,
          persona: snapshot.persona,
          prologue: snapshot.chatOption.prologue,
          presetQuestions: snapshot.chatOption.presetQuestions,
          launchTags: snapshot.launchTags,
          applicant,
          tenantName,
          status: apply.status as "PENDING",
          reason: apply.reason,
          createdAt: apply.createdAt.toISOString(),
          reviewedAt: apply.reviewedAt?.toISOString() ?? null,
        };
      }),
    };
  }

  async review(caller: Caller, applyId: string, decision: { approve: true } | { approve: false; reason: string }) {
    if (!caller.isAdmin) throw forbidden();
    await this.db.transaction(async (tx) => {
      const apply = await this.repo.lockApply(tx, applyId);
      if (!apply) throw notFound();
      if (apply.status !== "PENDING") throw badRequest("applyNotPending");
      const agent = await this.repo.lockById(tx, apply.agentId);
      if (!agent) throw notFound();
      const reviewed = { reviewerId: caller.userId, reviewedAt: new Date() };
      if (decision.approve) {
        await this.repo.updateApply(tx, applyId, { status: "APPROVED", ...reviewed });
        // The approved card and price are what hirers see and pay until another request is approved.
        const listing = apply.card ?? listingOf(agent);
        await this.repo.update(tx, agent.id, { launchVersion: apply.versionNo, launchVersionDisabled: false, listing });
      } else {
        await this.repo.updateApply(tx, applyId, { status: "REJECTED", reason: decision.reason, ...reviewed });
      }
    });
  }

  /** Off the shelf (launchVersionDisabled): administrators both ways; owners may only take it down. */
  async setShelf(caller: Caller, agentId: string, disabled: boolean) {
    const row = await this.ownAgent(caller, agentId);
    if (row.launchVersion === null) throw badRequest("agentNotListed");
    if (!disabled && !caller.isAdmin) throw forbidden();
    const updated = await this.repo.update(this.db, agentId, { launchVersionDisabled: disabled });
    return toCard(updated, caller.userId);
  }

  // ---- counts and widget -------------------------------------------------------------------------

  /** Use counts of the given agents the caller may see; unknown or hidden ids are left out. */
  async useCounts(caller: Caller | null, ids: string[]) {
    const rows = await this.repo.useCountRows([...new Set(ids)], caller?.userId ?? null, await this.scope(caller));
    return rows.map((r) => ({ schema_id: r.id, count: r.useCount }));
  }

  async allUseCounts(caller: Caller | null) {
    const rows = await this.repo.useCountRows(null, caller?.userId ?? null, await this.scope(caller));
    return rows.map((r) => ({ schema_id: r.id, count: r.useCount }));
  }

  async widget(caller: Caller | null, id: string) {
    const row = await this.readableAgent(caller, id);
    const { snap } = await this.releasedSnapshot(caller, row);
    const card = this.hirerListing(caller, row) ?? snap;
    return {
      agentId: row.id,
      agentName: card.agentName,
      agentIcon: card.agentIcon,
      agentIconBackground: card.agentIconBackground,
      agentDescription: card.agentDescription,
      prologue: snap.chatOption.prologue,
      presetQuestions: snap.chatOption.presetQuestions,
    };
  }

  /** Chat count: at most one per user, agent and day, so the client cannot inflate it. */
  async addCounts(caller: Caller, agentId: string) {
    await this.readableAgent(caller, agentId);
    await this.repo.addSessionCount(agentId, caller.userId, isoDay());
    return { chatCount: await this.repo.sessionCount(agentId) };
  }

  /** Billing's fee calls by agentId (AgentFeeLookup): what the caller may see of the agent's price. */
  async agentForFee(caller: Caller, agentId: string) {
    const row = await this.readableAgent(caller, agentId);
    const card = this.hirerListing(caller, row) ?? row;
    return { agentId: row.id, agentName: card.agentName, priceCents: card.priceCents };
  }

  // ---- backup and restore (agents.backup.ts) --------------------------------------------------

  /** The owner's latest released version, for export: 'An agent must be released before export'. */
  async releasedForExport(caller: Caller, id: string): Promise<{ snapshot: AgentSnapshot; versionNo: number }> {
    const row = await this.ownAgent(caller, id);
    if (!row.latestVersionNo) throw badRequest("agentExportNotReleased");
    const { snap, versionNo } = await this.releasedSnapshot(caller, row);
    return { snapshot: snap, versionNo };
  }

  /**
   * A restored backup: a new unreleased agent of the importer, its draft checked like a saved one.
   * The import brings a whole draft (an edited backup can change anything), so it is one studio
   * edit like a save: billing charges it (or counts it in the free allowance) under the new agent's
   * id _before_ anything is written, so a refused charge imports nothing, and the agent starts in
   * that counted editing round (saves until its release are not charged again).
   */
  async createFromBackup(caller: Caller, draft: AgentDraft): Promise<{ agentId: string }> {
    requireMembership(caller);
    await this.validateDraft(draft);
    await this.checkDesign(caller, draft.designId);
    await this.limiter.take(`agent-create:${caller.userId}`, AGENT_CREATES_PER_HOUR, 3600);
    const { identity, config } = splitDraft(draft);
    const agentId = randomUUID();
    await this.billing.chargeAgentEdit(caller, { agentId, agentName: identity.agentName });
    const row = await this.repo.insert(this.db, {
      id: agentId,
      tenantId: caller.tenantId,
      ownerId: caller.userId,
      ...identity,
      config,
      editCounted: true,
    });
    return { agentId: row.id };
  }

  // ---- the chat runtime's seam ------------------------------------------------------------------

  async runtimeAgent(caller: Caller, agentId: string, opts: { release: boolean }): Promise<RuntimeAgent> {
    if (!opts.release) {
      const row = await this.ownAgent(caller, agentId);
      return toRuntime(row, snapshotOf(row), null, null);
    }
    const row = await this.readableAgent(caller, agentId, true);
    const { snap, versionId } = await this.releasedSnapshot(caller, row);
    return toRuntime(row, snap, versionId, this.hirerListing(caller, row));
  }

  async markDebugSucceeded(caller: Caller, agentId: string, draftRevision: number) {
    await this.ownAgent(caller, agentId);
    await this.repo.markDebugSucceeded(agentId, draftRevision);
  }

  /** A studio debug run (no version) marks the revision it ran as debugged; released runs count a task. */
  async replyDone(agent: RuntimeAgent) {
    // The reply's owner access was checked when it started (`runtimeAgent`): no second read of the row.
    if (agent.versionId === null) await this.repo.markDebugSucceeded(agent.agentId, agent.draftRevision);
    else {
      await this.repo.incrementUse(agent.agentId);
      // The marketplace orders by use; the runtime's cached row does not read it (not "agent").
      await this.platform.invalidate("agentUse", agent.agentId);
    }
  }
}
