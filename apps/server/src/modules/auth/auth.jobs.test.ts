import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authSessions, captchas, checkCodes, outbox, qrTickets, rateCounters } from "../../db/schema/index.ts";
import { createUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";

const past = () => new Date(Date.now() - 60_000);
const future = () => new Date(Date.now() + 60 * 60_000);

describe("the auth.purge-expired job on pg-boss", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.platform.jobs.start({ pollingIntervalSeconds: 0.5 });
  }, 90_000);
  afterAll(async () => {
    await t.platform.jobs.stop();
    await t.close();
  });

  it("pg-boss starts on this driver and keeps the cron schedule", async () => {
    const { rows } = await t.platform.database.executeSql("select name, cron from pgboss.schedule where name = $1", ["auth.purge-expired"]);
    expect(rows).toEqual([{ name: "auth.purge-expired", cron: "*/10 * * * *" }]);
  });

  it("a queued run removes expired sessions, captchas, check codes and QR tickets, and keeps live ones", async () => {
    const live = await createUser(t);
    const gone = await createUser(t);
    const db = t.platform.db;
    await db
      .update(authSessions)
      .set({ expiresAt: past() })
      .where(inArray(authSessions.userId, [gone.id]));
    const tenantId = live.tenantId;
    const [oldCaptcha, newCaptcha] = await db
      .insert(captchas)
      .values([
        { answerHash: "x", expiresAt: past() },
        { answerHash: "y", expiresAt: future() },
      ])
      .returning();
    const [oldCode, newCode] = await db
      .insert(checkCodes)
      .values([
        { tenantId, contact: "old@example.com", purpose: "register", codeHash: "x", expiresAt: past() },
        { tenantId, contact: "new@example.com", purpose: "register", codeHash: "y", expiresAt: future() },
      ])
      .returning();
    const [oldTicket, newTicket] = await db
      .insert(qrTickets)
      .values([
        { tenantId, expiresAt: past() },
        { tenantId, expiresAt: future() },
      ])
      .returning();
    await db.insert(rateCounters).values({ key: "old", windowStart: new Date(Date.now() - 3 * 86400_000), count: 3 });
    await db.insert(outbox).values([
      { recipient: "old@example.com", subject: "s", body: "b", createdAt: new Date(Date.now() - 8 * 86400_000) },
      { recipient: "new@example.com", subject: "s", body: "b" },
    ]);

    const id = await t.platform.jobs.enqueue("auth.purge-expired");
    expect(id).toBeTruthy();
    const deadline = Date.now() + 30_000;
    let state: string | null = null;
    while (Date.now() < deadline) {
      state = await t.platform.jobs.state("auth.purge-expired", id as string);
      if (state === "completed" || state === "failed") break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(state).toBe("completed");

    const sessions = await db
      .select()
      .from(authSessions)
      .where(inArray(authSessions.userId, [live.id, gone.id]));
    expect(sessions.map((s) => s.userId)).toEqual([live.id, live.id]);
    const ids = async (table: typeof captchas | typeof checkCodes | typeof qrTickets) => (await db.select().from(table)).map((r) => r.id);
    expect(await ids(captchas)).toContain(newCaptcha.id);
    expect(await ids(captchas)).not.toContain(oldCaptcha.id);
    expect(await ids(checkCodes)).toEqual([newCode.id]);
    expect(await ids(checkCodes)).not.toContain(oldCode.id);
    expect(await ids(qrTickets)).toEqual([newTicket.id]);
    expect(await ids(qrTickets)).not.toContain(oldTicket.id);
    expect((await db.select().from(rateCounters)).map((r) => r.key)).not.toContain("old");
    expect((await db.select().from(outbox)).map((r) => r.recipient)).toEqual(["new@example.com"]);
  }, 60_000);

  it("a revoked session is purged too", async () => {
    const u = await createUser(t);
    await t.app.inject({ method: "POST", url: "/agent_api/api/auth/logout", headers: u.headers });
    await t.platform.jobs.runNow("auth.purge-expired");
    expect(
      await t.platform.db
        .select()
        .from(authSessions)
        .where(inArray(authSessions.userId, [u.id])),
    ).toEqual([]);
  });
});
