import { and, count, desc, eq, gte, ilike, inArray, lte, or, type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { plugins, users } from "../../db/schema/index.ts";
import { containing } from "../../platform/sql.ts";

export type PluginRow = typeof plugins.$inferSelect;

export interface PluginFilter {
  /** Whose plugins: null for every plugin (administrators). */
  ownerId: string | null;
  /** Also the standard (built-in) tools. */
  withStandard: boolean;
  name?: string;
  types?: string[];
  status?: string;
  from?: Date;
  to?: Date;
}

/** The only place that touches the plugins table. Scoping is given by the service. */
export class ToolsRepository {
  constructor(private readonly db: Db) {}

  async byId(id: string) {
    const [row] = await this.db
      .select({ plugin: plugins, createdBy: users.username })
      .from(plugins)
      .innerJoin(users, eq(users.id, plugins.ownerId))
      .where(eq(plugins.id, id));
    return row;
  }

  async byIds(ids: string[]) {
    if (!ids.length) return [];
    return this.db.select().from(plugins).where(inArray(plugins.id, ids));
  }

  async page(filter: PluginFilter, pageNumber: number, pageSize: number) {
    const where: (SQL | undefined)[] = [];
    if (filter.ownerId)
      where.push(
        filter.withStandard ? or(eq(plugins.ownerId, filter.ownerId), eq(plugins.standard, true)) : eq(plugins.ownerId, filter.ownerId),
      );
    if (filter.name) where.push(ilike(plugins.pluginName, containing(filter.name)));
    if (filter.types) where.push(inArray(plugins.pluginType, filter.types));
    if (filter.status) where.push(eq(plugins.pluginStatus, filter.status));
    if (filter.from) where.push(gte(plugins.lastModifiedAt, filter.from));
    if (filter.to) where.push(lte(plugins.lastModifiedAt, filter.to));
    const cond = and(...where);
    const [list, [{ total }]] = await Promise.all([
      this.db
        .select({ plugin: plugins, createdBy: users.username })
        .from(plugins)
        .innerJoin(users, eq(users.id, plugins.ownerId))
        .where(cond)
        .orderBy(desc(plugins.lastModifiedAt), desc(plugins.id))
        .limit(pageSize)
        .offset(pageNumber * pageSize),
      this.db.select({ total: count() }).from(plugins).where(cond),
    ]);
    return { list, total: Number(total) };
  }

  async callableNameTaken(ownerId: string, name: string, exceptId?: string) {
    const rows = await this.db
      .select({ id: plugins.id })
      .from(plugins)
      .where(and(eq(plugins.ownerId, ownerId), sql`lower(${plugins.pluginCallableName}) = ${name.toLowerCase()}`));
    return rows.some((r) => r.id !== exceptId);
  }

  async tagsOf(ownerId: string) {
    const rows = await this.db
      .selectDistinct({ tag: sql<string>`jsonb_array_elements_text(${plugins.pluginTags})` })
      .from(plugins)
      .where(eq(plugins.ownerId, ownerId));
    return rows.map((r) => r.tag);
  }

  async insert(values: typeof plugins.$inferInsert) {
    const [row] = await this.db.insert(plugins).values(values).returning();
    return row;
  }

  async insertMany(tx: Tx, values: (typeof plugins.$inferInsert)[]) {
    return tx.insert(plugins).values(values).returning();
  }

  /** The owner's own (not built-in) plugins of these types. */
  async countOwn(tx: Tx, ownerId: string, types: readonly string[]) {
    const [{ n }] = await tx
      .select({ n: count() })
      .from(plugins)
      .where(and(eq(plugins.ownerId, ownerId), eq(plugins.standard, false), inArray(plugins.pluginType, [...types])));
    return Number(n);
  }

  async update(id: string, values: Partial<typeof plugins.$inferInsert>) {
    const [row] = await this.db.update(plugins).set(values).where(eq(plugins.id, id)).returning();
    return row;
  }

  /** Records the hash of a definition that passed a test (publishing compares it with the current one). */
  async markTested(id: string, hash: string) {
    await this.db.update(plugins).set({ testedHash: hash }).where(eq(plugins.id, id));
  }

  async remove(id: string) {
    await this.db.delete(plugins).where(eq(plugins.id, id));
  }
}
