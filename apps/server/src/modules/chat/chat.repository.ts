import { and, asc, count, desc, eq, gte, ilike, isNull, lte, sql } from "drizzle-orm";
import type { InsightStepItem } from "@agentfair/contracts";
import { type Db, withoutNul } from "../../db/client.ts";
import { chatMessages, chatSessions, chatShares, chatUsage } from "../../db/schema/index.ts";
import { containing } from "../../platform/sql.ts";

export type SessionRow = typeof chatSessions.$inferSelect;
export type MessageRow = typeof chatMessages.$inferSelect;
export type NewMessageRow = typeof chatMessages.$inferInsert;

/**
 * A session's messages in the order they were said. A question and its reply can be written within
 * one tick of the database's clock (PGlite's is coarse): then the question comes first.
 */
export const messageOrder = [asc(chatMessages.createdAt), sql`${chatMessages.role} = 'bot'`] as const;

/** The only place that touches the chat tables; every session query is scoped by its user. */
export class ChatRepository {
  constructor(private readonly db: Db) {}

  /** Inserts the session unless its id is taken; undefined when it was. */
  async createSessionIfFree(row: typeof chatSessions.$inferInsert) {
    return (await this.db.insert(chatSessions).values(withoutNul(row)).onConflictDoNothing().returning())[0];
  }

  async session(id: string) {
    return (await this.db.select().from(chatSessions).where(eq(chatSessions.id, id)))[0];
  }

  async listSessions(
    userId: string,
    q: { page: number; size: number; search?: string; start?: Date; end?: Date; agentId?: string; release?: boolean },
  ) {
    const where = and(
      eq(chatSessions.userId, userId),
      q.agentId ? eq(chatSessions.agentId, q.agentId) : undefined,
      q.release === undefined ? undefined : eq(chatSessions.release, q.release),
      q.search ? ilike(chatSessions.title, containing(q.search)) : undefined,
      q.start ? gte(chatSessions.updatedAt, q.start) : undefined,
      q.end ? lte(chatSessions.updatedAt, q.end) : undefined,
    );
    const [list, [{ total }]] = await Promise.all([
      this.db
        .select()
        .from(chatSessions)
        .where(where)
        .orderBy(desc(chatSessions.updatedAt))
        .limit(q.size)
        .offset((q.page - 1) * q.size),
      this.db.select({ total: count() }).from(chatSessions).where(where),
    ]);
    return { list, total };
  }

  async setTitle(id: string, title: string) {
    await this.db
      .update(chatSessions)
      .set({ title: withoutNul(title), titled: true })
      .where(eq(chatSessions.id, id));
  }

  /** Titles a session by its first question, once. */
  async titleIfUntitled(id: string, title: string) {
    await this.db
      .update(chatSessions)
      .set({ title: withoutNul(title), titled: true })
      .where(and(eq(chatSessions.id, id), eq(chatSessions.titled, false)));
  }

  async deleteSession(id: string) {
    await this.db.delete(chatSessions).where(eq(chatSessions.id, id));
  }

  async clearMessages(sessionId: string) {
    await this.db.delete(chatMessages).where(eq(chatMessages.sessionId, sessionId));
  }

  messages(sessionId: string) {
    return this.db
      .select()
      .from(chatMessages)
      .where(eq(chatMessages.sessionId, sessionId))
      .orderBy(...messageOrder);
  }

  async insertMessage(row: NewMessageRow) {
    return (await this.db.insert(chatMessages).values(withoutNul(row)).returning())[0];
  }

  /** A new session with its first question, in one statement (one round trip fewer per new chat). */
  async createSessionWith(session: typeof chatSessions.$inferInsert, question: NewMessageRow) {
    // getSQL(): a query builder placed in sql`` is wrapped in parentheses, which WITH does not take.
    const insertSession = this.db.insert(chatSessions).values(withoutNul(session)).getSQL();
    await this.db.execute(sql`with s as (${insertSession}) ${this.db.insert(chatMessages).values(withoutNul(question)).getSQL()}`);
  }

  async touch(id: string) {
    await this.db.update(chatSessions).set({ updatedAt: new Date() }).where(eq(chatSessions.id, id));
  }

  async setInsightStep(id: string, insightStep: InsightStepItem[]) {
    await this.db.update(chatMessages).set({ insightStep }).where(eq(chatMessages.id, id));
  }

  async deleteMessage(id: string) {
    await this.db.delete(chatMessages).where(eq(chatMessages.id, id));
  }

  async countReplies(userId: string, agentId: string) {
    const [row] = await this.db
      .select({ n: count() })
      .from(chatMessages)
      .innerJoin(chatSessions, eq(chatSessions.id, chatMessages.sessionId))
      .where(and(eq(chatSessions.userId, userId), eq(chatSessions.agentId, agentId), eq(chatMessages.role, "bot")));
    return row?.n ?? 0;
  }

  async createShare(sessionId: string, userId: string) {
    return (await this.db.insert(chatShares).values({ sessionId, userId }).returning())[0];
  }

  /** The session's newest share that was not revoked. */
  async liveShare(sessionId: string) {
    return (
      await this.db
        .select()
        .from(chatShares)
        .where(and(eq(chatShares.sessionId, sessionId), isNull(chatShares.revokedAt)))
        .orderBy(desc(chatShares.createdAt))
        .limit(1)
    )[0];
  }

  async share(id: string) {
    return (
      await this.db
        .select()
        .from(chatShares)
        .where(and(eq(chatShares.id, id), isNull(chatShares.revokedAt)))
    )[0];
  }

  async revokeShares(sessionId: string) {
    await this.db
      .update(chatShares)
      .set({ revokedAt: new Date() })
      .where(and(eq(chatShares.sessionId, sessionId), isNull(chatShares.revokedAt)));
  }

  /** Adds the seconds since the last heartbeat (at most one interval) to the user's usage row. */
  async heartbeat(
    row: { userId: string; agentId: string; sessionId: string | null; types: string | null; tags: string | null; categorys: string | null },
    maxSeconds: number,
  ) {
    const where = and(
      eq(chatUsage.userId, row.userId),
      eq(chatUsage.agentId, row.agentId),
      row.sessionId ? eq(chatUsage.sessionId, row.sessionId) : isNull(chatUsage.sessionId),
    );
    const updated = await this.db
      .update(chatUsage)
      .set({
        seconds: sql`${chatUsage.seconds} + least(${maxSeconds}, greatest(0, extract(epoch from now() - ${chatUsage.lastSeenAt}))::int)`,
        lastSeenAt: new Date(),
        types: row.types,
        tags: row.tags,
        categorys: row.categorys,
      })
      .where(where)
      .returning({ seconds: chatUsage.seconds });
    if (updated.length) return updated[0].seconds;
    await this.db.insert(chatUsage).values({ ...row, seconds: 0 });
    return 0;
  }
}
