import type { TenantInfo } from "@agentfair/contracts";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { tenants } from "../../db/schema/index.ts";
import { AppError } from "../../platform/errors.ts";

export type Tenant = typeof tenants.$inferSelect;

export class TenantsService {
  constructor(private readonly db: Db) {}

  async defaultTenant(): Promise<Tenant> {
    const rows = await this.db.select().from(tenants).where(eq(tenants.isDefault, true)).limit(1);
    if (!rows[0]) throw new Error("the default tenant is missing");
    return rows[0];
  }

  /** An empty domain (or the default tenant's own) selects the default tenant. */
  async byDomain(domain: string | undefined): Promise<Tenant> {
    const d = domain?.trim().toLowerCase();
    if (!d) return this.defaultTenant();
    const rows = await this.db.select().from(tenants).where(eq(tenants.domain, d)).limit(1);
    if (!rows[0]) throw new AppError("tenantNotFound", 404);
    return rows[0];
  }

  async ensureDefault() {
    const rows = await this.db.select().from(tenants).where(eq(tenants.isDefault, true)).limit(1);
    if (rows[0]) return rows[0];
    const [created] = await this.db
      .insert(tenants)
      .values({ domain: "default", name: "Agentfair 智能体平台", isDefault: true })
      .onConflictDoNothing()
      .returning();
    return created ?? this.defaultTenant();
  }

  static info(t: Tenant): TenantInfo {
    return {
      tenantId: t.isDefault ? null : t.id,
      domain: t.isDefault ? "" : t.domain,
      name: t.name,
      logo: t.logo,
      primaryColor: t.primaryColor,
      backgroundColor: t.backgroundColor,
      recordFiling: t.recordFiling,
      openRegistration: t.isDefault || t.openRegistration,
    };
  }
}
