import { and, asc, count, desc, eq, inArray, isNull, lt } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { mcpKeys, mcpOutbox, mcpSessions } from "../../db/schema/index.ts";

export type McpKeyRow = typeof mcpKeys.$inferSelect;
export type McpSessionRow = typeof mcpSessions.$inferSelect;

export class ChannelsRepository {
  constructor(private readonly db: Db) {}

  async insertKey(values: typeof mcpKeys.$inferInsert, tx: Tx = this.db) {
    const [row] = await tx.insert(mcpKeys).values(values).returning();
    return row;
  }

  async countLive(agentId: string, tx: Tx = this.db) {
    const [{ n }] = await tx
      .select({ n: count() })
      .from(mcpKeys)
      .where(and(eq(mcpKeys.agentId, agentId), isNull(mcpKeys.revokedAt)));
    return n;
  }

  liveKeys(agentId: string) {
    return this.db
      .select()
      .from(mcpKeys)
      .where(and(eq(mcpKeys.agentId, agentId), isNull(mcpKeys.revokedAt)))
      .orderBy(desc(mcpKeys.createdAt));
  }

  async keyByHash(keyHash: string) {
    const [row] = await this.db.select().from(mcpKeys).where(eq(mcpKeys.keyHash, keyHash)).limit(1);
    return row;
  }

  async updateKey(agentId: string, id: string, set: Partial<typeof mcpKeys.$inferInsert>) {
    const values = Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined));
    if (!Object.keys(values).length) {
      const [row] = await this.db
        .select()
        .from(mcpKeys)
        .where(and(eq(mcpKeys.id, id), eq(mcpKeys.agentId, agentId), isNull(mcpKeys.revokedAt)));
      return row;
    }
    const [row] = await this.db
      .update(mcpKeys)
      .set(values)
      .where(and(eq(mcpKeys.id, id), eq(mcpKeys.agentId, agentId), isNull(mcpKeys.revokedAt)))
      .returning();
    return row;
  }

  /** Revoking ends the key's sessions too. */
  async revokeKey(agentId: string, id: string) {
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .update(mcpKeys)
        .set({ revokedAt: new Date() })
        .where(and(eq(mcpKeys.id, id), eq(mcpKeys.agentId, agentId), isNull(mcpKeys.revokedAt)))
        .returning({ id: mcpKeys.id });
      if (rows.length) await tx.delete(mcpSessions).where(eq(mcpSessions.keyId, id));
      return rows.length > 0;
    });
  }

  async touchKey(id: string) {
    await this.db.update(mcpKeys).set({ lastUsedAt: new Date() }).where(eq(mcpKeys.id, id));
  }

  // ---- sessions ----------------------------------------------------------------------------------

  async createSession(values: { agentId: string; keyId: string; transport: "http" | "sse" }) {
    const [row] = await this.db.insert(mcpSessions).values(values).returning();
    return row;
  }

  /** The session of this agent and key, marked seen; undefined when it is gone. */
  async seeSession(id: string, agentId: string, keyId: string) {
    const [row] = await this.db
      .update(mcpSessions)
      .set({ lastSeenAt: new Date() })
      .where(and(eq(mcpSessions.id, id), eq(mcpSessions.agentId, agentId), eq(mcpSessions.keyId, keyId)))
      .returning();
    return row;
  }

  /** False when the session is gone (its key revoked, or purged). */
  async touchSession(id: string) {
    const rows = await this.db
      .update(mcpSessions)
      .set({ lastSeenAt: new Date() })
      .where(eq(mcpSessions.id, id))
      .returning({ id: mcpSessions.id });
    return rows.length > 0;
  }

  async deleteSession(id: string) {
    await this.db.delete(mcpSessions).where(eq(mcpSessions.id, id));
  }

  async purgeSessions(seenBefore: Date) {
    await this.db.delete(mcpSessions).where(lt(mcpSessions.lastSeenAt, seenBefore));
  }

  // ---- SSE outbox --------------------------------------------------------------------------------

  async enqueue(sessionId: string, messages: Record<string, unknown>[]) {
    if (messages.length) await this.db.insert(mcpOutbox).values(messages.map((message) => ({ sessionId, message })));
  }

  /** Takes the waiting replies of the sessions (each read by one process only: they are deleted). */
  async takeOutbox(sessionIds: string[]) {
    if (!sessionIds.length) return [];
    return this.db.transaction(async (tx) => {
      const rows = await tx.select().from(mcpOutbox).where(inArray(mcpOutbox.sessionId, sessionIds)).orderBy(asc(mcpOutbox.id));
      if (rows.length)
        await tx.delete(mcpOutbox).where(
          inArray(
            mcpOutbox.id,
            rows.map((r) => r.id),
          ),
        );
      return rows;
    });
  }
}
