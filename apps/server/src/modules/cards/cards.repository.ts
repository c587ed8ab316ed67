import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { cardBindings, cardTemplates } from "../../db/schema/index.ts";

export type CardRow = typeof cardTemplates.$inferSelect;

/** The only place that touches the card tables. Scoping is given by the service. */
export class CardsRepository {
  constructor(private readonly db: Db) {}

  byId(id: string) {
    return this.db
      .select()
      .from(cardTemplates)
      .where(eq(cardTemplates.id, id))
      .then((r) => r[0]);
  }

  listOf(ownerId: string, tenantId: string, limit: number) {
    return this.db
      .select()
      .from(cardTemplates)
      .where(and(eq(cardTemplates.ownerId, ownerId), eq(cardTemplates.tenantId, tenantId)))
      .orderBy(desc(cardTemplates.updatedAt), desc(cardTemplates.id))
      .limit(limit);
  }

  async countOf(ownerId: string, tx: Tx = this.db) {
    const [{ n }] = await tx.select({ n: count() }).from(cardTemplates).where(eq(cardTemplates.ownerId, ownerId));
    return n;
  }

  async insert(row: typeof cardTemplates.$inferInsert, tx: Tx = this.db) {
    return (await tx.insert(cardTemplates).values(row).returning())[0];
  }

  async update(id: string, patch: Partial<typeof cardTemplates.$inferInsert>) {
    return (await this.db.update(cardTemplates).set(patch).where(eq(cardTemplates.id, id)).returning())[0];
  }

  async remove(id: string) {
    await this.db.delete(cardTemplates).where(eq(cardTemplates.id, id));
  }

  /** Plugin ids bound to each of these cards. */
  async pluginsOf(cardIds: string[]) {
    if (!cardIds.length) return new Map<string, string[]>();
    const rows = await this.db.select().from(cardBindings).where(inArray(cardBindings.cardId, cardIds));
    const out = new Map<string, string[]>();
    for (const r of rows) out.set(r.cardId, [...(out.get(r.cardId) ?? []), r.pluginId]);
    return out;
  }

  async bindingOf(pluginId: string) {
    return (await this.db.select().from(cardBindings).where(eq(cardBindings.pluginId, pluginId)))[0];
  }

  /** The bound card of each of these plugins, with its template. */
  async cardsOfPlugins(pluginIds: string[]) {
    if (!pluginIds.length) return [];
    return this.db
      .select({ pluginId: cardBindings.pluginId, card: cardTemplates })
      .from(cardBindings)
      .innerJoin(cardTemplates, eq(cardTemplates.id, cardBindings.cardId))
      .where(inArray(cardBindings.pluginId, pluginIds));
  }

  async bind(pluginId: string, cardId: string) {
    await this.db.insert(cardBindings).values({ pluginId, cardId }).onConflictDoUpdate({ target: cardBindings.pluginId, set: { cardId } });
  }

  async unbind(pluginId: string) {
    await this.db.delete(cardBindings).where(eq(cardBindings.pluginId, pluginId));
  }
}
