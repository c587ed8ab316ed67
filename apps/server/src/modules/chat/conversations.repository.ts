import { and, count, desc, eq, gte, inArray, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { Caller } from "../../platform/auth.ts";
import { messageOrder } from "./chat.repository.ts";
import { chatMessages, chatSessions, chatTuning, ROBOT_GUEST_PASSWORD_HASH, robots, robotUsers, users } from "../../db/schema/index.ts";

export type TuningRow = typeof chatTuning.$inferSelect;

/** An agent as conversation details see it: whose it is, and where. */
export interface AgentAudience {
  ownerId: string;
  tenantId: string;
  /** On the public platform (the default tenant): its other users are strangers to the owner. */
  publicPlatform: boolean;
}

/**
 * The sessions of an agent its owner may read (the privacy rule, in one place):
 * - the owner's own (the web chat, MCP keys, scheduled tasks);
 * - the conversations of the owner's robots: their guest accounts, and the session a robot holds
 *   for a user who bound their account in it (the owner runs that channel);
 * - in an organisation's tenant, its members' sessions: the organisation's agent, and its members
 *   are told so on the chat page.
 * Never the sessions of the public platform's users or of other tenants (hirers of a listed agent):
 * those conversations are theirs alone.
 */
function visibleTo(agent: AgentAudience): SQL {
  const viaOwnersRobot = sql`exists (select 1 from ${robotUsers} join ${robots} on ${robots.id} = ${robotUsers.robotId}
    where ${robots.ownerId} = ${agent.ownerId}
      and (${robotUsers.sessionId} = ${chatSessions.id}
        or (${robotUsers.userId} = ${chatSessions.userId} and ${users.passwordHash} = ${ROBOT_GUEST_PASSWORD_HASH})))`;
  return or(
    eq(chatSessions.userId, agent.ownerId),
    viaOwnersRobot,
    agent.publicPlatform ? undefined : eq(chatSessions.tenantId, agent.tenantId),
  )!;
}

/** visibleTo's organisation clause for one member: the chat page tells them their conversations are readable. */
export function ownerReadsConversations(agent: { ownerId: string; tenantId: string }, caller: Caller) {
  return agent.ownerId !== caller.userId && agent.tenantId === caller.tenantId && !caller.tenantIsDefault;
}

/** An agent's sessions its owner may read (see visibleTo) with their totals, for conversation details. */
export class ConversationsRepository {
  constructor(private readonly db: Db) {}

  private totals() {
    return this.db
      .select({
        sessionId: chatMessages.sessionId,
        messages: count().as("messages"),
        inputTokens: sql<number>`coalesce(sum(${chatMessages.inputTokens}), 0)::int`.as("input_tokens"),
        outputTokens: sql<number>`coalesce(sum(${chatMessages.outputTokens}), 0)::int`.as("output_tokens"),
        likes: sql<number>`count(*) filter (where ${chatMessages.feedback} = 'like')::int`.as("likes"),
        dislikes: sql<number>`count(*) filter (where ${chatMessages.feedback} = 'dislike')::int`.as("dislikes"),
      })
      .from(chatMessages)
      .groupBy(chatMessages.sessionId)
      .as("totals");
  }

  /** Sessions active since `since` (their last message), newest first. */
  async page(agentId: string, agent: AgentAudience, since: Date, offset: number, limit: number) {
    const where = and(eq(chatSessions.agentId, agentId), gte(chatSessions.updatedAt, since), visibleTo(agent));
    const list = await this.rows(where, offset, limit);
    const [{ n }] = await this.db
      .select({ n: count() })
      .from(chatSessions)
      .innerJoin(users, eq(users.id, chatSessions.userId))
      .where(where);
    return { list, total: n };
  }

  async one(agentId: string, agent: AgentAudience, sessionId: string) {
    const [row] = await this.rows(and(eq(chatSessions.agentId, agentId), eq(chatSessions.id, sessionId), visibleTo(agent)), 0, 1);
    return row;
  }

  private rows(where: SQL | undefined, offset: number, limit: number) {
    const totals = this.totals();
    return this.db
      .select({
        session: chatSessions,
        username: users.username,
        nickname: users.nickname,
        messages: sql<number>`coalesce(${totals.messages}, 0)::int`,
        inputTokens: sql<number>`coalesce(${totals.inputTokens}, 0)::int`,
        outputTokens: sql<number>`coalesce(${totals.outputTokens}, 0)::int`,
        likes: sql<number>`coalesce(${totals.likes}, 0)::int`,
        dislikes: sql<number>`coalesce(${totals.dislikes}, 0)::int`,
      })
      .from(chatSessions)
      .innerJoin(users, eq(users.id, chatSessions.userId))
      .leftJoin(totals, eq(totals.sessionId, chatSessions.id))
      .where(where)
      .orderBy(desc(chatSessions.updatedAt), desc(chatSessions.id))
      .offset(offset)
      .limit(limit);
  }

  async session(id: string) {
    const [row] = await this.db.select().from(chatSessions).where(eq(chatSessions.id, id));
    return row;
  }

  async messagesOf(sessionIds: string[]) {
    if (!sessionIds.length) return [];
    return this.db
      .select()
      .from(chatMessages)
      .where(inArray(chatMessages.sessionId, sessionIds))
      .orderBy(...messageOrder);
  }

  async message(id: string) {
    const [row] = await this.db.select().from(chatMessages).where(eq(chatMessages.id, id));
    return row;
  }

  /** The question a reply answered: the user message just before it in its session. */
  async questionBefore(sessionId: string, at: Date) {
    const [row] = await this.db
      .select({ content: chatMessages.content })
      .from(chatMessages)
      .where(and(eq(chatMessages.sessionId, sessionId), eq(chatMessages.role, "user"), sql`${chatMessages.createdAt} <= ${at}`))
      .orderBy(desc(chatMessages.createdAt))
      .limit(1);
    return row?.content ?? "";
  }

  async setFeedback(id: string, feedback: string | null) {
    await this.db.update(chatMessages).set({ feedback }).where(eq(chatMessages.id, id));
  }

  /**
   * Tuning records copy a question and its reply, so they follow their session's visibility
   * (records kept of a conversation the owner may no longer read stay hidden with it).
   */
  private visibleTuning(where: SQL | undefined, agent: AgentAudience) {
    return this.db
      .select({ tuning: chatTuning })
      .from(chatTuning)
      .innerJoin(chatSessions, eq(chatSessions.id, chatTuning.sessionId))
      .innerJoin(users, eq(users.id, chatSessions.userId))
      .where(and(where, visibleTo(agent)));
  }

  async tuningOfAgent(agentId: string, agent: AgentAudience) {
    const rows = await this.visibleTuning(eq(chatTuning.agentId, agentId), agent).orderBy(desc(chatTuning.updatedAt));
    return rows.map((r) => r.tuning);
  }

  async tuningOfMessages(messageIds: string[]) {
    if (!messageIds.length) return [];
    return this.db.select().from(chatTuning).where(inArray(chatTuning.messageId, messageIds));
  }

  async tuning(agentId: string, agent: AgentAudience, id: string) {
    const [row] = await this.visibleTuning(and(eq(chatTuning.agentId, agentId), eq(chatTuning.id, id)), agent);
    return row?.tuning;
  }

  /** One record per reply: a second save edits it. */
  async saveTuning(row: typeof chatTuning.$inferInsert) {
    const [saved] = await this.db
      .insert(chatTuning)
      .values(row)
      .onConflictDoUpdate({
        target: chatTuning.messageId,
        set: { note: row.note, correctedAnswer: row.correctedAnswer, updatedAt: new Date() },
      })
      .returning();
    return saved;
  }

  async updateTuning(id: string, values: Partial<typeof chatTuning.$inferInsert>) {
    const [row] = await this.db.update(chatTuning).set(values).where(eq(chatTuning.id, id)).returning();
    return row;
  }

  async removeTuning(id: string) {
    await this.db.delete(chatTuning).where(eq(chatTuning.id, id));
  }
}
