import { createHash, randomBytes } from "node:crypto";
import { type MemberLevel, membershipGateApplies, TOKEN_COOKIE } from "@agentfair/contracts";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { LRUCache } from "lru-cache";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { authSessions, tenants, users } from "../db/schema/index.ts";
import { AppError, forbidden, notFound, tokenInvalid } from "./errors.ts";
import { EVERYTHING, type Invalidation } from "./invalidation.ts";

/** Who is calling, resolved from the server's own session: never from the request body. */
export interface Caller {
  userId: string;
  username: string;
  tenantId: string;
  tenantDomain: string;
  /** Users of the default tenant have no tenantId on the wire. */
  tenantIsDefault: boolean;
  /**
   * The special users are users of the default tenant with a configured name, resolved here once:
   * nothing else compares usernames. Administrators (ADMIN_USERNAMES)...
   */
  isAdmin: boolean;
  /** ...the user exempt from the paid-agent membership rule (EXEMPT_USERNAME)... */
  isExempt: boolean;
  /** ...and the user who lands on /home after sign-in (HOME_USERNAME). */
  isHome: boolean;
  /** Administrator of its own non-default tenant (users.tenant_role 'admin'): manages that tenant's models. */
  isTenantAdmin: boolean;
  isWhite: boolean;
  memberLevel: MemberLevel;
  memberEndAt: Date | null;
  sessionPairId: string;
}

declare module "fastify" {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
export const newToken = () => randomBytes(32).toString("base64url");

export function bearerToken(request: FastifyRequest): string | undefined {
  // The scheme is case-insensitive (RFC 9110): "bearer" is as good as "Bearer".
  const bearer = request.headers.authorization?.match(/^bearer\s+(\S+)\s*$/i);
  if (bearer) return bearer[1];
  // The cookie is honoured on safe methods only (images, downloads): writes need the header,
  // which a cross-site form cannot set.
  if (request.method === "GET" || request.method === "HEAD") return request.cookies?.[TOKEN_COOKIE];
  return undefined;
}

/** The special users' names: reserved in every tenant, special in the default tenant only. */
export const reservedUsernames = (config: Config) => [...config.ADMIN_USERNAMES, config.EXEMPT_USERNAME, config.HOME_USERNAME];

export function specialUser(config: Config, username: string, tenantIsDefault: boolean) {
  return {
    isAdmin: tenantIsDefault && config.ADMIN_USERNAMES.includes(username),
    isExempt: tenantIsDefault && username === config.EXEMPT_USERNAME,
    isHome: tenantIsDefault && username === config.HOME_USERNAME,
  };
}

/**
 * What a token may be used for: the web token calls the API; the report token (cookie
 * `Report-Token`) only the report calls under /prod-api.
 */
export type TokenScope = "web" | "report";

interface CallerEntry {
  caller: Caller;
  scope: TokenScope;
  validUntil: number;
}

/** The caller behind a token, its scope, and until when that reading holds (session end, membership end). */
async function lookupCaller(db: Db, config: Config, tokenHash: string): Promise<CallerEntry | null> {
  const rows = await db
    .select({ session: authSessions, user: users, tenant: tenants })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .where(
      and(
        eq(authSessions.tokenHash, tokenHash),
        isNull(authSessions.revokedAt),
        gt(authSessions.expiresAt, new Date()),
        isNull(users.disabledAt),
      ),
    )
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  const { user, tenant, session } = row;
  const expired = user.memberEndAt && user.memberEndAt < new Date();
  const caller: Caller = {
    userId: user.id,
    username: user.username,
    tenantId: tenant.id,
    tenantDomain: tenant.domain,
    tenantIsDefault: tenant.isDefault,
    ...specialUser(config, user.username, tenant.isDefault),
    isTenantAdmin: !tenant.isDefault && user.tenantRole === "admin",
    isWhite: user.isWhite,
    memberLevel: (expired ? "FREE" : user.memberLevel) as MemberLevel,
    memberEndAt: expired ? null : user.memberEndAt,
    sessionPairId: session.pairId,
  };
  const ends = [session.expiresAt.getTime(), ...(caller.memberEndAt ? [caller.memberEndAt.getTime()] : [])];
  return { caller, scope: session.kind === "report" ? "report" : "web", validUntil: Math.min(...ends) };
}

/**
 * The caller a user is when no session of theirs is at hand, read from the user row as a sign-in
 * would (the same special-user and membership rules): an agent's owner whose MCP key runs the agent,
 * a scheduled task's owner. No sessionPairId; a missing or stopped (disabled) user is null.
 */
export async function callerOfUser(db: Db, config: Config, userId: string): Promise<Caller | null> {
  const [row] = await db
    .select({ user: users, tenant: tenants })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .where(and(eq(users.id, userId), isNull(users.disabledAt)))
    .limit(1);
  if (!row) return null;
  const { user, tenant } = row;
  const expired = user.memberEndAt && user.memberEndAt < new Date();
  return {
    userId: user.id,
    username: user.username,
    tenantId: tenant.id,
    tenantDomain: tenant.domain,
    tenantIsDefault: tenant.isDefault,
    ...specialUser(config, user.username, tenant.isDefault),
    isTenantAdmin: !tenant.isDefault && user.tenantRole === "admin",
    isWhite: user.isWhite,
    memberLevel: (expired ? "FREE" : user.memberLevel) as MemberLevel,
    memberEndAt: expired ? null : user.memberEndAt,
    sessionPairId: "",
  };
}

/**
 * Token → caller, cached per process because every request asks (the chat's first token most of
 * all). An entry lives at most CALLER_CACHE_MS and never past its session's or membership's end;
 * logout, revocation and changes to a user's level or role drop it in every process through the
 * "user" invalidation. Unknown tokens are not cached.
 */
export class CallerCache {
  static readonly TTL_MS = 60_000;
  private readonly entries = new LRUCache<string, CallerEntry>({ max: 20_000, ttl: CallerCache.TTL_MS });

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly invalidation: Invalidation,
  ) {
    invalidation.on("user", (userId) => {
      if (userId === EVERYTHING) return this.entries.clear();
      for (const [key, entry] of this.entries.entries()) if (entry.caller.userId === userId) this.entries.delete(key);
    });
  }

