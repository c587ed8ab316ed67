import type { TenantMember, TenantMemberInput, TenantMemberUpdate } from "@agentfair/contracts";
import { isEmail, tenantMemberInput } from "@agentfair/contracts";
import { and, count, desc, eq, ilike, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { ROBOT_GUEST_PASSWORD_HASH, users } from "../../db/schema/index.ts";
import { type Caller, reservedUsernames } from "../../platform/auth.ts";
import { AppError, badRequest, notFound, tokenInvalid } from "../../platform/errors.ts";
import { hashPassword } from "../../platform/passwords.ts";
import type { Platform } from "../../platform/platform.ts";
import { containing } from "../../platform/sql.ts";

type UserRow = typeof users.$inferSelect;

/** Accounts one tenant's administrators may add in an hour: enough for an organisation's roll-out, not a farm of free accounts. */
export const MEMBERS_ADDED_PER_HOUR = 100;

/** A robot's guest accounts (a chat user of a WeCom/DingTalk/Feishu robot) are not people an administrator manages. */
export const person = ne(users.passwordHash, ROBOT_GUEST_PASSWORD_HASH);

/** An account ready to insert: checked and its password hashed (before any transaction, as hashing takes a while). */
export type PreparedMember = Omit<typeof users.$inferInsert, "tenantId">;

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
    const conditions: SQL[] = [eq(users.tenantId, tenantId), person];
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
    const tenantId = this.tenantOf(caller);
    await this.platform.rateLimiter.take(`tenant-members:add:${tenantId}`, MEMBERS_ADDED_PER_HOUR, 3600);
    return this.toMember(await this.insert(tenantId, await this.prepare(input)));
  }

  /** Checks a new account and hashes its password. */
  async prepare(input: TenantMemberInput): Promise<PreparedMember> {
    const member = tenantMemberInput.parse(input);
    // The special users' names are kept out of every tenant, as registration does.
    if (reservedUsernames(this.platform.config).includes(member.username)) throw new AppError("usernameTaken", 409);
    const contact = !member.contact ? {} : isEmail(member.contact) ? { email: member.contact.toLowerCase() } : { phone: member.contact };
    return {
      username: member.username,
      nickname: member.nickname || member.username,
      passwordHash: await hashPassword(member.password),
      tenantRole: member.role,
      ...contact,
    };
  }

  /** A prepared account in a tenant (its administrator's add, or a new tenant's first administrator). */
  async insert(tenantId: string, member: PreparedMember, tx: Tx = this.db): Promise<UserRow> {
    const [taken] = await tx
      .select({ username: users.username })
      .from(users)
      .where(
        and(
          eq(users.tenantId, tenantId),
          or(
            eq(users.username, member.username),
            ...(member.email ? [eq(users.email, member.email)] : []),
            ...(member.phone ? [eq(users.phone, member.phone)] : []),
          ),
        ),
      )
      .limit(1);
    if (taken) throw new AppError(taken.username === member.username ? "usernameTaken" : "contactTaken", 409);
    // A parallel add of the same name or contact: the unique keys decide, as a taken name.
    const [row] = await tx
      .insert(users)
      .values({ ...member, tenantId })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError("usernameTaken", 409);
    return row;
  }

  async update(caller: Caller | null, id: string, change: TenantMemberUpdate): Promise<TenantMember> {
    const tenantId = this.tenantOf(caller);
    const passwordHash = change.password ? await hashPassword(change.password) : undefined;
    const row = await this.db.transaction(async (tx) => {
      // One change of a tenant's members at a time: two administrators stopping each other at once
      // would otherwise leave the tenant with none.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`tenant-members:${tenantId}`}))`);
      const active = and(eq(users.tenantId, tenantId), eq(users.tenantRole, "admin"), isNull(users.disabledAt), person);
      const [self] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(active, eq(users.id, caller!.userId)));
      // Demoted or stopped by another administrator meanwhile.
      if (!self) throw new AppError("tenantAdminOnly", 401);
      const [member] = await tx
        .select()
        .from(users)
        .where(and(eq(users.id, id), eq(users.tenantId, tenantId), person))
        .limit(1);
      if (!member) throw notFound();
      // An administrator cannot lock themself out, so the one who acts always stays to undo a change.
      if (member.id === caller!.userId && (change.disabled === true || change.role === "member")) throw badRequest("tenantMemberSelf");
      const values: Partial<UserRow> = { updatedAt: new Date() };
      if (change.role) values.tenantRole = change.role;
      if (change.disabled !== undefined) values.disabledAt = change.disabled ? (member.disabledAt ?? new Date()) : null;
      if (passwordHash) values.passwordHash = passwordHash;
      const [updated] = await tx.update(users).set(values).where(eq(users.id, member.id)).returning();
      return updated;
    });
    // A stopped account and a new password end every session; a role change applies from the next request.
    if (change.disabled || change.password) await this.sessions.revokeAll(row.id);
    else await this.platform.invalidate("user", row.id);
    return this.toMember(row);
  }
}
