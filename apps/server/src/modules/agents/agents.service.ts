import {
  AGENT_STATUS,
  type AgentDetail,
  type AgentDraft,
  type AgentPublic,
  type AgentSnapshot,
  type DraftResponse,
  duplicateVariableName,
  isListed,
  type LaunchPageRequest,
  type MinePageRequest,
  PERSONA_MAX_BYTES,
  renameError,
  utf8Bytes,
  type VersionDetail,
} from "@agentfair/contracts";
import { LRUCache } from "lru-cache";
import type { Db } from "../../db/client.ts";
import { type Caller, requireAccess } from "../../platform/auth.ts";
import { badRequest, forbidden, notFound } from "../../platform/errors.ts";
import { EVERYTHING } from "../../platform/invalidation.ts";
import type { Platform } from "../../platform/platform.ts";
import type { RateLimiter } from "../../platform/rate-limit.ts";
import type { Billing } from "../billing/billing.seam.ts";
import type { TenantsService } from "../tenants/tenants.service.ts";
import { AgentsRepository, type AgentRow, type VersionRow } from "./agents.repository.ts";
import { cents, defaultConfig, draftOf, snapshotOf, splitDraft, toCard, toPublic, toRuntime, yuan } from "./agents.mappers.ts";
import type { AgentsForRuntime, RuntimeAgent } from "./runtime-agent.ts";

