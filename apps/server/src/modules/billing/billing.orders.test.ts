import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders, users } from "../../db/schema/index.ts";
import { createUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { balanceOf, caller, ledgerOf, paySandbox, seedCatalog } from "./billing.fixtures.ts";
import { addMonths } from "./membership.ts";

describe("billing: catalogue, orders, sandbox payment", () => {
  let t: TestApp;
  let plans: Awaited<ReturnType<typeof seedCatalog>>;
  beforeAll(async () => {
    t = await createTestApp();
    plans = await seedCatalog(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it("lists plan templates with every field, by category, and the durations and top-up amounts", async () => {
    const anon = caller(t, {});
    const all = (await anon.get("/order/templates")).json().data;
    expect(all).toHaveLength(5);
    const personal = (await anon.get("/order/weixin/memberTemplates?category=PERSONAL")).json().data;
    expect(personal.map((p: { memberLevel: string }) => p.memberLevel)).toEqual(["FREE", "MONTHLY", "PER_FLAGSHIP_MONTHLY"]);
    expect(personal[2]).toMatchObject({ name: "个人旗舰版", num: 99, discount: 0.8, editCount: 100, fees: 0.2 });
    for (const k of [
      "types",
      "countPerDay",
      "paidAgentCount",
      "insightPerDay",
      "knowledgeSpace",
      "pluginsNum",
      "invitedNum",
      "description",
    ]) {
      expect(personal[1]).toHaveProperty(k);
    }
    const ent = (await anon.get("/order/weixin/memberTemplates?category=ENTERPRISE")).json().data;
    expect(ent.every((p: { category: string }) => p.category === "ENTERPRISE")).toBe(true);
    expect((await anon.get("/order/weixin/memberTemplates?category=NOPE")).statusCode).toBe(400);
    const durations = (await anon.post("/monthConfig/getList")).json().data;
    expect(durations.map((d: { monthNum: number }) => d.monthNum)).toEqual([1, 3, 6, 12]);
    const amounts = (await anon.get("/order/recharge/templates")).json().data;
    expect(amounts.map((a: { amount: number }) => a.amount)).toEqual([10, 50, 100, 200, 500, 1000]);
  });

  it("order calls need a signed-in user", async () => {
    const anon = caller(t, {});
    expect((await anon.post(`/order/${plans.MONTHLY.id}/create`, {})).statusCode).toBe(403);
    expect((await anon.post("/order/orderList", {})).statusCode).toBe(403);
    expect((await anon.post("/benefit/useCode", { benefitCode: "X" })).statusCode).toBe(403);
  });

  it("prices on the server (client amounts ignored), pays through the sandbox, grants the level once", async () => {
    const u = await createUser(t);
    const api = caller(t, u.headers);
    const durations = (await api.post("/monthConfig/getList")).json().data;
    const three = durations.find((d: { monthNum: number }) => d.monthNum === 3);
    const res = await api.post(`/order/${plans.PER_FLAGSHIP_MONTHLY.id}/create`, {
      configId: three.id,
      renewUpgrade: "UPGRADE",
      orderAmount: 0.01,
    });
    expect(res.statusCode).toBe(200);
    const created = res.json().data;
    // 99 × 3 × 0.95 × 0.8 = 225.72
    expect(created.orderAmount).toBe(225.72);
    expect(created.orderNo).toMatch(/^AF\d{20}$/);
    expect(created.payUrl).toContain("/pay/sandbox?orderNo=");
    expect((await api.get(`/order/${created.orderId}/status`)).json().data).toEqual({ orderStatus: "PENDING" });
    // The pay page shows the order to whoever holds the scan token, and nobody else.
    const url = new URL(created.payUrl);
    const info = await t.app.inject({ url: `/agent_api/api/order/sandbox/${created.orderNo}?t=${url.searchParams.get("t")}` });
    expect(info.json().data).toMatchObject({ orderAmount: 225.72, orderStatus: "PENDING" });
    expect((await t.app.inject({ url: `/agent_api/api/order/sandbox/${created.orderNo}?t=forged` })).statusCode).toBe(404);
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: `/agent_api/api/order/sandbox/${created.orderNo}`,
          payload: { t: "forged", decision: "confirm" },
        })
      ).statusCode,
    ).toBe(404);

    const paid = await paySandbox(t, created.payUrl);
    expect(paid.json().data.orderStatus).toBe("PAID");
    expect((await api.get(`/order/${created.orderNo}/status`)).json().data.orderStatus).toBe("PAID");
    const user = await balanceOf(t, u.id);
    expect(user.memberLevel).toBe("PER_FLAGSHIP_MONTHLY");
    const days = (user.memberEndAt!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(88);
    expect(days).toBeLessThan(93);
    // Paying again is refused: the order is no longer pending; nothing changes.
    expect((await paySandbox(t, created.payUrl)).statusCode).toBe(400);
    expect((await balanceOf(t, u.id)).memberEndAt).toEqual(user.memberEndAt);
    expect((await ledgerOf(t, u.id)).filter((l) => l.kind === "MEMBERSHIP")).toHaveLength(1);
    const info2 = (await api.get("/userinfo/findUserInfo")).json().data;
    expect(info2.userMemberLevel.memberLevel).toBe("PER_FLAGSHIP_MONTHLY");
    expect(info2.agentDeductFeeTemplates).toEqual({ category: "PERSONAL", fees: 0.2 });
    // Pay detail by orderNo, own orders only.
    expect((await api.get(`/order/payDetail/${created.orderNo}`)).json().data).toMatchObject({
      orderStatus: "PAID",
      subject: "个人旗舰版 × 3",
    });
    const other = caller(t, (await createUser(t)).headers);
    expect((await other.get(`/order/payDetail/${created.orderNo}`)).statusCode).toBe(404);
    expect((await other.get(`/order/${created.orderId}/status`)).statusCode).toBe(404);
  });

  it("renews by extending the end date; upgrades carry the remaining days by value; downgrades are refused", async () => {
    const u = await createUser(t, { memberLevel: "MONTHLY" });
    const api = caller(t, u.headers);
    const before = (await balanceOf(t, u.id)).memberEndAt!;
    const renew = (await api.post("/order/buyMembers", { orderTemplateId: plans.MONTHLY.id, renewUpgrade: "RENEW" })).json().data;
    await paySandbox(t, renew.payUrl);
    const renewed = await balanceOf(t, u.id);
    expect(renewed.memberLevel).toBe("MONTHLY");
    const added = (renewed.memberEndAt!.getTime() - before.getTime()) / 86_400_000;
    expect(added).toBeGreaterThanOrEqual(28);
    expect(added).toBeLessThanOrEqual(31);
    const orderRow = (await t.platform.db.select().from(orders).where(eq(orders.orderNo, renew.orderNo)))[0];
    expect(orderRow.renewUpgrade).toBe("RENEW");

    const up = (await api.post(`/order/${plans.PER_FLAGSHIP_MONTHLY.id}/create`, { renewUpgrade: "UPGRADE" })).json().data;
    const remainingDays = (renewed.memberEndAt!.getTime() - Date.now()) / 86_400_000;
    await paySandbox(t, up.payUrl);
    const upgraded = await balanceOf(t, u.id);
    expect(upgraded.memberLevel).toBe("PER_FLAGSHIP_MONTHLY");
    // Carried by what was paid: MONTHLY at ¥29 a month, the flagship at ¥79.2 (its plan discount).
    const expectedDays = 30 + (remainingDays * 29) / 79.2;
    const gotDays = (upgraded.memberEndAt!.getTime() - Date.now()) / 86_400_000;
    expect(Math.abs(gotDays - expectedDays)).toBeLessThan(2);

    const down = await api.post(`/order/${plans.MONTHLY.id}/create`, {});
    expect(down.statusCode).toBe(400);
    expect(down.json().msg).toBe("当前会员等级更高，无法购买较低等级的套餐");
    expect((await api.post(`/order/${plans.FREE.id}/create`, {})).json().msg).toBe("免费版无需购买");
    expect((await api.post("/order/nope/create", {})).json().msg).toBe("套餐不存在或已下架");
    expect((await api.post(`/order/${plans.MONTHLY.id}/create`, { configId: "nope" })).statusCode).toBe(400);
  });

  it("enterprise purchases for a group: an own group by id, or a new group by name", async () => {
    const u = await createUser(t);
    const api = caller(t, u.headers);
    const o = (await api.post("/order/buyMembers", { orderTemplateId: plans.ENT_ADVANCED_MONTHLY.id, groupName: "研发一组" })).json().data;
    await paySandbox(t, o.payUrl);
    const info = (await api.get("/userinfo/findUserInfo")).json().data;
    expect(info.userMemberLevel.memberLevel).toBe("ENT_ADVANCED_MONTHLY");
    expect(info.groups.map((g: { groupName: string }) => g.groupName)).toContain("研发一组");
    const groupId = info.groups[0].id;
    const renew = await api.post("/order/buyMembers", { orderTemplateId: plans.ENT_ADVANCED_MONTHLY.id, groupId });
    expect(renew.statusCode).toBe(200);
    const stranger = caller(t, (await createUser(t)).headers);
    const foreign = await stranger.post("/order/buyMembers", { orderTemplateId: plans.ENT_ADVANCED_MONTHLY.id, groupId });
    expect(foreign.json().msg).toBe("团队不存在");
  });

  it("a tenant user's sandbox pay page lives under the tenant's route base", async () => {
    const u = await createUser(t, { domain: "paytenant" });
    const o = (await caller(t, u.headers).post(`/order/${plans.MONTHLY.id}/create`, {})).json().data;
    expect(new URL(o.payUrl).pathname).toBe("/paytenant/pay/sandbox");
    expect((await paySandbox(t, o.payUrl)).json().data.orderStatus).toBe("PAID");
  });

  it("an idempotency key returns the same order, also under parallel requests", async () => {
    const u = await createUser(t);
    const api = caller(t, u.headers);
    const key = "key-0123456789";
    const results = await Promise.all(
      Array.from({ length: 8 }, () => api.post(`/order/${plans.MONTHLY.id}/create`, {}, { "idempotency-key": key })),
    );
    const ids = new Set(results.map((r) => r.json().data.orderId));
    expect(ids.size).toBe(1);
    const viaBody = await api.post(`/order/${plans.MONTHLY.id}/create`, { idempotencyKey: key });
    expect(viaBody.json().data.orderId).toBe([...ids][0]);
    const list = (await api.post("/order/orderList", { createdByMe: true, pageNumber: 0, pageSize: 100 })).json().data;
    expect(list.total).toBe(1);
  });

  it("reuses the caller's open order for the same plan, duration and amount, also under parallel requests", async () => {
    const u = await createUser(t, { memberLevel: "MONTHLY" });
    const api = caller(t, u.headers);
    const durations = (await api.post("/monthConfig/getList")).json().data as { id: string; monthNum: number }[];
    const [one, three] = durations;
    // Every opening of the buy dialog sends a new idempotency key: still one order per choice.
    const parallel = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        api.post(`/order/${plans.PER_FLAGSHIP_MONTHLY.id}/create`, { configId: one.id, idempotencyKey: `dialog-open-${i}` }),
      ),
    );
    const ids = new Set(parallel.map((r) => r.json().data.orderId));
    expect(ids.size).toBe(1);
    expect(parallel.every((r) => r.json().data.payUrl.includes("/pay/sandbox?orderNo="))).toBe(true);
    const [first] = ids;
    const viaBuy = await api.post("/order/buyMembers", { orderTemplateId: plans.PER_FLAGSHIP_MONTHLY.id, configId: one.id });
    expect(viaBuy.json().data.orderId).toBe(first);
    // Another duration or plan is another order; switching back finds the first again.
    const longer = (await api.post(`/order/${plans.PER_FLAGSHIP_MONTHLY.id}/create`, { configId: three.id })).json().data;
    expect(longer.orderId).not.toBe(first);
    const renew = (await api.post(`/order/${plans.MONTHLY.id}/create`, { configId: one.id })).json().data;
    expect(renew.orderId).not.toBe(first);
    expect((await api.post(`/order/${plans.PER_FLAGSHIP_MONTHLY.id}/create`, { configId: one.id })).json().data.orderId).toBe(first);
    // A top-up of the same amount, by tile or by amount, reuses the open one; another amount does not.
    const options = (await api.get("/order/recharge/templates")).json().data as { id: string; amount: number }[];
    const fifty = options.find((o) => o.amount === 50)!;
    const topUps = await Promise.all([
      api.post(`/order/recharge/${fifty.id}/create`, { idempotencyKey: "top-up-click-1" }),
      api.post(`/order/recharge/${fifty.id}/create`, { idempotencyKey: "top-up-click-2" }),
      api.post("/order/recharge/amount", { amount: 50, idempotencyKey: "top-up-click-3" }),
    ]);
    expect(new Set(topUps.map((r) => r.json().data.orderId)).size).toBe(1);
    const other = (await api.post("/order/recharge/amount", { amount: 51 })).json().data;
    expect(other.orderId).not.toBe(topUps[0].json().data.orderId);
    // Another user never gets this user's order.
    const stranger = caller(t, (await createUser(t, { memberLevel: "MONTHLY" })).headers);
    expect((await stranger.post(`/order/recharge/${fifty.id}/create`, {})).json().data.orderId).not.toBe(topUps[0].json().data.orderId);
    // A cancelled or paid order is not open any more: the next create makes a new one.
    await api.post("/order/cancelOrder", { orderId: first });
    const fresh = (await api.post(`/order/${plans.PER_FLAGSHIP_MONTHLY.id}/create`, { configId: one.id })).json().data;
    expect(fresh.orderId).not.toBe(first);
    await paySandbox(t, fresh.payUrl);
    // The choices abandoned in the buy dialog are closed once one is bought: none can be paid later.
    for (const abandoned of [longer, renew]) {
      expect((await api.get(`/order/${abandoned.orderId}/status`)).json().data.orderStatus).toBe("CANCELLED");
      expect((await paySandbox(t, abandoned.payUrl)).statusCode).toBe(400);
    }
    const afterPaid = (await api.post(`/order/${plans.PER_FLAGSHIP_MONTHLY.id}/create`, { configId: one.id })).json().data;
    expect(afterPaid.orderId).not.toBe(fresh.orderId);
    // Open: the new purchase and the two top-ups (top-ups are not closed by a purchase).
    const pending = (await api.post("/order/orderList", { orderStatus: "PENDING" })).json().data;
    expect(pending.total).toBe(3);
  });

  it("an open order past half its life is not offered again: a new one is made, the old one expires", async () => {
    const u = await createUser(t, { memberLevel: "MONTHLY" });
    const api = caller(t, u.headers);
    const old = (await api.post("/order/recharge/amount", { amount: 20 })).json().data;
    const halfLife = (t.platform.config.ORDER_EXPIRE_MINUTES / 2) * 60_000;
    await t.platform.db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - halfLife - 60_000) })
      .where(eq(orders.id, old.orderId));
    const next = (await api.post("/order/recharge/amount", { amount: 20 })).json().data;
    expect(next.orderId).not.toBe(old.orderId);
    expect((await api.get(`/order/${old.orderId}/status`)).json().data.orderStatus).toBe("PENDING");
  });

  it("lists own orders 100 a page, re-pays and cancels pending orders, refuses illegal transitions", async () => {
    const u = await createUser(t);
    const api = caller(t, u.headers);
    const a = (await api.post(`/order/${plans.MONTHLY.id}/create`, {})).json().data;
    const b = (await api.post(`/order/${plans.PER_FLAGSHIP_MONTHLY.id}/create`, {})).json().data;
    const list = (await api.post("/order/orderList", { createdByMe: true, pageNumber: 0, pageSize: 100 })).json().data;
    expect(list.total).toBe(2);
    expect(list.list[0]).toMatchObject({ orderNo: b.orderNo, orderStatus: "PENDING", totalAmount: 79.2 });
    expect((await api.post("/order/orderList", { pageSize: 101 })).statusCode).toBe(400);
    const again = (await api.post(`/order/rePayOrder/${a.orderId}`)).json().data;
    expect(again.payUrl).toBe(a.payUrl);
    const cancelled = await api.post("/order/cancelOrder", { orderId: a.orderId });
    expect(cancelled.json().data.orderStatus).toBe("CANCELLED");
    expect((await api.post("/order/cancelOrder", { orderNo: a.orderNo })).statusCode).toBe(400);
    expect((await api.post(`/order/rePayOrder/${a.orderId}`)).statusCode).toBe(400);
    expect((await paySandbox(t, a.payUrl)).statusCode).toBe(400);
    expect((await balanceOf(t, u.id)).memberLevel).toBe("FREE");
    // Declining on the pay page cancels.
    const declined = await paySandbox(t, b.payUrl, "decline");
    expect(declined.json().data.orderStatus).toBe("CANCELLED");
    // Someone else's order: not found.
    const other = caller(t, (await createUser(t)).headers);
    const c = (await api.post(`/order/${plans.MONTHLY.id}/create`, {})).json().data;
    expect((await other.post("/order/cancelOrder", { orderId: c.orderId })).statusCode).toBe(404);
    expect((await other.post(`/order/rePayOrder/${c.orderId}`)).statusCode).toBe(404);
  });

  it("top-ups: paid members only, by template id or amount; settlement credits the balance with a ledger row", async () => {
    const free = caller(t, (await createUser(t)).headers);
    const options = (await free.get("/order/recharge/templates")).json().data;
    const refused = await free.post(`/order/recharge/${options[0].id}/create`, {});
    expect(refused.json().msg).toBe("充值仅对付费会员开放，请先开通会员");
    const m = await createUser(t, { memberLevel: "MONTHLY" });
    const api = caller(t, m.headers);
    const byId = (await api.post(`/order/recharge/${options[1].id}/create`, {})).json().data;
    expect(byId.orderAmount).toBe(50);
    const byAmount = (await api.post("/order/recharge/amount", { amount: 12.34 })).json().data;
    expect(byAmount.orderAmount).toBe(12.34);
    expect((await api.post("/order/recharge/amount", { amount: 0 })).statusCode).toBe(400);
    expect((await api.post("/order/recharge/amount", { amount: "lots" })).statusCode).toBe(400);
    expect((await api.post("/order/recharge/nope/create", {})).json().msg).toBe("充值金额不存在");
    await paySandbox(t, byId.payUrl);
    await paySandbox(t, byAmount.payUrl);
    const user = await balanceOf(t, m.id);
    expect(user.balanceCents).toBe(6234);
    const ledger = await ledgerOf(t, m.id);
    expect(
      ledger
        .filter((l) => l.kind === "RECHARGE")
        .map((l) => l.amountCents)
        .sort(),
    ).toEqual([1234, 5000]);
    const log = (await api.post("/userWalletLog/page/ALL", {})).json().data;
    expect(log.total).toBe(2);
    expect(log.list[0]).toMatchObject({ kind: "RECHARGE", amount: 12.34, balanceAfter: 62.34 });
    expect(log.list[0].orderNo).toBe(byAmount.orderNo);
  });

  it("administrators refund, freeze and release paid orders with the legal transitions only", async () => {
    const admin = await createUser(t, { username: "admin" });
    const adm = caller(t, admin.headers);
    const m = await createUser(t, { memberLevel: "MONTHLY" });
    const api = caller(t, m.headers);
    const top = (await api.post("/order/recharge/amount", { amount: 100 })).json().data;
    const pending = (await api.post("/order/recharge/amount", { amount: 5 })).json().data;
    await paySandbox(t, top.payUrl);
    expect((await caller(t, m.headers).post(`/admin/billing/orders/${top.orderId}/refund`)).statusCode).toBe(401);
    const all = (await adm.post("/admin/billing/orders", {})).json().data;
    expect(all.list.find((o: { orderNo: string }) => o.orderNo === top.orderNo).username).toBe(m.username);
    expect((await adm.post(`/admin/billing/orders/${pending.orderId}/refund`)).json().msg).toContain("PENDING");
    expect((await adm.post(`/admin/billing/orders/${top.orderId}/release`)).statusCode).toBe(400);
    const frozen = await adm.post(`/admin/billing/orders/${top.orderId}/freeze`);
    expect(frozen.json().data.orderStatus).toBe("FROZEN");
    expect((await balanceOf(t, m.id)).balanceCents).toBe(0);
    await adm.post(`/admin/billing/orders/${top.orderId}/release`);
    expect((await balanceOf(t, m.id)).balanceCents).toBe(10000);
    const refunded = await adm.post(`/admin/billing/orders/${top.orderId}/refund`);
    expect(refunded.json().data.orderStatus).toBe("REFUNDED");
    expect((await balanceOf(t, m.id)).balanceCents).toBe(0);
    expect((await adm.post(`/admin/billing/orders/${top.orderId}/freeze`)).statusCode).toBe(400);
    const sum = (await ledgerOf(t, m.id)).reduce((s, l) => s + l.amountCents, 0);
    expect(sum).toBe(0);
    // A membership refund takes the level back.
    const f = await createUser(t);
    const fo = (await caller(t, f.headers).post(`/order/${plans.MONTHLY.id}/create`, {})).json().data;
    await paySandbox(t, fo.payUrl);
    expect((await balanceOf(t, f.id)).memberLevel).toBe("MONTHLY");
    await adm.post(`/admin/billing/orders/${fo.orderId}/refund`);
    expect((await balanceOf(t, f.id)).memberLevel).toBe("FREE");
  });

  /** A free user who bought MONTHLY × 12 (¥278.4), then PER_FLAGSHIP × 1 (¥79.2), the year carried into the upgrade. */
  async function yearThenUpgrade() {
    const u = await createUser(t);
    const api = caller(t, u.headers);
    const durations = (await api.post("/monthConfig/getList")).json().data as { id: string; monthNum: number }[];
    const year = durations.find((d) => d.monthNum === 12)!;
    const monthly = (await api.post(`/order/${plans.MONTHLY.id}/create`, { configId: year.id })).json().data;
    expect(monthly.orderAmount).toBe(278.4);
    await paySandbox(t, monthly.payUrl);
    const afterMonthly = await balanceOf(t, u.id);
    const flagship = (await api.post(`/order/${plans.PER_FLAGSHIP_MONTHLY.id}/create`, {})).json().data;
    expect(flagship.orderAmount).toBe(79.2);
    await paySandbox(t, flagship.payUrl);
    const afterFlagship = await balanceOf(t, u.id);
    expect(afterFlagship.memberLevel).toBe("PER_FLAGSHIP_MONTHLY");
    return { u, api, monthly, flagship, afterMonthly, afterFlagship };
  }
  const daysLeft = (end: Date | null) => ((end?.getTime() ?? 0) - Date.now()) / 86_400_000;

  it("an upgrade carries the old level's time over by what was paid for it, not list prices", async () => {
    const u = await createUser(t);
    const api = caller(t, u.headers);
    const durations = (await api.post("/monthConfig/getList")).json().data as { id: string; monthNum: number }[];
    const three = durations.find((d) => d.monthNum === 3)!;
    const monthly = (await api.post(`/order/${plans.MONTHLY.id}/create`, { configId: three.id })).json().data;
    expect(monthly.orderAmount).toBe(82.65);
    await paySandbox(t, monthly.payUrl);
    const flagship = (await api.post(`/order/${plans.PER_FLAGSHIP_MONTHLY.id}/create`, {})).json().data;
    await paySandbox(t, flagship.payUrl);
    // The three months, worth ¥82.65, buy 82.65 / 79.2 months of the flagship at the price paid
    // for it; at list prices (3 × 29 / 99 months) the duration discount would be lost.
    const month = (addMonths(new Date(), 1).getTime() - Date.now()) / 86_400_000;
    const got = daysLeft((await balanceOf(t, u.id)).memberEndAt);
    expect(Math.abs(got - month * (1 + 82.65 / 79.2))).toBeLessThan(0.5);
  });

  it("refunding an order whose time was carried into an upgrade takes back only that order's grant", async () => {
    const adm = caller(t, (await loginAdmin(t)).headers);
    const { u, monthly, flagship } = await yearThenUpgrade();
    const refunded = await adm.post(`/admin/billing/orders/${monthly.orderId}/refund`);
    expect(refunded.json().data.orderStatus).toBe("REFUNDED");
    // What the upgrade alone gives: the flagship for the month bought, nothing carried.
    const after = await balanceOf(t, u.id);
    expect(after.memberLevel).toBe("PER_FLAGSHIP_MONTHLY");
    expect(daysLeft(after.memberEndAt)).toBeGreaterThan(27);
    expect(daysLeft(after.memberEndAt)).toBeLessThan(32);
    // Refunding the upgrade too leaves nothing.
    await adm.post(`/admin/billing/orders/${flagship.orderId}/refund`);
    expect(await balanceOf(t, u.id)).toMatchObject({ memberLevel: "FREE", memberEndAt: null });
  });

  it("refunding the latest order restores the membership before it; freeze and release take back and give back exactly", async () => {
    const adm = caller(t, (await loginAdmin(t)).headers);
    const { u, api, monthly, flagship, afterMonthly, afterFlagship } = await yearThenUpgrade();
    // Freezing the earlier order and releasing it again gives back the same membership.
    await adm.post(`/admin/billing/orders/${monthly.orderId}/freeze`);
    const frozen = await balanceOf(t, u.id);
    expect(frozen.memberLevel).toBe("PER_FLAGSHIP_MONTHLY");
    expect(daysLeft(frozen.memberEndAt)).toBeLessThan(32);
    await adm.post(`/admin/billing/orders/${monthly.orderId}/release`);
    expect((await balanceOf(t, u.id)).memberEndAt).toEqual(afterFlagship.memberEndAt);
    // The latest order refunded: the year bought before it, as it was.
    await adm.post(`/admin/billing/orders/${flagship.orderId}/refund`);
    const after = await balanceOf(t, u.id);
    expect(after).toMatchObject({ memberLevel: "MONTHLY", memberEndAt: afterMonthly.memberEndAt });
    // A benefit code redeemed after the year stays when the year is refunded.
    const batch = (
      await adm.post("/admin/billing/benefit-batches", { name: "退款后保留", grant: "LEVEL", memberLevel: "MONTHLY", days: 10, count: 1 })
    ).json().data;
    expect((await api.post("/benefit/useCode", { benefitCode: batch.codes[0] })).statusCode).toBe(200);
    expect(daysLeft((await balanceOf(t, u.id)).memberEndAt) - daysLeft(afterMonthly.memberEndAt)).toBeCloseTo(10, 1);
    await adm.post(`/admin/billing/orders/${monthly.orderId}/refund`);
    const codeOnly = await balanceOf(t, u.id);
    expect(codeOnly.memberLevel).toBe("MONTHLY");
    expect(daysLeft(codeOnly.memberEndAt)).toBeCloseTo(10, 1);
  });

  it("plans have an English name and description: plan calls and order titles answer in the caller's language", async () => {
    const adm = caller(t, (await loginAdmin(t)).headers);
    const plan = {
      category: "ENTERPRISE",
      memberLevel: "ENT_ADVANCED_MONTHLY",
      name: "团队试用版",
      description: "小团队试用",
      nameEn: "Team trial",
      descriptionEn: "For small teams to try",
      num: 1,
      sort: 99,
    };
    const created = (await adm.post("/admin/billing/plans", plan)).json().data;
    // Administrators edit both languages, whatever their own.
    expect(created).toMatchObject({ name: "团队试用版", nameEn: "Team trial", descriptionEn: "For small teams to try" });
    const listed = (await adm.get("/admin/billing/plans")).json().data.find((p: { id: string }) => p.id === created.id);
    expect(listed).toMatchObject({ name: "团队试用版", description: "小团队试用", nameEn: "Team trial" });
    const anon = (lang?: string) =>
      t.app.inject({ url: "/agent_api/api/order/weixin/memberTemplates?category=ENTERPRISE", headers: lang ? { lang } : {} });
    const find = async (lang?: string) => (await anon(lang)).json().data.find((p: { id: string }) => p.id === created.id);
    expect(await find("en")).toMatchObject({ name: "Team trial", description: "For small teams to try" });
    expect(await find("zh")).toMatchObject({ name: "团队试用版", description: "小团队试用" });
    expect(await find()).toMatchObject({ name: "团队试用版" });
    expect(await find("en")).not.toHaveProperty("nameEn");
    // A plan with no English shows its Chinese texts in English too.
    const seeded = (await anon("en")).json().data.find((p: { id: string }) => p.id === plans.ENT_FLAGSHIP_MONTHLY.id);
    expect(seeded.name).toBe(plans.ENT_FLAGSHIP_MONTHLY.nameEn || plans.ENT_FLAGSHIP_MONTHLY.name);
    // Orders read in the caller's language: the plan's name, or the top-up.
    const m = await createUser(t, { memberLevel: "MONTHLY" });
    const api = caller(t, m.headers);
    const o = (await api.post(`/order/${created.id}/create`, {})).json().data;
    await api.post("/order/recharge/amount", { amount: 12 });
    const titles = async (lang: string) =>
      (await api.post("/order/orderList", {}, { lang })).json().data.list.map((x: { title: string }) => x.title);
    expect(await titles("en")).toEqual(["account top-up ¥12", "Team trial × 1"]);
    expect(await titles("zh")).toEqual(["账户充值 ¥12", "团队试用版 × 1"]);
    expect((await api.get(`/order/payDetail/${o.orderNo}`)).json().data.subject).toBe("团队试用版 × 1");
    await paySandbox(t, o.payUrl);
    const notes = async (lang: string) =>
      (await api.post("/userWalletLog/page/ALL", {}, { lang })).json().data.list.map((x: { note: string }) => x.note);
    expect(await notes("en")).toEqual(["Team trial × 1 ¥1"]);
    expect(await notes("zh")).toEqual(["团队试用版 × 1 ¥1"]);
    await adm.delete(`/admin/billing/plans/${created.id}`);
  });

  it("administrators manage plans, durations and top-up options; others may not", async () => {
    const adm = caller(t, (await loginAdmin(t)).headers);
    const created = await adm.post("/admin/billing/plans", {
      category: "PERSONAL",
      memberLevel: "MONTHLY",
      name: "测试版",
      num: 9.9,
      discount: 0.5,
    });
    expect(created.statusCode).toBe(200);
    const id = created.json().data.id;
    expect(created.json().data).toMatchObject({ num: 9.9, discount: 0.5, fees: 0 });
    expect(
      (
        await adm.put(`/admin/billing/plans/${id}`, {
          category: "PERSONAL",
          memberLevel: "MONTHLY",
          name: "测试版2",
          num: 10,
          enabled: false,
        })
      ).json().data.name,
    ).toBe("测试版2");
    expect((await adm.post("/admin/billing/plans", { category: "PERSONAL", memberLevel: "MONTHLY", name: "", num: -1 })).statusCode).toBe(
      400,
    );
    expect((await adm.delete(`/admin/billing/plans/${id}`)).statusCode).toBe(200);
    expect((await adm.delete(`/admin/billing/plans/${id}`)).statusCode).toBe(404);
    const d = (await adm.post("/admin/billing/durations", { monthNum: 24, priceDiscount: 0.7 })).json().data;
    expect((await adm.get("/admin/billing/durations")).json().data.some((x: { id: string }) => x.id === d.id)).toBe(true);
    expect((await adm.post("/admin/billing/durations", { monthNum: 0, priceDiscount: 2 })).statusCode).toBe(400);
    await adm.delete(`/admin/billing/durations/${d.id}`);
    const r = (await adm.post("/admin/billing/recharge", { amount: 66 })).json().data;
    expect(r.amount).toBe(66);
    await adm.put(`/admin/billing/recharge/${r.id}`, { amount: 88 });
    expect((await adm.get("/admin/billing/recharge")).json().data.some((x: { amount: number }) => x.amount === 88)).toBe(true);
    await adm.delete(`/admin/billing/recharge/${r.id}`);
    const member = caller(t, (await createUser(t, { memberLevel: "MONTHLY" })).headers);
    expect((await member.get("/admin/billing/plans")).statusCode).toBe(401);
    expect((await member.post("/admin/billing/recharge", { amount: 1 })).statusCode).toBe(401);
    expect((await caller(t, {}).get("/admin/billing/plans")).statusCode).toBe(403);
  });
});

async function loginAdmin(t: TestApp) {
  const [existing] = await t.platform.db.select().from(users).where(eq(users.username, "admin"));
  if (!existing) return createUser(t, { username: "admin" });
  const res = await t.app.inject({
    method: "POST",
    url: "/agent_api/api/auth/login",
    payload: { username: "admin", password: "secret-pass-1" },
  });
  return { headers: { authorization: `Bearer ${res.json().data.token}` } };
}
