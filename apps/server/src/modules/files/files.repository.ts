import { and, count, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { files } from "../../db/schema/index.ts";

export type FileRow = typeof files.$inferSelect;

export class FilesRepository {
  constructor(private readonly db: Db) {}

  async insert(values: typeof files.$inferInsert) {
    const [row] = await this.db.insert(files).values(values).returning();
    return row;
  }

  async byId(id: string): Promise<FileRow | undefined> {
    const [row] = await this.db.select().from(files).where(eq(files.id, id));
    return row;
  }

  async delete(id: string) {
    await this.db.delete(files).where(eq(files.id, id));
  }

  async page(ownerId: string, kind: string, pageNumber: number, pageSize: number) {
    const where = and(eq(files.ownerId, ownerId), eq(files.kind, kind));
    const [{ total }] = await this.db.select({ total: count() }).from(files).where(where);
    const list = await this.db
      .select()
      .from(files)
      .where(where)
      .orderBy(desc(files.createdAt), files.id)
      .limit(pageSize)
      .offset(pageNumber * pageSize);
    return { list, total };
  }
}
