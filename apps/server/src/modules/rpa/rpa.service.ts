import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import {
  type LiveRecord,
  type PlayContainer,
  RPA_STREAM_URL_SECONDS,
  RPA_TICKET_SECONDS,
  type RpaRobot,
  type RpaRobotInput,
  type RpaTaskInput,
  rpaRobotInput,
  rpaTaskInput,
} from "@agentfair/contracts";
import { LRUCache } from "lru-cache";
import type { Caller } from "../../platform/auth.ts";
import { forbidden, notFound } from "../../platform/errors.ts";
import { PREFIXES } from "../../platform/http.ts";
import { EVERYTHING } from "../../platform/invalidation.ts";
import type { Platform } from "../../platform/platform.ts";
import { openSecret, sealSecret } from "../../platform/secret.ts";
import { type RobotRow, RpaRepository } from "./rpa.repository.ts";

const PASSWORD_PURPOSE = "rpa-vnc";
const hash = (ticket: string) => createHash("sha256").update(ticket).digest("hex");

/** The chat's part the RPA module needs: tasks attach to a session the caller owns. */
export interface SessionsForRpa {
  requireOwnSession(caller: Caller, sessionId: string): Promise<void>;
}

export const VNC_BRIDGE_PATH = `${PREFIXES.agent}/api/rpa/vnc`;

/** What the VNC bridge may connect to for a redeemed ticket: taken from the robot record only. */
export interface BridgeTarget {
  robotId: string;
  userId: string;
  sessionPairId: string;
  host: string;
  port: number;
  password: string | null;
  allowPrivate: boolean;
}

/**
 * RPA robots, their live streams and remote screens. Robots belong to a tenant; platform
 * administrators manage all, a tenant administrator its own tenant's; a tenant's users watch
 * its robots (platform administrators any).
 */
export class RpaService {
  readonly repo: RpaRepository;

  constructor(
    private readonly platform: Platform,
    private readonly sessions: () => SessionsForRpa | undefined,
  ) {
    this.repo = new RpaRepository(platform.db);
    platform.invalidation.on("robots", (tenantId) =>
      tenantId === EVERYTHING ? this.namesOfTenant.clear() : this.namesOfTenant.delete(tenantId),
    );
  }

  /** Every reply asks for its tenant's robots (the RPA tool): kept briefly, dropped on every change. */
  private readonly namesOfTenant = new LRUCache<string, string[]>({ max: 10_000, ttl: 30_000 });