  /** The caller behind a token, when the token may be used where it is (a report token only on report calls). */
  async resolve(token: string, where: TokenScope = "web"): Promise<Caller | null> {
    const key = hashToken(token);
    const found = await this.invalidation.cached(
      "user",
      this.entries,
      key,
      async () => (await lookupCaller(this.db, this.config, key)) ?? undefined,
      (entry) => Math.min(CallerCache.TTL_MS, entry.validUntil - Date.now()),
    );
    if (!found || (found.scope === "report" && where !== "report")) return null;
    return found.caller;
  }
}

export function requireUser(request: FastifyRequest): Caller {
  if (!request.caller) throw tokenInvalid();
  return request.caller;
}

export function requireAdmin(request: FastifyRequest): Caller {
  const caller = requireUser(request);
  if (!caller.isAdmin) throw forbidden();
  return caller;
}

/** The caller's tenantId as the spec's clients see it: null on the public platform. */
export const wireTenantId = (caller: Pick<Caller, "tenantId" | "tenantIsDefault">) => (caller.tenantIsDefault ? null : caller.tenantId);

/**
 * The membership gate (doc 1 §5, doc 2 §6) on the server, the same rule the web's route guard
 * applies: a non-admin caller of the public platform with level FREE and no white flag is refused
 * ('membership feature, please open membership first'). Every studio write calls it.
 */
export function requireMembership(caller: Caller) {
  const gated = membershipGateApplies({
    isAdmin: caller.isAdmin,
    isWhite: caller.isWhite,
    tenantId: wireTenantId(caller),
    userMemberLevel: { memberLevel: caller.memberLevel },
  });
  if (gated) throw new AppError("membershipRequired", 400);
}

export type Action = "read" | "write";

/**
 * The one access check every service uses for user-owned objects. Owners may read and write;
 * administrators may read and write everything; objects shared with the tenant (e.g. listed
 * agents) are readable by its users. A denied read is reported as not found.
 */
export function requireAccess(
  caller: Caller | null,
  object: { ownerId: string; tenantId: string; sharedWithTenant?: boolean; public?: boolean } | null | undefined,
  action: Action,
) {
  if (!object) throw notFound();
  if (caller?.isAdmin) return;
  if (caller && object.ownerId === caller.userId && object.tenantId === caller.tenantId) return;
  const readable = object.public || (caller && object.sharedWithTenant && object.tenantId === caller.tenantId);
  if (action === "read" && readable) return;
  if (!readable) throw notFound();
  if (!caller) throw tokenInvalid();
  throw forbidden();
}
