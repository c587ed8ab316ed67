import { and, count, desc, eq, ilike, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { designBindings, designs } from "../../db/schema/index.ts";
import { containing } from "../../platform/sql.ts";

export type DesignRow = typeof designs.$inferSelect;

/** The only place that touches the designs table; the service says whose rows. */
export class DesignerRepository {
  constructor(private readonly db: Db) {}

  async byId(id: string) {
    const [row] = await this.db.select().from(designs).where(eq(designs.id, id));
    return row;
  }

  async page(owner: { ownerId: string; tenantId: string }, name: string | undefined, page: number, limit: number) {
    const cond = and(
      eq(designs.ownerId, owner.ownerId),
      eq(designs.tenantId, owner.tenantId),
      name ? ilike(designs.name, containing(name)) : undefined,
    );
    const [list, [{ total }]] = await Promise.all([
      this.db
        .select()
        .from(designs)
        .where(cond)
        .orderBy(desc(designs.updatedAt), desc(designs.id))
        .limit(limit)
        .offset((page - 1) * limit),
      this.db.select({ total: count() }).from(designs).where(cond),
    ]);
    return { list, total: Number(total) };
  }

  async insert(values: typeof designs.$inferInsert) {
    const [row] = await this.db.insert(designs).values(values).returning();
    return row;
  }

  async update(id: string, values: Partial<typeof designs.$inferInsert>) {
    const [row] = await this.db
      .update(designs)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(designs.id, id))
      .returning();
    return row;
  }

  async pluginIdsOf(designId: string) {
    const rows = await this.db
      .select({ pluginId: designBindings.pluginId })
      .from(designBindings)
      .where(eq(designBindings.designId, designId));
    return rows.map((r) => r.pluginId);
  }

  /** The design bound to each of these plugins. */
  async designsOfPlugins(pluginIds: string[]) {
    if (!pluginIds.length) return [];
    return this.db
      .select({ pluginId: designBindings.pluginId, design: designs })
      .from(designBindings)
      .innerJoin(designs, eq(designs.id, designBindings.designId))
      .where(inArray(designBindings.pluginId, pluginIds));
  }

  /** The design's tools become exactly these (a tool bound to another design moves here). */
  async setBindings(designId: string, pluginIds: string[]) {
    await this.db.transaction(async (tx) => {
      await tx.delete(designBindings).where(eq(designBindings.designId, designId));
      for (const pluginId of pluginIds)
        await tx
          .insert(designBindings)
          .values({ pluginId, designId })
          .onConflictDoUpdate({ target: designBindings.pluginId, set: { designId } });
    });
  }

  async remove(id: string) {
    await this.db.delete(designs).where(eq(designs.id, id));
  }
}