const isoDay = (d = new Date()) => d.toISOString().slice(0, 10);
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
  /**
   * What released runs read on every reply: agent rows briefly (every change to a row drops it in
   * every process; use counters may lag), versions for good (they never change).
   */
  private readonly runtimeRows = new LRUCache<string, AgentRow>({ max: 10_000, ttl: 30_000 });
  private readonly versionRows = new LRUCache<string, VersionRow>({ max: 10_000 });

  constructor(
    private readonly platform: Pick<Platform, "db" | "rateLimiter" | "invalidation" | "invalidate">,
    private readonly billing: Billing,
    private readonly tenants: TenantsService,
  ) {
    this.db = platform.db;
    this.limiter = platform.rateLimiter;
    this.repo = new AgentsRepository(this.db, (id, tx) => platform.invalidate("agent", id, tx));
    platform.invalidation.on("agent", (id) => (id === EVERYTHING ? this.runtimeRows.clear() : this.runtimeRows.delete(id)));
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

  // ---- studio: drafts and releases -------------------------------------------------------------

  async quickAdd(
    caller: Caller,
    body: { agentName?: string; agentDescription?: string; agentIcon?: string; agentIconBackground?: string },
  ) {
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
    await this.validateDraft(draft);
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
    return toPublic(row, snap, versionNo);
  }

  async detail(caller: Caller | null, id: string): Promise<AgentDetail> {
    const row = await this.readableAgent(caller, id);
    const mine = this.isOwner(caller, row);
    let agent: AgentPublic;
    if (row.latestVersionNo)
      agent = toPublic(row, (await this.releasedSnapshot(caller, row)).snap, mine ? row.latestVersionNo : row.launchVersion);
    else agent = toPublic(row, snapshotOf(row), null);
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
    };
  }

  // ---- lists -----------------------------------------------------------------------------------

  async marketplace(caller: Caller | null, req: LaunchPageRequest & { page: number; size: number }) {
    const { list, total } = await this.repo.marketplace(await this.scope(caller), req, req.page, req.size);
    return { list: list.map((r) => toCard(r, caller?.userId)), total };
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

  async intro(
    caller: Caller,
    id: string,
    body: { agentName: string; agentDescription?: string; agentIcon?: string; agentIconBackground?: string; price?: number },
  ) {
    await this.ownAgent(caller, id);
    const err = renameError(body.agentName);
    if (err) throw badRequest(err === "blank" ? "agentNameBlank" : "agentNameTooLong");
    const row = await this.repo.update(this.db, id, {
      agentName: body.agentName.trim(),
      ...(body.agentDescription !== undefined && { agentDescription: body.agentDescription }),
      ...(body.agentIcon !== undefined && { agentIcon: body.agentIcon }),
      ...(body.agentIconBackground !== undefined && { agentIconBackground: body.agentIconBackground }),
      ...(body.price !== undefined && { priceCents: cents(body.price) }),
      lastModifiedAt: new Date(),
    });
    return toCard(row, caller.userId);
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
   * Knowledge-base bindings are private data of the owner and are not carried over.
   */
  async copy(caller: Caller, id: string) {
    const source = await this.readableAgent(caller, id);
    const { snap } = await this.releasedSnapshot(caller, source);
    await this.limiter.take(`agent-create:${caller.userId}`, AGENT_CREATES_PER_HOUR, 3600);
    if (source.priceCents > 0 && !this.isOwner(caller, source)) {
      await this.billing.chargeAgentCopy(caller, { agentId: source.id, agentName: source.agentName, priceCents: source.priceCents });
    }
    const copy: AgentSnapshot = { ...snap, bindings: { ...snap.bindings, knowledgeBases: [] } };
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
        notes: `复制自「${source.agentName}」`,
        snapshot: { ...copy, price: 0 },
        draftRevision: 1,
        createdBy: caller.userId,
      });
      await this.repo.recordCopy(tx, caller.userId, source.id);
      return { agentId: row.id };
    });
  }

  // ---- listing and review ------------------------------------------------------------------------

  async submitForListing(caller: Caller, agentId: string) {
    await this.ownAgent(caller, agentId);
    return this.db.transaction(async (tx) => {
      const row = await this.repo.lockById(tx, agentId);
      if (!row) throw notFound();
      if (!row.latestVersionNo) throw badRequest("agentNotReleased");
      if (isListed(row) && row.launchVersion === row.latestVersionNo) throw badRequest("alreadyListed");
      const pending = await this.repo.pendingApply(tx, agentId);
      if (pending) await this.repo.updateApply(tx, pending.id, { versionNo: row.latestVersionNo });
      else await this.repo.insertApply(tx, { agentId, tenantId: row.tenantId, applicantId: caller.userId, versionNo: row.latestVersionNo });
      return { status: "PENDING" as const };
    });
  }

  async applyPage(caller: Caller, req: { status?: string; page: number; size: number }) {
    if (!caller.isAdmin) throw forbidden();
    const { list, total } = await this.repo.applyPage(req.status, req.page, req.size);
    return {
      total,
      list: list.map(({ apply, agent, applicant, tenantName, snapshot, notes }) => ({
        id: apply.id,
        agentId: agent.id,
        agentName: agent.agentName,
        agentDescription: agent.agentDescription,
        agentIcon: agent.agentIcon,
        agentIconBackground: agent.agentIconBackground,
        price: yuan(agent.priceCents),
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
      })),
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
        await this.repo.update(tx, agent.id, { launchVersion: apply.versionNo, launchVersionDisabled: false });
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
    return {
      agentId: row.id,
      agentName: snap.agentName,
      agentIcon: snap.agentIcon,
      agentIconBackground: snap.agentIconBackground,
      agentDescription: snap.agentDescription,
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
    return { agentId: row.id, agentName: row.agentName, priceCents: row.priceCents };
  }

  // ---- the chat runtime's seam ------------------------------------------------------------------

  async runtimeAgent(caller: Caller, agentId: string, opts: { release: boolean }): Promise<RuntimeAgent> {
    if (!opts.release) {
      const row = await this.ownAgent(caller, agentId);
      return toRuntime(row, snapshotOf(row), null);
    }
    const row = await this.readableAgent(caller, agentId, true);
    const { snap, versionId } = await this.releasedSnapshot(caller, row);
    return toRuntime(row, snap, versionId);
  }

  async markDebugSucceeded(caller: Caller, agentId: string, draftRevision: number) {
    await this.ownAgent(caller, agentId);
    await this.repo.markDebugSucceeded(agentId, draftRevision);
  }

  async countUse(agentId: string) {
    await this.repo.incrementUse(agentId);
  }
}