  private toInfo(row: RobotRow): RpaRobot {
    return {
      id: row.id,
      tenantId: row.tenantId,
      robotName: row.robotName,
      robotType: row.robotType as RpaRobot["robotType"],
      vncHost: row.vncHost,
      vncPort: row.vncPort,
      hasVncPassword: !!row.vncPasswordEnc,
      streamUrl: row.streamUrl,
      livePolicy: row.livePolicy,
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  // ---- management --------------------------------------------------------------------------------

  private scopeOf(caller: Caller): { all: boolean; tenantId: string } {
    if (caller.isAdmin) return { all: true, tenantId: caller.tenantId };
    if (caller.isTenantAdmin && !caller.tenantIsDefault) return { all: false, tenantId: caller.tenantId };
    throw forbidden();
  }

  /** The one owner+tenant check for managing a robot: any other is not found. */
  private async managed(caller: Caller, id: string) {
    const scope = this.scopeOf(caller);
    const row = await this.repo.get(id);
    if (!row || (!scope.all && row.tenantId !== scope.tenantId)) throw notFound();
    return row;
  }

  async list(caller: Caller) {
    const scope = this.scopeOf(caller);
    const rows = scope.all ? await this.repo.listAll() : await this.repo.listOfTenant(scope.tenantId);
    return rows.map((r) => this.toInfo(r));
  }

  async create(caller: Caller, raw: RpaRobotInput) {
    const scope = this.scopeOf(caller);
    const input = rpaRobotInput.parse(raw);
    const row = await this.repo.insert({
      tenantId: scope.tenantId,
      robotName: input.robotName,
      robotType: input.robotType,
      vncHost: input.vncHost,
      vncPort: input.vncPort,
      vncPasswordEnc: input.vncPassword ? sealSecret(this.platform.secret, PASSWORD_PURPOSE, input.vncPassword) : null,
      streamUrl: input.streamUrl,
      livePolicy: input.livePolicy,
      // A tenant administrator's targets go through the private-address check; the operator's do not.
      allowPrivate: caller.isAdmin,
      createdBy: caller.userId,
    });
    await this.platform.invalidate("robots", row.tenantId);
    return this.toInfo(row);
  }

  async update(caller: Caller, id: string, raw: RpaRobotInput) {
    const existing = await this.managed(caller, id);
    const input = rpaRobotInput.parse(raw);
    const vncPasswordEnc = input.clearVncPassword
      ? null
      : input.vncPassword
        ? sealSecret(this.platform.secret, PASSWORD_PURPOSE, input.vncPassword)
        : existing.vncPasswordEnc;
    const row = await this.repo.update(id, {
      robotName: input.robotName,
      robotType: input.robotType,
      vncHost: input.vncHost,
      vncPort: input.vncPort,
      vncPasswordEnc,
      streamUrl: input.streamUrl,
      livePolicy: input.livePolicy,
      allowPrivate: caller.isAdmin && existing.allowPrivate,
    });
    await this.platform.invalidate("robots", existing.tenantId);
    return this.toInfo(row);
  }

  async remove(caller: Caller, id: string) {
    const existing = await this.managed(caller, id);
    await this.repo.remove(id);
    await this.platform.invalidate("robots", existing.tenantId);
  }

  // ---- watching ----------------------------------------------------------------------------------

  /** The one check for watching a robot: the caller's tenant's robots (administrators: any). */
  private async watchable(caller: Caller, id: string) {
    const row = await this.repo.get(id);
    if (!row || (!caller.isAdmin && row.tenantId !== caller.tenantId)) throw notFound();
    return row;
  }

  /** A single-use ticket for the VNC bridge, bound to the caller, its sign-in and the robot. */
  async ticket(caller: Caller, robotId: string) {
    const robot = await this.watchable(caller, robotId);
    if (!robot.vncHost) throw notFound();
    const ticket = randomBytes(24).toString("base64url");
    await this.repo.insertTicket({
      ticketHash: hash(ticket),
      userId: caller.userId,
      robotId: robot.id,
      sessionPairId: caller.sessionPairId,
      expiresAt: new Date(Date.now() + RPA_TICKET_SECONDS * 1000),
    });
    return { url: `${VNC_BRIDGE_PATH}?ticket=${ticket}`, expiresIn: RPA_TICKET_SECONDS };
  }

  /** Redeems a ticket once: the target of its robot record, or null (unknown, used, expired, robot gone, sign-in ended). */
  async redeem(ticket: string): Promise<BridgeTarget | null> {
    if (!ticket || ticket.length > 100) return null;
    const row = await this.repo.consumeTicket(hash(ticket));
    if (!row) return null;
    const robot = await this.repo.get(row.robotId);
    if (!robot?.vncHost) return null;
    if (!(await this.repo.signInValidUntil(row.sessionPairId))) return null;
    return {
      robotId: robot.id,
      userId: row.userId,
      sessionPairId: row.sessionPairId,
      host: robot.vncHost,
      port: robot.vncPort,
      password: robot.vncPasswordEnc ? openSecret(this.platform.secret, PASSWORD_PURPOSE, robot.vncPasswordEnc) : null,
      allowPrivate: robot.allowPrivate,
    };
  }

  /** Until when a bridged view may stay open: its sign-in session's end (null: ended now). */
  signInValidUntil(pairId: string) {
    return this.repo.signInValidUntil(pairId);
  }

  private sign(robotId: string, exp: number) {
    return createHmac("sha256", `rpa-stream:${this.platform.secret}`).update(`${robotId}.${exp}`).digest("base64url");
  }

  /** A short-lived signed address of a robot's stream on this platform; the robot's own URL stays on the server. */
  signedStreamUrl(robotId: string) {
    const exp = Math.floor(Date.now() / 1000) + RPA_STREAM_URL_SECONDS;
    return `${PREFIXES.agent}/api/rpa/stream/${robotId}.flv?exp=${exp}&sig=${this.sign(robotId, exp)}`;
  }

  /** The robot behind a signed stream address, or null when the signature is wrong or old. */
  async streamTarget(robotId: string, exp: number, sig: string) {
    if (!Number.isInteger(exp) || exp < Date.now() / 1000) return null;
    const want = Buffer.from(this.sign(robotId, exp));
    const got = Buffer.from(sig);
    if (want.length !== got.length || !timingSafeEqual(want, got)) return null;
    const robot = await this.repo.get(robotId);
    return robot?.streamUrl ? robot : null;
  }

  private record(robot: RobotRow, container: PlayContainer, iframeUrl = "", playControls = true): LiveRecord {
    const playInfo =
      container === "live"
        ? robot.streamUrl
          ? this.signedStreamUrl(robot.id)
          : ""
        : container === "remote"
          ? `${PREFIXES.agent}/api/rpa/robots/${robot.id}/ticket`
          : iframeUrl;
    return { playInfo, playContainer: container, playControls, rpaRobot: { id: robot.id, robotName: robot.robotName } };
  }

  /** RPA live list (doc 2 §7): the caller's tenant's listed streams, pageSize 15, sorted by playInfo. */
  async liveList(caller: Caller, pageNo: number, pageSize: number) {
    const { rows, total } = await this.repo.livePage(caller.tenantId, pageNo, pageSize);
    return { rows: rows.map((r) => this.record(r, "live")), total };
  }

  /** The live record of a chat session the caller owns: its newest robot task, or null. */
  async playInfo(caller: Caller, sessionId: string): Promise<LiveRecord | null> {
    const found = await this.repo.latestTask(sessionId);
    if (!found || found.task.userId !== caller.userId) return null;
    return this.record(found.robot, found.task.playContainer as PlayContainer, found.task.iframeUrl, found.task.playControls === 1);
  }

  /** Starts a robot task for a chat session of the caller and attaches its panel to the session. */
  async startTask(caller: Caller, raw: RpaTaskInput) {
    const input = rpaTaskInput.parse(raw);
    const sessions = this.sessions();
    if (!sessions) throw notFound();
    await sessions.requireOwnSession(caller, input.sessionId);
    const robot = await this.watchable(caller, input.robotId);
    return this.attach(caller, input.sessionId, robot, input.playContainer, input.iframeUrl);
  }

  /** Attaches a robot found by name (the chat tool: the session is the reply's own). */
  async startTaskByName(caller: Caller, sessionId: string, robotName: string, container: PlayContainer) {
    const robot = await this.repo.findByName(caller.tenantId, robotName);
    if (!robot) return null;
    return this.attach(caller, sessionId, robot, container, "");
  }

  private async attach(caller: Caller, sessionId: string, robot: RobotRow, container: PlayContainer, iframeUrl: string) {
    await this.repo.insertTask({
      tenantId: caller.tenantId,
      userId: caller.userId,
      sessionId,
      robotId: robot.id,
      playContainer: container,
      iframeUrl,
    });
    return this.record(robot, container, iframeUrl);
  }

  async robotNames(tenantId: string) {
    const names = await this.platform.invalidation.cached("robots", this.namesOfTenant, tenantId, async () =>
      (await this.repo.listOfTenant(tenantId)).map((r) => r.robotName),
    );
    return names ?? [];
  }

  purgeTickets() {
    return this.repo.purgeTickets(new Date(Date.now() - 60_000));
  }
}
