import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatChargeFlags, freeChatUsage, planTemplates, users } from "../../db/schema/index.ts";
import type { Caller } from "../../platform/auth.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { balanceOf, caller, ledgerOf, seedCatalog } from "./billing.fixtures.ts";
import { shanghaiDay } from "./quotas.ts";

describe("billing: fees, quotas, chat checks, benefit codes, wallet log, expiry", () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    await seedCatalog(t);
    admin = await createUser(t, { username: "admin" });
    t.services.billing.useAgents({
      async agentForFee(_caller, agentId) {
        if (agentId === "missing") throw new Error("not found");
        return { agentId, agentName: `智能体${agentId}`, priceCents: agentId.startsWith("paid") ? 500 : 0 };
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });
  const callerOf = async (u: TestUser) => (await t.platform.callers.resolve(u.token)) as Caller;

  it("edit allowance: useNum counts this month's edits, editNum comes from the level's template; past it the fee is charged", async () => {
    const u = await createUser(t, { balanceCents: 150 });
    const api = caller(t, u.headers);
    expect((await api.get("/agentDeductFeeConfig/getUseEditNum")).json().data).toEqual({ useNum: 0, editNum: 3 });
    for (let i = 0; i < 3; i++) expect((await api.post("/usersEditAgent/saveInfo", { agentId: "a1" })).json().data.charged).toBe(0);
    const paid = (await api.post("/usersEditAgent/saveInfo", { agentId: "a1", agentName: "我的智能体" })).json().data;
    expect(paid).toEqual({ charged: 1, balance: 0.5, useNum: 4, editNum: 3 });
    const refused = await api.post("/usersEditAgent/saveInfo", { agentId: "a1" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toBe("账户余额不足，请先充值");
    expect((await api.get("/agentDeductFeeConfig/getUseEditNum")).json().data).toEqual({ useNum: 4, editNum: 3 });
    expect((await api.post("/usersEditAgent/saveInfo", {})).statusCode).toBe(400);
    const log = (await api.post("/userWalletLog/page/USE", {})).json().data;
    expect(log.list).toHaveLength(1);
    expect(log.list[0]).toMatchObject({ kind: "EDIT_FEE", amount: -1, agentName: "我的智能体" });
  });

  it("copy fee: priced agents cost the template's fee, free agents nothing; insufficient balance charges nothing", async () => {
    const u = await createUser(t, { memberLevel: "MONTHLY", balanceCents: 60 });
    const api = caller(t, u.headers);
    expect((await api.post("/agentDeductFeeConfig/copyCostFee", { agentId: "paid-1" })).json().data).toEqual({
      fee: 0.5,
      priced: true,
      balance: 0.6,
    });
    expect((await api.post("/agentDeductFeeConfig/copyCostFee", { agentId: "free-1" })).json().data).toEqual({
      fee: 0,
      priced: false,
      balance: 0.6,
    });
    expect((await api.post("/agentDeductFeeConfig/addAgentDecutFeeInfo", { agentId: "paid-1" })).json().data.balance).toBe(0.1);
    expect((await api.post("/agentDeductFeeConfig/addAgentDecutFeeInfo", { agentId: "free-1" })).json().data.fee).toBe(0);
    const refused = await api.post("/agentDeductFeeConfig/addAgentDecutFeeInfo", { agentId: "paid-2" });
    expect(refused.json().msg).toBe("账户余额不足，请先充值");
    expect((await balanceOf(t, u.id)).balanceCents).toBe(10);
    expect((await api.post("/agentDeductFeeConfig/copyCostFee", {})).statusCode).toBe(400);
    const c = await callerOf(u);
    await expect(t.services.billing.chargeAgentCopy(c, { agentId: "p", agentName: "p", priceCents: 100 })).rejects.toMatchObject({
      key: "balanceInsufficient",
    });
  });

  it("priced agents need a paid level unless exempt; the owner runs own agents free; charged again after 5 minutes idle", async () => {
    const agent = { agentId: "paid-agent", agentName: "付费助手", priceCents: 200, ownerId: "owner" };
    const free = await callerOf(await createUser(t, { balanceCents: 10000 }));
    await expect(t.services.billing.checkChat(free, agent, "s")).rejects.toMatchObject({ key: "memberFeatureRequired" });
    const res = await t.app.inject({ method: "GET", url: "/agent_api/api/order/templates" });
    expect(res.statusCode).toBe(200);
    const white = await callerOf(await createUser(t, { isWhite: true, balanceCents: 1000 }));
    await t.services.billing.checkChat(white, agent, "s");
    expect((await balanceOf(t, white.userId)).balanceCents).toBe(800);
    const exemptUser = await callerOf(admin);
    await t.platform.db.update(users).set({ balanceCents: 1000 }).where(eq(users.id, admin.id));
    await t.services.billing.checkChat(exemptUser, agent, "s");
    // attack: a tenant user who took the exempt user's name is nobody special.
    const namesake = await callerOf(await createUser(t, { username: "admin", domain: "quotas-acme", balanceCents: 1000 }));
    expect(namesake).toMatchObject({ isAdmin: false, isExempt: false });
    expect(exemptUser).toMatchObject({ isExempt: true });

    const m = await createUser(t, { memberLevel: "MONTHLY", balanceCents: 1000 });
    const mc = await callerOf(m);
    await t.services.billing.checkChat(mc, agent, "sess");
    await t.services.billing.checkChat(mc, agent, "sess");
    expect((await balanceOf(t, m.id)).balanceCents).toBe(800);
    // Activity keeps the flag: 4 minutes later it is still one charge.
    await t.platform.db
      .update(chatChargeFlags)
      .set({ lastActivityAt: sql`now() - interval '4 minutes'` })
      .where(eq(chatChargeFlags.userId, m.id));
    await t.services.billing.checkChat(mc, agent, "sess");
    expect((await balanceOf(t, m.id)).balanceCents).toBe(800);
    // 5 minutes idle: the next send is billed.
    await t.platform.db
      .update(chatChargeFlags)
      .set({ lastActivityAt: sql`now() - interval '301 seconds'` })
      .where(eq(chatChargeFlags.userId, m.id));
    await t.services.billing.checkChat(mc, agent, "sess");
    expect((await balanceOf(t, m.id)).balanceCents).toBe(600);
    // The owner runs their own priced agent without paying.
    await t.services.billing.checkChat(mc, { ...agent, ownerId: m.id }, "own");
    expect((await balanceOf(t, m.id)).balanceCents).toBe(600);
    const uses = (await ledgerOf(t, m.id)).filter((l) => l.kind === "USE");
    expect(uses).toHaveLength(2);
    expect(uses[0]).toMatchObject({ agentName: "付费助手", amountCents: -200 });
  });

  it("free users get 20 chats a day on free agents, members their plan's countPerDay; a tenant's own models and the exempt are not counted", async () => {
    const agent = { agentId: "free-agent", agentName: "免费助手", priceCents: 0, ownerId: "o" };
    const f = await callerOf(await createUser(t));
    for (let i = 0; i < 20; i++) await t.services.billing.checkChat(f, agent, "s");
    await expect(t.services.billing.checkChat(f, agent, "s")).rejects.toMatchObject({ key: "freeChatsExhausted" });
    // A member's day is the plan's countPerDay (the plan card's 每日对话), with a message of its own.
    const plan = (await t.platform.db.select().from(planTemplates).where(eq(planTemplates.memberLevel, "MONTHLY")))[0];
    await t.platform.db.update(planTemplates).set({ countPerDay: 3 }).where(eq(planTemplates.id, plan.id));
    try {
      const m = await callerOf(await createUser(t, { memberLevel: "MONTHLY" }));
      for (let i = 0; i < 3; i++) await t.services.billing.checkChat(m, agent, "s");
      await expect(t.services.billing.checkChat(m, agent, "s")).rejects.toMatchObject({ key: "dailyChatsExhausted", params: { count: 3 } });
    } finally {
      await t.platform.db.update(planTemplates).set({ countPerDay: plan.countPerDay }).where(eq(planTemplates.id, plan.id));
    }
    // A tenant's user on the tenant's own model: the tenant pays, nothing is counted; on the
    // platform's models the user's level counts as anyone's (joining a tenant brings no free chats).
    const tenantUser = await callerOf(await createUser(t, { domain: "acme-q" }));
    for (let i = 0; i < 25; i++) await t.services.billing.checkChat(tenantUser, agent, "s", { tenantId: tenantUser.tenantId });
    for (let i = 0; i < 20; i++) await t.services.billing.checkChat(tenantUser, agent, "s");
    await expect(t.services.billing.checkChat(tenantUser, agent, "s")).rejects.toMatchObject({ key: "freeChatsExhausted" });
    const white = await callerOf(await createUser(t, { isWhite: true }));
    for (let i = 0; i < 25; i++) await t.services.billing.checkChat(white, agent, "s");
  });

  it("the free-chat day is the Asia/Shanghai day", () => {
    expect(shanghaiDay(new Date("2026-01-01T15:59:59Z"))).toBe("2026-01-01");
    expect(shanghaiDay(new Date("2026-01-01T16:00:00Z"))).toBe("2026-01-02");
  });

  it("benefit codes: admin batches; empty, invalid, used, expired and level rules; level and amount grants", async () => {
    const adm = caller(t, admin.headers);
    const levelBatch = (
      await adm.post("/admin/billing/benefit-batches", { name: "月卡", grant: "LEVEL", memberLevel: "MONTHLY", days: 30, count: 3 })
    ).json().data;
    expect(levelBatch.codes).toHaveLength(3);
    expect((await adm.post("/admin/billing/benefit-batches", { name: "x", grant: "LEVEL", count: 1 })).statusCode).toBe(400);
    expect((await adm.post("/admin/billing/benefit-batches", { name: "x", grant: "AMOUNT", amount: 1, count: 1001 })).statusCode).toBe(400);
    expect(
      (
        await caller(t, (await createUser(t)).headers).post("/admin/billing/benefit-batches", {
          name: "x",
          grant: "AMOUNT",
          amount: 1,
          count: 1,
        })
      ).statusCode,
    ).toBe(401);
    const u = await createUser(t);
    const api = caller(t, u.headers);
    const empty = await api.post("/benefit/useCode", { benefitCode: "  " });
    expect(empty.json().msg).toBe("请输入邀请码！");
    expect((await api.post("/benefit/useCode", {})).json().msg).toBe("请输入邀请码！");
    expect(
      (
        await t.app.inject({ method: "POST", url: "/agent_api/api/benefit/useCode", headers: { ...u.headers, lang: "en" }, payload: {} })
      ).json().msg,
    ).toBe("please enter the invitation code!");
    expect((await api.post("/benefit/useCode", { benefitCode: "NOPE" })).json().msg).toBe("权益码无效");
    const ok = await api.post("/benefit/useCode", { benefitCode: levelBatch.codes[0].toLowerCase() });
    expect(ok.json().data).toMatchObject({ grant: "LEVEL", memberLevel: "MONTHLY" });
    expect((await balanceOf(t, u.id)).memberLevel).toBe("MONTHLY");
    expect((await api.post("/benefit/useCode", { benefitCode: levelBatch.codes[0] })).json().msg).toBe("权益码已被使用");
    const codes = (await adm.get(`/admin/billing/benefit-batches/${levelBatch.batch.id}/codes`)).json().data;
    expect(codes.find((c: { code: string }) => c.code === levelBatch.codes[0]).redeemedBy).toBe(u.username);
    const batches = (await adm.get("/admin/billing/benefit-batches")).json().data;
    expect(batches.find((b: { id: string }) => b.id === levelBatch.batch.id).redeemed).toBe(1);
    // Enterprise levels cannot use codes (the button rule, one place).
    const ent = caller(t, (await createUser(t, { memberLevel: "ENT_ADVANCED_MONTHLY" })).headers);
    expect((await ent.post("/benefit/useCode", { benefitCode: levelBatch.codes[1] })).json().msg).toBe("当前会员等级不可使用权益码");
    // A flagship member cannot take a lower level code.
    const flag = caller(t, (await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" })).headers);
    expect((await flag.post("/benefit/useCode", { benefitCode: levelBatch.codes[1] })).json().msg).toBe(
      "当前会员等级高于权益码等级，无法使用",
    );
    const expired = (
      await adm.post("/admin/billing/benefit-batches", {
        name: "过期",
        grant: "AMOUNT",
        amount: 1,
        count: 1,
        expiresAt: new Date(Date.now() - 1000).toISOString(),
      })
    ).json().data;
    expect((await api.post("/benefit/useCode", { benefitCode: expired.codes[0] })).json().msg).toBe("权益码已过期");
    const money = (await adm.post("/admin/billing/benefit-batches", { name: "红包", grant: "AMOUNT", amount: 8.8, count: 1 })).json().data;
    expect((await api.post("/benefit/useCode", { benefitCode: money.codes[0] })).json().data.amount).toBe(8.8);
    expect((await balanceOf(t, u.id)).balanceCents).toBe(880);
  });

  it("wrong codes are rate limited per user", async () => {
    const api = caller(t, (await createUser(t)).headers);
    let last = 0;
    for (let i = 0; i < 21; i++) last = (await api.post("/benefit/useCode", { benefitCode: `BAD${i}` })).statusCode;
    expect(last).toBe(429);
  });

  it("wallet log USE: paging, date range and the line and pie chart data", async () => {
    const m = await createUser(t, { memberLevel: "MONTHLY", balanceCents: 5000 });
    const mc = await callerOf(m);
    await t.services.billing.checkChat(mc, { agentId: "a", agentName: "甲", priceCents: 100, ownerId: "o" }, "1");
    await t.services.billing.checkChat(mc, { agentId: "a", agentName: "甲", priceCents: 100, ownerId: "o" }, "2");
    await t.services.billing.checkChat(mc, { agentId: "b", agentName: "乙", priceCents: 300, ownerId: "o" }, "3");
    const api = caller(t, m.headers);
    const today = shanghaiDay();
    const page = (await api.post("/userWalletLog/page/USE", { pageNumber: 0, pageSize: 2, startDate: today, endDate: today })).json().data;
    expect(page.total).toBe(3);
    expect(page.list).toHaveLength(2);
    expect(page.lineChart).toEqual(
      expect.arrayContaining([
        { dates: today, agentName: "甲", amount: 2 },
        { dates: today, agentName: "乙", amount: 3 },
      ]),
    );
    expect(page.pieChart).toEqual([
      { agentName: "乙", amount: 3 },
      { agentName: "甲", amount: 2 },
    ]);
    const past = (await api.post("/userWalletLog/page/USE", { startDate: "2020-01-01", endDate: "2020-01-31" })).json().data;
    expect(past).toMatchObject({ total: 0, lineChart: [], pieChart: [] });
    expect((await api.post("/userWalletLog/page/USE", { startDate: "yesterday" })).statusCode).toBe(400);
    // Shaped like a date but no day of the calendar: a plain 400, not a 500.
    expect((await api.post("/userWalletLog/page/USE", { startDate: "2024-13-45" })).statusCode).toBe(400);
    expect((await api.post("/userWalletLog/page/ALL", { startDate: "0000-00-00", endDate: "9999-99-99" })).statusCode).toBe(400);
    expect((await api.post("/userWalletLog/page/NOPE", {})).statusCode).toBe(400);
    expect((await caller(t, {}).post("/userWalletLog/page/USE", {})).statusCode).toBe(403);
  });

  it("expiry returns members to FREE on the schedule", async () => {
    const u = await createUser(t, { memberLevel: "MONTHLY" });
    await t.platform.db
      .update(users)
      .set({ memberEndAt: new Date(Date.now() - 1000) })
      .where(eq(users.id, u.id));
    await t.platform.jobs.runNow("billing.expire-members");
    const row = await balanceOf(t, u.id);
    expect(row.memberLevel).toBe("FREE");
    expect(row.memberEndAt).toBeNull();
  });

  it("the daily cleanup removes stale charging flags and old free-chat counters only", async () => {
    const u = await createUser(t);
    await t.platform.db.insert(freeChatUsage).values([
      { userId: u.id, day: "2020-01-01", count: 5 },
      { userId: u.id, day: shanghaiDay(), count: 3 },
    ]);
    await t.platform.db.insert(chatChargeFlags).values([
      { userId: u.id, sessionId: "old", agentId: "a", lastActivityAt: new Date(Date.now() - 3 * 86_400_000), chargedAt: new Date() },
      { userId: u.id, sessionId: "new", agentId: "a", lastActivityAt: new Date(), chargedAt: new Date() },
    ]);
    await t.platform.jobs.runNow("billing.cleanup");
    expect((await t.platform.db.select().from(freeChatUsage).where(eq(freeChatUsage.userId, u.id))).map((r) => r.count)).toEqual([3]);
    expect((await t.platform.db.select().from(chatChargeFlags).where(eq(chatChargeFlags.userId, u.id))).map((r) => r.sessionId)).toEqual([
      "new",
    ]);
  });

  it("user info carries the fee template of the caller's level", async () => {
    const ent = caller(t, (await createUser(t, { memberLevel: "ENT_ADVANCED_MONTHLY" })).headers);
    expect((await ent.get("/userinfo/findUserInfo")).json().data.agentDeductFeeTemplates).toEqual({ category: "ENTERPRISE", fees: 0.1 });
    const free = caller(t, (await createUser(t)).headers);
    expect((await free.get("/userinfo/findUseFeeData")).json().data.agentDeductFeeTemplates).toEqual({ category: "PERSONAL", fees: 1 });
  });

  it("the bank transfer form is off unless BANK_TRANSFER is set", async () => {
    const api = caller(t, (await createUser(t)).headers);
    expect((await api.post("/order/transfer")).json().msg).toBe("未开放对公转账");
  });
});
