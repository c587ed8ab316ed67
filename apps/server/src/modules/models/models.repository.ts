import { and, asc, desc, eq, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { models, platformSettings, rateCounters } from "../../db/schema/index.ts";

export type ModelRow = typeof models.$inferSelect;
export type NewModelRow = typeof models.$inferInsert;

/** The only place that touches the models tables. */
export class ModelsRepository {
  constructor(private readonly db: Db) {}

  /** Platform models plus, for a tenant, its own. */
  list(tenantId: string | null) {
    const scope = tenantId ? or(isNull(models.tenantId), eq(models.tenantId, tenantId)) : isNull(models.tenantId);
    return this.db.select().from(models).where(scope).orderBy(desc(models.isDefault), asc(models.createdAt));
  }

  /** A tenant's own models, without the platform's. */
  listOwn(tenantId: string) {
    return this.db.select().from(models).where(eq(models.tenantId, tenantId)).orderBy(desc(models.isDefault), asc(models.createdAt));
  }

  listAll() {
    return this.db.select().from(models).orderBy(desc(models.isDefault), asc(models.createdAt));
  }

  async get(id: string) {
    return (await this.db.select().from(models).where(eq(models.id, id)))[0];
  }

  async insert(row: NewModelRow) {
    return (await this.db.insert(models).values(row).returning())[0];
  }

  async update(id: string, patch: Partial<NewModelRow>) {
    return (await this.db.update(models).set(patch).where(eq(models.id, id)).returning())[0];
  }

  async remove(id: string) {
    await this.db.delete(models).where(eq(models.id, id));
  }

  /** Only one default per type and scope. */
  async clearDefault(type: string, tenantId: string | null, exceptId: string) {
    const scope = tenantId ? eq(models.tenantId, tenantId) : isNull(models.tenantId);
    await this.db
      .update(models)
      .set({ isDefault: false })
      .where(and(eq(models.type, type), scope, sql`${models.id} <> ${exceptId}`));
  }

  /** True the first time only: the env seed runs once per database, even across processes. */
  async claimSeed(key: "models_seeded" | "offline_models_seeded" | "offline_rerank_seeded"): Promise<boolean> {
    const rows = await this.db.insert(platformSettings).values({ key, value: "1" }).onConflictDoNothing().returning();
    return rows.length > 0;
  }

  /** Adds `amount` to a per-minute counter atomically; returns the new total. */
  async addToWindow(key: string, windowStart: Date, amount: number) {
    const rows = await this.db
      .insert(rateCounters)
      .values({ key, windowStart, count: amount })
      .onConflictDoUpdate({ target: [rateCounters.key, rateCounters.windowStart], set: { count: sql`${rateCounters.count} + ${amount}` } })
      .returning({ count: rateCounters.count });
    return rows[0].count;
  }

  async windowCount(key: string, windowStart: Date) {
    const rows = await this.db
      .select({ count: rateCounters.count })
      .from(rateCounters)
      .where(and(eq(rateCounters.key, key), eq(rateCounters.windowStart, windowStart)));
    return rows[0]?.count ?? 0;
  }
}
