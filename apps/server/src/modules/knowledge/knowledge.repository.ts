import { and, count, desc, eq, ilike, inArray, isNull, lt, max, ne, type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { knowledgeBases, knowledgeFiles, knowledgeFolders, knowledgeSegments } from "../../db/schema/index.ts";
import { containing } from "../../platform/sql.ts";

export type BaseRow = typeof knowledgeBases.$inferSelect;
export type FolderRow = typeof knowledgeFolders.$inferSelect;
export type KnowledgeFileRow = typeof knowledgeFiles.$inferSelect;
export type SegmentRow = Omit<typeof knowledgeSegments.$inferSelect, "tsv">;
export type SegmentInsert = Omit<typeof knowledgeSegments.$inferInsert, "tsv">;

/** Segment columns without the tsvector (never read by the application). */
const segmentColumns = {
  id: knowledgeSegments.id,
  baseId: knowledgeSegments.baseId,
  fileId: knowledgeSegments.fileId,
  parseNo: knowledgeSegments.parseNo,
  ingestVersion: knowledgeSegments.ingestVersion,
  position: knowledgeSegments.position,
  content: knowledgeSegments.content,
  title: knowledgeSegments.title,
  question: knowledgeSegments.question,
  answer: knowledgeSegments.answer,
  tokens: knowledgeSegments.tokens,
  enabled: knowledgeSegments.enabled,
  edited: knowledgeSegments.edited,
  headTerms: knowledgeSegments.headTerms,
  bodyTerms: knowledgeSegments.bodyTerms,
  createdAt: knowledgeSegments.createdAt,
  updatedAt: knowledgeSegments.updatedAt,
};

export const rowsOf = <T>(result: unknown): T[] => ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];

export class KnowledgeRepository {
  constructor(private readonly db: Db) {}

  // ---- bases ----------------------------------------------------------------------------------

