import { and, asc, count, desc, eq, gt, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { authSessions, rpaRobots, rpaTasks, rpaTickets } from "../../db/schema/index.ts";

export type RobotRow = typeof rpaRobots.$inferSelect;
export type NewRobotRow = typeof rpaRobots.$inferInsert;
export type TaskRow = typeof rpaTasks.$inferSelect;
export type TicketRow = typeof rpaTickets.$inferSelect;

/** The only place that touches the RPA tables. */
export class RpaRepository {
  constructor(private readonly db: Db) {}

  listAll() {
    return this.db.select().from(rpaRobots).orderBy(asc(rpaRobots.createdAt));
  }

  listOfTenant(tenantId: string) {
    return this.db.select().from(rpaRobots).where(eq(rpaRobots.tenantId, tenantId)).orderBy(asc(rpaRobots.createdAt));
  }

  async get(id: string) {
    return (await this.db.select().from(rpaRobots).where(eq(rpaRobots.id, id)))[0];
  }

  async findByName(tenantId: string, robotName: string) {
    return (
      await this.db
        .select()
        .from(rpaRobots)
        .where(and(eq(rpaRobots.tenantId, tenantId), eq(rpaRobots.robotName, robotName)))
    )[0];
  }

  async insert(row: NewRobotRow) {
    return (await this.db.insert(rpaRobots).values(row).returning())[0];
  }

  async update(id: string, patch: Partial<NewRobotRow>) {
    return (await this.db.update(rpaRobots).set(patch).where(eq(rpaRobots.id, id)).returning())[0];
  }

  async remove(id: string) {
    await this.db.delete(rpaRobots).where(eq(rpaRobots.id, id));
  }

  /** The live list (doc 2 §7): a tenant's robots with a stream whose livePolicy is not 1, sorted by playInfo. */
  async livePage(tenantId: string, pageNo: number, pageSize: number) {
    const where = and(eq(rpaRobots.tenantId, tenantId), ne(rpaRobots.livePolicy, 1), ne(rpaRobots.streamUrl, ""));
    const rows = await this.db
      .select()
      .from(rpaRobots)
      .where(where)
      .orderBy(asc(rpaRobots.streamUrl), asc(rpaRobots.id))
      .limit(pageSize)
      .offset((pageNo - 1) * pageSize);
    const [{ total }] = await this.db.select({ total: count() }).from(rpaRobots).where(where);
    return { rows, total };
  }

  async insertTask(row: typeof rpaTasks.$inferInsert) {
    return (await this.db.insert(rpaTasks).values(row).returning())[0];
  }

  /** The newest task of a chat session with its robot. */
  async latestTask(sessionId: string) {
    const rows = await this.db
      .select({ task: rpaTasks, robot: rpaRobots })
      .from(rpaTasks)
      .innerJoin(rpaRobots, eq(rpaRobots.id, rpaTasks.robotId))
      .where(eq(rpaTasks.sessionId, sessionId))
      .orderBy(desc(rpaTasks.createdAt))
      .limit(1);
    return rows[0];
  }

  async insertTicket(row: typeof rpaTickets.$inferInsert) {
    await this.db.insert(rpaTickets).values(row);
  }

  /** Marks a ticket used, once: a second use or an expired ticket finds nothing (one statement, so two processes cannot both win). */
  async consumeTicket(ticketHash: string): Promise<TicketRow | undefined> {
    const rows = await this.db
      .update(rpaTickets)
      .set({ usedAt: new Date() })
      .where(and(eq(rpaTickets.ticketHash, ticketHash), isNull(rpaTickets.usedAt), gt(rpaTickets.expiresAt, new Date())))
      .returning();
    return rows[0];
  }

  async purgeTickets(before: Date) {
    await this.db.delete(rpaTickets).where(or(lt(rpaTickets.expiresAt, before), sql`${rpaTickets.usedAt} < ${before}`));
  }

  /**
   * Until when the sign-in session that asked for a ticket holds (null: ended or revoked). A read
   * of the auth table the bridge needs to close with the session; the auth module owns its writes.
   */
  async signInValidUntil(pairId: string): Promise<Date | null> {
    const rows = await this.db
      .select({ expiresAt: authSessions.expiresAt })
      .from(authSessions)
      .where(
        and(
          eq(authSessions.pairId, pairId),
          eq(authSessions.kind, "web"),
          isNull(authSessions.revokedAt),
          gt(authSessions.expiresAt, new Date()),
        ),
      )
      .limit(1);
    return rows[0]?.expiresAt ?? null;
  }
}
