import type { TenantMember, TenantMemberInput, TenantMemberUpdate } from "@agentfair/contracts";
import { isEmail, tenantMemberInput } from "@agentfair/contracts";
import { and, count, desc, eq, ilike, or, type SQL } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { users } from "../../db/schema/index.ts";
import { type Caller, reservedUsernames } from "../../platform/auth.ts";
import { AppError, badRequest, notFound, tokenInvalid } from "../../platform/errors.ts";
import { hashPassword } from "../../platform/passwords.ts";
import type { Platform } from "../../platform/platform.ts";
import { containing } from "../../platform/sql.ts";

type UserRow = typeof users.$inferSelect;

/** What the members service needs of sign-in: ending a user's sessions (a new password, a stopped account). */
export interface Sessions {
  revokeAll(userId: string): Promise<void>;
}

/**
 * A tenant's administrators manage its members (beyond the spec): they add accounts (a tenant need
 * not take sign-ups for that), make members administrators, stop and restart accounts and set new
 * passwords. Only users of the administrator's own tenant are ever read or changed: the tenant
 * comes from the caller's session, never from the request.
 */
export class TenantMembersService {
  constructor(
    private readonly platform: Platform,
    private readonly sessions: Sessions,
  ) {}

  private get db() {
    return this.platform.db;
  }

  /** The caller's tenant, when they administer it. */
  private tenantOf(caller: Caller | null): string {
    if (!caller) throw tokenInvalid();
    if (!caller.isTenantAdmin || caller.tenantIsDefault) throw new AppError("tenantAdminOnly", 401);
    return caller.tenantId;
  }

  private toMember(u: UserRow): TenantMember {
    return {
      id: u.id,
      username: u.username,
      nickname: u.nickname || u.username,
      email: u.email,
      phone: u.phone,
      role: u.tenantRole === "admin" ? "admin" : "member",
      disabled: u.disabledAt !== null,
      lastLoginAt: u.lastLoginAt?.toISOString() ?? null,
      createdAt: u.createdAt.toISOString(),
    };
  }

  async list(caller: Caller | null, req: { pageNo: number; pageSize: number; keyword?: string }) {
    const tenantId = this.tenantOf(caller);
    const conditions: SQL[] = [eq(users.tenantId, tenantId)];
    if (req.keyword) {
      const like = containing(req.keyword);
      conditions.push(or(ilike(users.username, like), ilike(users.nickname, like), ilike(users.email, like), ilike(users.phone, like))!);
    }
    const where = and(...conditions);
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select()
        .from(users)
        .where(where)
        .orderBy(desc(users.createdAt), users.id)
        .limit(req.pageSize)
        .offset((req.pageNo - 1) * req.pageSize),
      this.db.select({ total: count() }).from(users).where(where),
    ]);
    return { list: rows.map((u) => this.toMember(u)), total };
  }

  async create(caller: Caller | null, input: TenantMemberInput): Promise<TenantMember> {
    return this.toMember(await this.add(this.tenantOf(caller), input));
  }

  /** A new account in a tenant (its administrator's add, or a new tenant's first administrator). */
  async add(tenantId: string, input: TenantMemberInput, tx: Tx = this.db): Promise<UserRow> {
    const member = tenantMemberInput.parse(input);
    // The special users' names are kept out of every tenant, as registration does.
    if (reservedUsernames(this.platform.config).includes(member.username)) throw new AppError("usernameTaken", 409);
    const contact = !member.contact
      ? undefined
      : isEmail(member.contact)
        ? { email: member.contact.toLowerCase() }
        : { phone: member.contact };
    const [taken] = await tx
      .select({ username: users.username, email: users.email, phone: users.phone })
      .from(users)
      .where(
        and(
          eq(users.tenantId, tenantId),
          or(
            eq(users.username, member.username),
            ...(contact?.email ? [eq(users.email, contact.email)] : []),
            ...(contact?.phone ? [eq(users.phone, contact.phone)] : []),
          ),
        ),
      )
      .limit(1);
    if (taken) throw new AppError(taken.username === member.username ? "usernameTaken" : "contactTaken", 409);
    const [row] = await tx
      .insert(users)
      .values({
        tenantId,
        username: member.username,
        nickname: member.nickname || member.username,
        passwordHash: await hashPassword(member.password),
        tenantRole: member.role,
        ...contact,
      })
      // A parallel add of the same name or contact: the unique keys decide, as a taken name.
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError("usernameTaken", 409);
    return row;
  }

  async update(caller: Caller | null, id: string, change: TenantMemberUpdate): Promise<TenantMember> {
    const tenantId = this.tenantOf(caller);
    const [member] = await this.db
      .select()
      .from(users)
      .where(and(eq(users.id, id), eq(users.tenantId, tenantId)))
      .limit(1);
    if (!member) throw notFound();
    // An administrator cannot lock themself out (nor leave the tenant with no one to undo it).
    if (member.id === caller!.userId && (change.disabled === true || change.role === "member")) throw badRequest("tenantMemberSelf");
    const values: Partial<UserRow> = { updatedAt: new Date() };
    if (change.role) values.tenantRole = change.role;
    if (change.disabled !== undefined) values.disabledAt = change.disabled ? (member.disabledAt ?? new Date()) : null;
    if (change.password) values.passwordHash = await hashPassword(change.password);
    const [row] = await this.db.update(users).set(values).where(eq(users.id, member.id)).returning();
    // A stopped account and a new password end every session; a role change applies from the next request.
    if (change.disabled || change.password) await this.sessions.revokeAll(member.id);
    else await this.platform.invalidate("user", member.id);
    return this.toMember(row);
  }
}