  async base(id: string): Promise<BaseRow | undefined> {
    const [row] = await this.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, id));
    return row;
  }

  async basesByIds(ids: string[]): Promise<BaseRow[]> {
    if (!ids.length) return [];
    return this.db.select().from(knowledgeBases).where(inArray(knowledgeBases.id, ids));
  }

  async pageBases(q: { ownerId?: string; tenantId?: string; name?: string; page: number; limit: number }) {
    const conditions: SQL[] = [];
    if (q.ownerId) conditions.push(eq(knowledgeBases.ownerId, q.ownerId));
    if (q.tenantId) conditions.push(eq(knowledgeBases.tenantId, q.tenantId));
    if (q.name) conditions.push(ilike(knowledgeBases.name, containing(q.name)));
    const where = conditions.length ? and(...conditions) : undefined;
    const [{ total }] = await this.db.select({ total: count() }).from(knowledgeBases).where(where);
    const list = await this.db
      .select()
      .from(knowledgeBases)
      .where(where)
      .orderBy(desc(knowledgeBases.createdAt), knowledgeBases.id)
      .limit(q.limit)
      .offset((q.page - 1) * q.limit);
    return { list, total };
  }

  async insertBase(values: typeof knowledgeBases.$inferInsert) {
    const [row] = await this.db.insert(knowledgeBases).values(values).returning();
    return row;
  }

  async updateBase(id: string, values: Partial<typeof knowledgeBases.$inferInsert>) {
    const [row] = await this.db
      .update(knowledgeBases)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(knowledgeBases.id, id))
      .returning();
    return row;
  }

  async touchBase(id: string, tx: Tx = this.db) {
    await tx.update(knowledgeBases).set({ updatedAt: new Date() }).where(eq(knowledgeBases.id, id));
  }

  async deleteBases(ids: string[]) {
    if (ids.length) await this.db.delete(knowledgeBases).where(inArray(knowledgeBases.id, ids));
  }

  // ---- folders --------------------------------------------------------------------------------

  async folders(baseId: string) {
    return this.db.select().from(knowledgeFolders).where(eq(knowledgeFolders.baseId, baseId)).orderBy(knowledgeFolders.name);
  }

  async folder(id: string): Promise<FolderRow | undefined> {
    const [row] = await this.db.select().from(knowledgeFolders).where(eq(knowledgeFolders.id, id));
    return row;
  }

  async folderByName(baseId: string, name: string, exceptId?: string) {
    const [row] = await this.db
      .select()
      .from(knowledgeFolders)
      .where(
        and(eq(knowledgeFolders.baseId, baseId), eq(knowledgeFolders.name, name), exceptId ? ne(knowledgeFolders.id, exceptId) : undefined),
      );
    return row;
  }

  async insertFolder(values: typeof knowledgeFolders.$inferInsert) {
    const [row] = await this.db.insert(knowledgeFolders).values(values).returning();
    return row;
  }

  async renameFolder(id: string, name: string) {
    await this.db.update(knowledgeFolders).set({ name }).where(eq(knowledgeFolders.id, id));
  }

  async deleteFolder(id: string) {
    await this.db.delete(knowledgeFolders).where(eq(knowledgeFolders.id, id));
  }

  // ---- files ----------------------------------------------------------------------------------

  async files(baseId: string) {
    return this.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.baseId, baseId)).orderBy(desc(knowledgeFiles.createdAt));
  }

  async file(id: string): Promise<KnowledgeFileRow | undefined> {
    const [row] = await this.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.id, id));
    return row;
  }

  /** File id → name, for the files given. */
  async fileNames(ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await this.db
      .select({ id: knowledgeFiles.id, name: knowledgeFiles.name })
      .from(knowledgeFiles)
      .where(inArray(knowledgeFiles.id, ids));
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  async insertFile(values: typeof knowledgeFiles.$inferInsert, tx: Tx = this.db) {
    const [row] = await tx.insert(knowledgeFiles).values(values).returning();
    return row;
  }

  /**
   * The bytes an owner keeps in all their bases, what the plan's knowledge space limits: the files as
   * uploaded, and the text not taken from a file (Q&A pairs, CSV imports, segments added by hand).
   */
  async usedBytes(ownerId: string, tx: Tx = this.db): Promise<number> {
    const owned = tx.select({ id: knowledgeBases.id }).from(knowledgeBases).where(eq(knowledgeBases.ownerId, ownerId));
    const [files] = await tx
      .select({ n: sql<string>`coalesce(sum(${knowledgeFiles.size}), 0)` })
      .from(knowledgeFiles)
      .where(inArray(knowledgeFiles.baseId, owned));
    const [text] = await tx
      .select({
        n: sql<string>`coalesce(sum(octet_length(${knowledgeSegments.content}) + coalesce(octet_length(${knowledgeSegments.question}), 0)), 0)`,
      })
      .from(knowledgeSegments)
      .where(and(inArray(knowledgeSegments.baseId, owned), isNull(knowledgeSegments.fileId)));
    return Number(files?.n ?? 0) + Number(text?.n ?? 0);
  }

  async updateFile(id: string, values: Partial<typeof knowledgeFiles.$inferInsert>, onlyParseNo?: number) {
    const where =
      onlyParseNo === undefined ? eq(knowledgeFiles.id, id) : and(eq(knowledgeFiles.id, id), eq(knowledgeFiles.parseNo, onlyParseNo));
    const [row] = await this.db
      .update(knowledgeFiles)
      .set({ ...values, updatedAt: new Date() })
      .where(where)
      .returning();
    return row;
  }

  /** Starts a new parse of a file: the next parse number, queued. */
  async beginParse(id: string, options: Record<string, unknown>) {
    const [row] = await this.db
      .update(knowledgeFiles)
      .set({
        parseNo: sql`${knowledgeFiles.parseNo} + 1`,
        state: "QUEUING",
        progress: 0,
        error: null,
        options,
        committed: true,
        updatedAt: new Date(),
      })
      .where(eq(knowledgeFiles.id, id))
      .returning();
    return row;
  }

  async deleteFile(id: string) {
    await this.db.delete(knowledgeFiles).where(eq(knowledgeFiles.id, id));
  }

  async segmentCounts(baseId: string): Promise<Map<string, number>> {
    const rows = await this.db
      .select({ fileId: knowledgeSegments.fileId, n: count() })
      .from(knowledgeSegments)
      .where(eq(knowledgeSegments.baseId, baseId))
      .groupBy(knowledgeSegments.fileId);
    return new Map(rows.map((r) => [r.fileId ?? "", Number(r.n)]));
  }

  // ---- segments -------------------------------------------------------------------------------

  /** Idempotent: a segment whose id (file, parse, ingest version, position) is stored already is skipped. */
  async insertSegments(rows: SegmentInsert[], tx: Tx = this.db) {
    for (let i = 0; i < rows.length; i += 500) {
      await tx
        .insert(knowledgeSegments)
        .values(rows.slice(i, i + 500))
        .onConflictDoNothing({ target: knowledgeSegments.id });
    }
  }

  /** After a re-parse: the earlier parses' segments go, except those edited by hand. */
  async dropEarlierParses(fileId: string, parseNo: number) {
    await this.db
      .delete(knowledgeSegments)
      .where(and(eq(knowledgeSegments.fileId, fileId), lt(knowledgeSegments.parseNo, parseNo), eq(knowledgeSegments.edited, false)));
  }

  async segment(id: string): Promise<SegmentRow | undefined> {
    const [row] = await this.db.select(segmentColumns).from(knowledgeSegments).where(eq(knowledgeSegments.id, id));
    return row;
  }

  async pageSegments(baseId: string, q: { fileId?: string; qa?: boolean; page: number; limit: number }) {
    const where = and(
      eq(knowledgeSegments.baseId, baseId),
      q.fileId ? eq(knowledgeSegments.fileId, q.fileId) : undefined,
      q.qa ? sql`${knowledgeSegments.question} is not null` : undefined,
    );
    const [{ total }] = await this.db.select({ total: count() }).from(knowledgeSegments).where(where);
    const list = await this.db
      .select(segmentColumns)
      .from(knowledgeSegments)
      .where(where)
      .orderBy(knowledgeSegments.fileId, knowledgeSegments.position, knowledgeSegments.id)
      .limit(q.limit)
      .offset((q.page - 1) * q.limit);
    return { list, total };
  }

  async nextPosition(baseId: string, fileId: string | null) {
    const [{ last }] = await this.db
      .select({ last: max(knowledgeSegments.position) })
      .from(knowledgeSegments)
      .where(and(eq(knowledgeSegments.baseId, baseId), fileId ? eq(knowledgeSegments.fileId, fileId) : isNull(knowledgeSegments.fileId)));
    return (last ?? -1) + 1;
  }

  async updateSegment(id: string, values: Partial<SegmentInsert>, tx: Tx = this.db) {
    await tx
      .update(knowledgeSegments)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(knowledgeSegments.id, id));
  }

  async deleteSegment(id: string) {
    await this.db.delete(knowledgeSegments).where(eq(knowledgeSegments.id, id));
  }

  /** Segments of bases that have no vector of this model yet (what an embedding pass still has to do). */
  async segmentsWithoutVector(baseIds: string[], modelKey: string, limit: number, fileId?: string) {
    return rowsOf<{ id: string; base_id: string; content: string; title: string | null; question: string | null }>(
      await this.db.execute(sql`
        select s.id, s.base_id, s.content, s.title, s.question from knowledge_segments s
        where s.base_id in ${baseIds} ${fileId ? sql`and s.file_id = ${fileId}` : sql``}
          and not exists (select 1 from knowledge_vectors v where v.segment_id = s.id and v.model_key = ${modelKey})
        order by s.file_id, s.position limit ${limit}`),
    );
  }

  async segmentCountOfBases(baseIds: string[], fileId?: string) {
    const [{ n }] = await this.db
      .select({ n: count() })
      .from(knowledgeSegments)
      .where(and(inArray(knowledgeSegments.baseId, baseIds), fileId ? eq(knowledgeSegments.fileId, fileId) : undefined));
    return Number(n);
  }

  async filesOfBases(baseIds: string[]) {
    if (!baseIds.length) return [];
    return this.db.select().from(knowledgeFiles).where(inArray(knowledgeFiles.baseId, baseIds));
  }
}
