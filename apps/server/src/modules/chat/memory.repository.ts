import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { chatMemory } from "../../db/schema/index.ts";

export type MemoryRow = typeof chatMemory.$inferSelect;

/** The only place that touches chat_memory; every query names the user. */
export class MemoryRepository {
  constructor(private readonly db: Db) {}

  /** The user's values of an agent: user-wide ones ('') and, given a session, that session's. */
  values(agentId: string, userId: string, sessionId: string | null) {
    return this.db
      .select()
      .from(chatMemory)
      .where(
        and(
          eq(chatMemory.agentId, agentId),
          eq(chatMemory.userId, userId),
          inArray(chatMemory.sessionId, sessionId ? ["", sessionId] : [""]),
        ),
      );
  }

  async set(row: { agentId: string; userId: string; sessionId: string; name: string; value: string }) {
    await this.db
      .insert(chatMemory)
      .values(row)
      .onConflictDoUpdate({
        target: [chatMemory.agentId, chatMemory.userId, chatMemory.sessionId, chatMemory.name],
        set: { value: row.value, updatedAt: new Date() },
      });
  }

  /** Back to the defaults: the named variables of one scope key. */
  async reset(agentId: string, userId: string, keys: { sessionId: string; name: string }[]) {
    for (const k of keys)
      await this.db
        .delete(chatMemory)
        .where(
          and(
            eq(chatMemory.agentId, agentId),
            eq(chatMemory.userId, userId),
            eq(chatMemory.sessionId, k.sessionId),
            eq(chatMemory.name, k.name),
          ),
        );
  }

  async forgetSession(userId: string, sessionId: string) {
    await this.db.delete(chatMemory).where(and(eq(chatMemory.userId, userId), eq(chatMemory.sessionId, sessionId)));
  }
}
