import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freeChatUsage, orders, paymentNotifications } from "../../db/schema/index.ts";
import type { Caller } from "../../platform/auth.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { API, balanceOf, caller, ledgerOf, paySandbox, seedCatalog } from "./billing.fixtures.ts";

/** Money properties under concurrency: run on PGlite and, with TEST_DATABASE_URL, on PostgreSQL. */
describe("billing: money under concurrency and forged notifications", () => {
  let t: TestApp;
  let plans: Awaited<ReturnType<typeof seedCatalog>>;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    plans = await seedCatalog(t);
    admin = await createUser(t, { username: "admin" });
  });
  afterAll(async () => {
    await t.close();
  });
  const callerOf = async (u: TestUser) => (await t.platform.callers.resolve(u.token)) as Caller;
  const ledgerSum = async (id: string) => (await ledgerOf(t, id)).reduce((s, l) => s + l.amountCents, 0);

  it("200 parallel redemptions of one code: exactly one succeeds", async () => {
    const batch = (
      await caller(t, admin.headers).post("/admin/billing/benefit-batches", { name: "并发", grant: "AMOUNT", amount: 5, count: 1 })
    ).json().data;
    const [code] = batch.codes;
    const users = await Promise.all(Array.from({ length: 10 }, () => createUser(t)));
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => caller(t, users[i % 10].headers).post("/benefit/useCode", { benefitCode: code })),
    );
    const okCount = results.filter((r) => r.statusCode === 200).length;
    expect(okCount).toBe(1);
    const balances = await Promise.all(users.map((u) => balanceOf(t, u.id)));
    expect(balances.reduce((s, u) => s + u.balanceCents, 0)).toBe(500);
    for (const u of users) expect(await ledgerSum(u.id)).toBe((await balanceOf(t, u.id)).balanceCents);
  });

  it("attack: 65 parallel wrong benefit codes: no more than 20 are checked", async () => {
    const u = caller(t, (await createUser(t)).headers);
    const results = await Promise.all(Array.from({ length: 65 }, (_, i) => u.post("/benefit/useCode", { benefitCode: `GUESS${i}` })));
    const checked = results.filter((r) => r.json().msg === "权益码无效").length;
    expect(checked).toBeLessThanOrEqual(20);
    expect(results.filter((r) => r.statusCode === 429).length).toBe(65 - checked);
  });

  it("50 parallel paid uses with funds for 10: at most 10 succeed, balance >= 0, ledger sum = balance", async () => {
    const u = await createUser(t, { memberLevel: "MONTHLY", balanceCents: 0 });
    // The starting funds come in through a real top-up, so the ledger explains the whole balance.
    const top = (await caller(t, u.headers).post("/order/recharge/amount", { amount: 10 })).json().data;
    const sandboxPay = await import("./billing.fixtures.ts");
    await sandboxPay.paySandbox(t, top.payUrl);
    const c = await callerOf(u);
    const agent = { agentId: "agent-priced", agentName: "计费智能体", priceCents: 100, ownerId: "someone-else" };
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => t.services.billing.checkChat(c, agent, `session-${i}`)));
    const succeeded = outcomes.filter((o) => o.status === "fulfilled").length;
    expect(succeeded).toBeLessThanOrEqual(10);
    expect(succeeded).toBe(10);
    const user = await balanceOf(t, u.id);
    expect(user.balanceCents).toBeGreaterThanOrEqual(0);
    expect(user.balanceCents).toBe(0);
    expect(await ledgerSum(u.id)).toBe(user.balanceCents);
    const failures = outcomes.filter((o) => o.status === "rejected") as PromiseRejectedResult[];
    expect(failures.every((f) => f.reason.key === "balanceInsufficient")).toBe(true);
  });

  it("parallel sends in one session are charged once (the charging flag)", async () => {
    const u = await createUser(t, { memberLevel: "MONTHLY", balanceCents: 1000 });
    const c = await callerOf(u);
    const agent = { agentId: "agent-flag", agentName: "计费", priceCents: 100, ownerId: "x" };
    await Promise.all(Array.from({ length: 20 }, () => t.services.billing.checkChat(c, agent, "one-session")));
    expect((await balanceOf(t, u.id)).balanceCents).toBe(900);
  });

  it("parallel edits past the allowance never overdraw", async () => {
    const u = await createUser(t, { balanceCents: 250 });
    const c = await callerOf(u);
    // FREE: 3 free edits, then 1.00 each; funds for 2 paid edits.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => t.services.billing.chargeAgentEdit(c, { agentId: `a${i}`, agentName: "x" })),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled").length).toBe(5);
    expect((await balanceOf(t, u.id)).balanceCents).toBe(50);
  });

  it("free chats: 20 a day under parallel requests", async () => {
    const u = await createUser(t);
    const c = await callerOf(u);
    const agent = { agentId: "free-agent", agentName: "免费", priceCents: 0, ownerId: "x" };
    const outcomes = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => t.services.billing.checkChat(c, agent, `s${i}`)));
    expect(outcomes.filter((o) => o.status === "fulfilled").length).toBe(20);
    const [row] = await t.platform.db.select().from(freeChatUsage).where(eq(freeChatUsage.userId, u.id));
    expect(row.count).toBe(20);
  });

  it("20 replays of one payment notification settle once", async () => {
    const u = await createUser(t);
    const o = (await caller(t, u.headers).post(`/order/${plans.MONTHLY.id}/create`, {})).json().data;
    const n = t.services.billing.sandbox.signedNotification({ orderNo: o.orderNo, amountCents: 2900 });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.app.inject({
          method: "POST",
          url: `${API}/order/notify/sandbox`,
          headers: { ...n.headers, "content-type": "application/json" },
          payload: n.body,
        }),
      ),
    );
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const outcomes = results.map((r) => r.json().data.outcome);
    expect(outcomes.filter((x) => x === "settled")).toHaveLength(1);
    expect(outcomes.filter((x) => x === "duplicate")).toHaveLength(19);
    expect((await ledgerOf(t, u.id)).filter((l) => l.kind === "MEMBERSHIP")).toHaveLength(1);
    const user = await balanceOf(t, u.id);
    expect(user.memberLevel).toBe("MONTHLY");
    const days = (user.memberEndAt!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeLessThan(32);
  });

  it("attack: a flood of unsigned notifications is refused; the audit keeps at most 100 an hour of them", async () => {
    const rejected = async () =>
      (await t.platform.db.select().from(paymentNotifications)).filter((a) => a.outcome.startsWith("rejected")).length;
    const before = await rejected();
    for (let i = 0; i < 110; i++) {
      const r = await t.app.inject({
        method: "POST",
        url: `${API}/order/notify/sandbox`,
        headers: { "content-type": "application/json" },
        payload: "{}",
      });
      expect(r.statusCode).toBe(400);
    }
    expect((await rejected()) - before).toBeLessThanOrEqual(100);
  });

  it("forged, unsigned, tampered and wrong-amount notifications are rejected and change nothing", async () => {
    const u = await createUser(t, { memberLevel: "MONTHLY" });
    const o = (await caller(t, u.headers).post("/order/recharge/amount", { amount: 20 })).json().data;
    const good = t.services.billing.sandbox.signedNotification({ orderNo: o.orderNo, amountCents: 2000 });
    const send = (headers: Record<string, string>, body: string) =>
      t.app.inject({
        method: "POST",
        url: `${API}/order/notify/sandbox`,
        headers: { ...headers, "content-type": "application/json" },
        payload: body,
      });
    const unsigned = await send({}, good.body);
    const forged = await send({ ...good.headers, "x-sandbox-signature": Buffer.from("x".repeat(32)).toString("base64") }, good.body);
    const tampered = await send(good.headers, good.body.replace('"amountCents":2000', '"amountCents":1'));
    const replayedOld = t.services.billing.sandbox.signedNotification({ orderNo: o.orderNo, amountCents: 2000 }, Date.now() - 60 * 60_000);
    const stale = await send(replayedOld.headers, replayedOld.body);
    const wrongAmount = t.services.billing.sandbox.signedNotification({ orderNo: o.orderNo, amountCents: 1 });
    const underpaid = await send(wrongAmount.headers, wrongAmount.body);
    for (const r of [unsigned, forged, tampered, stale, underpaid]) {
      expect(r.statusCode).toBe(400);
      expect(r.json().msg).toBe("支付通知验证失败");
    }
    const [row] = await t.platform.db.select().from(orders).where(eq(orders.orderNo, o.orderNo));
    expect(row.status).toBe("PENDING");
    expect((await balanceOf(t, u.id)).balanceCents).toBe(0);
    expect(await ledgerOf(t, u.id)).toHaveLength(0);
    const audit = await t.platform.db.select().from(paymentNotifications);
    expect(audit.filter((a) => a.outcome.startsWith("rejected")).length).toBeGreaterThanOrEqual(4);
    // The genuine notification still settles it afterwards.
    expect((await send(good.headers, good.body)).json().data.outcome).toBe("settled");
    expect((await balanceOf(t, u.id)).balanceCents).toBe(2000);
    // A channel that is not configured has no notification endpoint.
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: `${API}/order/notify/wechatpay`,
          payload: "{}",
          headers: { "content-type": "application/json" },
        })
      ).statusCode,
    ).toBe(404);
  });

  it("parallel refunds of a user's membership orders: each refunded once, exactly its grant taken back", async () => {
    const adm = caller(t, admin.headers);
    const buyYearThenUpgrade = async () => {
      const u = await createUser(t);
      const api = caller(t, u.headers);
      const durations = (await api.post("/monthConfig/getList")).json().data as { id: string; monthNum: number }[];
      const year = durations.find((d) => d.monthNum === 12)!;
      const monthly = (await api.post(`/order/${plans.MONTHLY.id}/create`, { configId: year.id })).json().data;
      await paySandbox(t, monthly.payUrl);
      const flagship = (await api.post(`/order/${plans.PER_FLAGSHIP_MONTHLY.id}/create`, {})).json().data;
      await paySandbox(t, flagship.payUrl);
      return { u, monthly, flagship };
    };
    const refunds = (orderId: string, n: number) => Array.from({ length: n }, () => adm.post(`/admin/billing/orders/${orderId}/refund`));
    const refundRows = async (userId: string) => (await ledgerOf(t, userId)).filter((l) => l.kind === "REFUND");

    // The year, refunded 6 times at once: one refund, the upgrade keeps only its own month.
    const a = await buyYearThenUpgrade();
    const once = await Promise.all(refunds(a.monthly.orderId, 6));
    expect(once.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(once.filter((r) => r.statusCode === 400)).toHaveLength(5);
    const left = await balanceOf(t, a.u.id);
    expect(left.memberLevel).toBe("PER_FLAGSHIP_MONTHLY");
    expect((left.memberEndAt!.getTime() - Date.now()) / 86_400_000).toBeLessThan(32);
    expect(await refundRows(a.u.id)).toHaveLength(1);

    // Both orders, each refunded 4 times at once: both refunded once, nothing left.
    const b = await buyYearThenUpgrade();
    const both = await Promise.all([...refunds(b.monthly.orderId, 4), ...refunds(b.flagship.orderId, 4)]);
    expect(both.filter((r) => r.statusCode === 200)).toHaveLength(2);
    expect(await balanceOf(t, b.u.id)).toMatchObject({ memberLevel: "FREE", memberEndAt: null });
    const rows = await t.platform.db.select().from(orders).where(eq(orders.userId, b.u.id));
    expect(rows.map((o) => o.status)).toEqual(["REFUNDED", "REFUNDED"]);
    expect(await refundRows(b.u.id)).toHaveLength(2);
  });
});
