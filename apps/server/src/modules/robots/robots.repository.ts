import { and, asc, desc, eq, gt, isNull, notExists, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../db/client.ts";
import { agents, ROBOT_GUEST_PASSWORD_HASH, robotBindCodes, robotMessages, robotUsers, robots, users } from "../../db/schema/index.ts";

export type RobotRow = typeof robots.$inferSelect;
export type NewRobotRow = typeof robots.$inferInsert;
export type RobotMessageRow = typeof robotMessages.$inferSelect;

/** The only place that touches the robot tables. */
export class RobotsRepository {
  constructor(private readonly db: Db) {}

  listOf(ownerId: string, tenantId: string) {
    return this.db
      .select({ robot: robots, agentName: agents.agentName })
      .from(robots)
      .leftJoin(agents, eq(agents.id, robots.agentId))
      .where(and(eq(robots.ownerId, ownerId), eq(robots.tenantId, tenantId)))
      .orderBy(desc(robots.createdAt));
  }

  async get(id: string) {
    return (await this.db.select().from(robots).where(eq(robots.id, id)))[0];
  }

  async agentName(agentId: string) {
    return (await this.db.select({ name: agents.agentName }).from(agents).where(eq(agents.id, agentId)))[0]?.name ?? "";
  }

  async insert(row: NewRobotRow) {
    return (await this.db.insert(robots).values(row).returning())[0];
  }

  async update(id: string, patch: Partial<NewRobotRow>) {
    return (await this.db.update(robots).set(patch).where(eq(robots.id, id)).returning())[0];
  }

  async remove(id: string) {
    await this.db.delete(robots).where(eq(robots.id, id));
  }

  /** The message row, or undefined when this message id was seen before (a retried callback): one statement decides. */
  async claimMessage(row: typeof robotMessages.$inferInsert) {
    return (await this.db.insert(robotMessages).values(row).onConflictDoNothing().returning())[0];
  }

  async messageByExternalId(robotId: string, externalId: string) {
    return (
      await this.db
        .select()
        .from(robotMessages)
        .where(and(eq(robotMessages.robotId, robotId), eq(robotMessages.externalId, externalId)))
    )[0];
  }

  async message(id: string) {
    return (await this.db.select().from(robotMessages).where(eq(robotMessages.id, id)))[0];
  }

  /** A robot user's latest message (where a DingTalk robot can still reach them). */
  async lastMessageOf(robotId: string, externalUserId: string) {
    const [row] = await this.db
      .select()
      .from(robotMessages)
      .where(and(eq(robotMessages.robotId, robotId), eq(robotMessages.externalUserId, externalUserId)))
      .orderBy(desc(robotMessages.createdAt))
      .limit(1);
    return row;
  }

  /**
   * Claims the message for a reply job unless an earlier message of the same robot user is still
   * unanswered (one statement decides, so two jobs never both go). A retry of the claiming job claims
   * again; an earlier message unanswered for half an hour (its job lost) no longer holds the turn.
   */
  async takeTurn(message: RobotMessageRow, jobId: string) {
    const earlier = alias(robotMessages, "earlier");
    const unanswered = this.db
      .select({ id: earlier.id })
      .from(earlier)
      .where(
        and(
          eq(earlier.robotId, message.robotId),
          eq(earlier.externalUserId, message.externalUserId),
          eq(earlier.status, "received"),
          sql`(${earlier.createdAt}, ${earlier.id}) < (select created_at, id from robot_messages where id = ${message.id})`,
          gt(earlier.createdAt, sql`now() - interval '30 minutes'`),
        ),
      );
    const claimed = await this.db
      .update(robotMessages)
      .set({ claimedBy: jobId })
      .where(
        and(
          eq(robotMessages.id, message.id),
          or(isNull(robotMessages.claimedBy), eq(robotMessages.claimedBy, jobId)),
          notExists(unanswered),
        ),
      )
      .returning({ id: robotMessages.id });
    return claimed.length > 0;
  }

  /** The robot user's oldest message no job has claimed yet: the one whose turn comes next. */
  async nextUnclaimed(robotId: string, externalUserId: string) {
    const [row] = await this.db
      .select({ id: robotMessages.id })
      .from(robotMessages)
      .where(
        and(
          eq(robotMessages.robotId, robotId),
          eq(robotMessages.externalUserId, externalUserId),
          eq(robotMessages.status, "received"),
          isNull(robotMessages.claimedBy),
        ),
      )
      .orderBy(asc(robotMessages.createdAt), asc(robotMessages.id))
      .limit(1);
    return row?.id;
  }

  async updateMessage(id: string, patch: Partial<typeof robotMessages.$inferInsert>) {
    await this.db.update(robotMessages).set(patch).where(eq(robotMessages.id, id));
  }

  /** The robot user's mapping, and whether its account is a guest (not a bound platform user). */
  async robotUser(robotId: string, externalUserId: string) {
    const [row] = await this.db
      .select({ mapping: robotUsers, guest: sql<boolean>`${users.passwordHash} = ${ROBOT_GUEST_PASSWORD_HASH}` })
      .from(robotUsers)
      .innerJoin(users, eq(users.id, robotUsers.userId))
      .where(and(eq(robotUsers.robotId, robotId), eq(robotUsers.externalUserId, externalUserId)));
    return row && { ...row.mapping, guest: !!row.guest };
  }

  /** A robot user's guest account and mapping, created once (a concurrent first message finds the winner's). */
  async createGuest(robot: RobotRow, externalUserId: string, username: string, nickname: string) {
    return this.db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ tenantId: robot.tenantId, username, nickname, passwordHash: ROBOT_GUEST_PASSWORD_HASH })
        .onConflictDoNothing()
        .returning();
      // A concurrent first message made the guest: it is taken. A person's account never is, whatever its name.
      const userId =
        user?.id ??
        (
          await tx
            .select({ id: users.id })
            .from(users)
            .where(and(eq(users.tenantId, robot.tenantId), eq(users.username, username), eq(users.passwordHash, ROBOT_GUEST_PASSWORD_HASH)))
        )[0]?.id;
      if (!userId) throw new Error(`the robot guest name ${username} belongs to an account`);
      await tx.insert(robotUsers).values({ robotId: robot.id, externalUserId, userId }).onConflictDoNothing();
    });
  }

  async setConversation(id: string, sessionId: string, sessionUserId: string) {
    await this.db.update(robotUsers).set({ sessionId, sessionUserId }).where(eq(robotUsers.id, id));
  }

  async insertBindCode(row: typeof robotBindCodes.$inferInsert) {
    await this.db.insert(robotBindCodes).values(row);
  }

  /** Uses a code of the tenant once (one statement, so two robots cannot both take it). */
  async consumeBindCode(codeHash: string, tenantId: string) {
    const rows = await this.db
      .update(robotBindCodes)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(robotBindCodes.codeHash, codeHash),
          eq(robotBindCodes.tenantId, tenantId),
          isNull(robotBindCodes.usedAt),
          gt(robotBindCodes.expiresAt, new Date()),
        ),
      )
      .returning();
    return rows[0];
  }

  /** The robot user's messages are the platform user's from now on, in a new conversation. */
  async bindUser(id: string, userId: string) {
    await this.db.update(robotUsers).set({ userId, sessionId: null, sessionUserId: null }).where(eq(robotUsers.id, id));
  }
}
