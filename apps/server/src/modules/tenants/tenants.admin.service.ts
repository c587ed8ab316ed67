import {
  type AdminTenant,
  type TenantBrandingInput,
  type TenantCreateInput,
  type TenantRoleInput,
  tenantBrandingInput,
  tenantCreateInput,
} from "@agentfair/contracts";
import { and, asc, count, eq } from "drizzle-orm";
import { tenants, users } from "../../db/schema/index.ts";
import { AppError, badRequest } from "../../platform/errors.ts";
import type { Platform } from "../../platform/platform.ts";
import { person, type TenantMembersService } from "./tenants.members.service.ts";

/**
 * Tenant administrators, granted and revoked by platform administrators. Only a non-default
 * tenant has them: the default tenant is the public platform, run by the platform administrators.
 */
export class TenantsAdminService {
  constructor(
    private readonly platform: Platform,
    private readonly members: Pick<TenantMembersService, "prepare" | "insert">,
  ) {}

  private get db() {
    return this.platform.db;
  }

  /** Every non-default tenant with its user count and administrators. */
  async list(): Promise<AdminTenant[]> {
    const rows = await this.db.select().from(tenants).where(eq(tenants.isDefault, false)).orderBy(asc(tenants.domain));
    const counts = await this.db
      .select({ tenantId: users.tenantId, n: count() })
      .from(users)
      .innerJoin(tenants, eq(tenants.id, users.tenantId))
      // People, not a robot's guest accounts (as the members page counts them).
      .where(and(eq(tenants.isDefault, false), person))
      .groupBy(users.tenantId);
    const admins = await this.db
      .select({
        tenantId: users.tenantId,
        userId: users.id,
        username: users.username,
        nickname: users.nickname,
        disabledAt: users.disabledAt,
      })
      .from(users)
      .where(eq(users.tenantRole, "admin"))
      .orderBy(asc(users.username));
    return rows.map((t) => ({
      id: t.id,
      domain: t.domain,
      name: t.name,
      logo: t.logo,
      primaryColor: t.primaryColor,
      backgroundColor: t.backgroundColor,
      recordFiling: t.recordFiling,
      userCount: counts.find((c) => c.tenantId === t.id)?.n ?? 0,
      openRegistration: t.openRegistration,
      admins: admins
        .filter((a) => a.tenantId === t.id)
        .map((a) => ({ userId: a.userId, username: a.username, nickname: a.nickname || a.username, disabled: a.disabledAt !== null })),
    }));
  }

  private async one(tenantId: string) {
    return (await this.list()).find((t) => t.id === tenantId) as AdminTenant;
  }

  /**
   * A new tenant with its branding, and its first administrator when given (the tenant takes no
   * sign-ups unless opened, so that account is how its people get in: the administrator adds them).
   */
  async create(input: TenantCreateInput): Promise<AdminTenant> {
    const { admin, ...tenant } = tenantCreateInput.parse(input);
    const first = admin && (await this.members.prepare({ ...admin, role: "admin" }));
    const id = await this.db.transaction(async (tx) => {
      const [row] = await tx.insert(tenants).values(tenant).onConflictDoNothing().returning({ id: tenants.id });
      if (!row) throw new AppError("tenantDomainTaken", 409);
      if (first) await this.members.insert(row.id, first, tx);
      return row.id;
    });
    return this.one(id);
  }

  /** A tenant's branding (its name, logo, colours and filing number); the domain stays, as its users' login address. */
  async setBranding(tenantId: string, input: TenantBrandingInput): Promise<AdminTenant> {
    const [row] = await this.db
      .update(tenants)
      .set(tenantBrandingInput.parse(input))
      .where(and(eq(tenants.id, tenantId), eq(tenants.isDefault, false)))
      .returning({ id: tenants.id });
    if (!row) throw new AppError("tenantNotFound", 404);
    return this.one(row.id);
  }

  /** Opens or closes a tenant's sign-ups (the default tenant, the public platform, is always open). */
  async setRegistration(tenantId: string, open: boolean): Promise<AdminTenant> {
    const [tenant] = await this.db
      .update(tenants)
      .set({ openRegistration: open })
      .where(and(eq(tenants.id, tenantId), eq(tenants.isDefault, false)))
      .returning({ id: tenants.id });
    if (!tenant) throw new AppError("tenantNotFound", 404);
    return this.one(tenant.id);
  }

  /**
   * Grants (admin) or revokes (member) the role of a tenant's user; it applies from the user's next
   * request. A grant also starts a stopped account: it is how a tenant whose administrators were all
   * stopped gets one back.
   */
  async setRole(tenantId: string, input: TenantRoleInput): Promise<AdminTenant> {
    const [tenant] = await this.db.select().from(tenants).where(eq(tenants.id, tenantId)).limit(1);
    if (!tenant) throw new AppError("tenantNotFound", 404);
    if (tenant.isDefault) throw badRequest("tenantAdminDefaultTenant");
    const [user] = await this.db
      .update(users)
      .set({ tenantRole: input.role, updatedAt: new Date(), ...(input.role === "admin" ? { disabledAt: null } : {}) })
      .where(and(eq(users.tenantId, tenant.id), eq(users.username, input.username)))
      .returning({ id: users.id });
    if (!user) throw new AppError("tenantUserNotFound", 404);
    // Cached identities (this process and the others) must not keep the old role.
    await this.platform.invalidate("user", user.id);
    return this.one(tenant.id);
  }
}
