import { createHash, randomBytes } from "node:crypto";
import { TOKEN_COOKIE, type MemberLevel } from "@agentfair/contracts";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { authSessions, tenants, users } from "../db/schema/index.ts";
import { forbidden, notFound, tokenInvalid } from "./errors.ts";

/** Who is calling, resolved from the server's own session: never from the request body. */
export interface Caller {
  userId: string;
  username: string;
  tenantId: string;
  tenantDomain: string;
  /** Users of the default tenant have no tenantId on the wire. */
  tenantIsDefault: boolean;
  isAdmin: boolean;
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
  const header = request.headers.authorization;
  if (header?.startsWith("Bearer ")) return header.slice(7).trim() || undefined;
  // The cookie is honoured on safe methods only (images, downloads): writes need the header,
  // which a cross-site form cannot set.
  if (request.method === "GET" || request.method === "HEAD") return request.cookies?.[TOKEN_COOKIE];
  return undefined;
}

export function isAdminUsername(config: Config, username: string, tenantIsDefault: boolean) {
  return tenantIsDefault && config.ADMIN_USERNAMES.includes(username);
}

export async function resolveCaller(db: Db, config: Config, token: string): Promise<Caller | null> {
  const rows = await db
    .select({ session: authSessions, user: users, tenant: tenants })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .where(and(eq(authSessions.tokenHash, hashToken(token)), isNull(authSessions.revokedAt), gt(authSessions.expiresAt, new Date())))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  const { user, tenant, session } = row;
  const expired = user.memberEndAt && user.memberEndAt < new Date();
  return {
    userId: user.id,
    username: user.username,
    tenantId: tenant.id,
    tenantDomain: tenant.domain,
    tenantIsDefault: tenant.isDefault,
    isAdmin: isAdminUsername(config, user.username, tenant.isDefault),
    isWhite: user.isWhite,
    memberLevel: (expired ? "FREE" : user.memberLevel) as MemberLevel,
    memberEndAt: expired ? null : user.memberEndAt,
    sessionPairId: session.pairId,
  };
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
