import { and, eq, gt, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agents, planTemplates, users } from "../../db/schema/index.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { seedCatalog } from "../billing/billing.fixtures.ts";

// The plan's paidAgentCount (付费智能体 N 个): how many of a user's own agents may carry a price, set
// with PUT /api/agent/intro/{id}. FREE: 0; MONTHLY is set to 2 here.

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ EXEMPT_USERNAME: "vip" });
  await seedCatalog(t);
  await t.platform.db.update(planTemplates).set({ paidAgentCount: 2 }).where(eq(planTemplates.memberLevel, "MONTHLY"));
}, 180_000);
afterAll(async () => {
  await t?.close();
});

async function newAgent(user: TestUser, name = "助手") {
  const res = await t.app.inject({
    method: "POST",
    url: "/aiagent_api/agent/quick/add",
    headers: user.headers,
    payload: { agentName: name },
  });
  expect(res.json().code, res.body).toBe(200);
  return res.json().data.agentId as string;
}
async function intro(user: TestUser, id: string, price?: number, lang = "zh") {
  const res = await t.app.inject({
    method: "PUT",
    url: `/agent_api/api/agent/intro/${id}`,
    headers: { ...user.headers, lang },
    payload: { agentName: "付费助手", ...(price !== undefined && { price }) },
  });
  return { status: res.statusCode, ...(res.json() as { code: number; msg: string }) };
}
const priced = async (user: TestUser) =>
  (
    await t.platform.db
      .select()
      .from(agents)
      .where(and(eq(agents.ownerId, user.id), gt(agents.priceCents, 0), isNull(agents.deletedAt)))
  ).length;

async function setLevel(user: TestUser, memberLevel: "FREE" | "MONTHLY" | "PER_FLAGSHIP_MONTHLY") {
  await t.platform.db
    .update(users)
    .set({ memberLevel, memberEndAt: memberLevel === "FREE" ? null : new Date(Date.now() + 30 * 86400_000) })
    .where(eq(users.id, user.id));
  await t.platform.invalidate("user", user.id);
}

describe("plan limit: priced agents (paidAgentCount)", () => {
  it("refuses pricing one agent past the plan's number; priced ones keep changing their price, unpriced ones free a place", async () => {
    const owner = await createUser(t, { memberLevel: "MONTHLY" });
    const [a, b, c] = [await newAgent(owner), await newAgent(owner), await newAgent(owner)];
    expect((await intro(owner, a, 2)).code).toBe(200);
    expect((await intro(owner, b, 3)).code).toBe(200);
    expect(await intro(owner, c, 1)).toMatchObject({ status: 400, msg: "付费智能体数量已达会员上限（2个），请升级会员" });
    expect((await intro(owner, c, 1, "en")).msg).toBe("your plan allows 2 priced agents and they are all in use: upgrade to price more");
    expect(await priced(owner)).toBe(2);
    // Free agents, renames and new prices of priced agents are not limited.
    expect((await intro(owner, c, 0)).code).toBe(200);
    expect((await intro(owner, c)).code).toBe(200);
    expect((await intro(owner, a, 5)).code).toBe(200);
    // An agent made free (or deleted) frees its place.
    expect((await intro(owner, b, 0)).code).toBe(200);
    expect((await intro(owner, c, 1)).code).toBe(200);
    await t.app.inject({ method: "DELETE", url: `/agent_api/api/agent/${c}`, headers: owner.headers });
    expect((await intro(owner, b, 1)).code).toBe(200);
  });

  it("a FREE user (paidAgentCount 0) cannot price an agent, a tenant's user neither", async () => {
    const owner = await createUser(t, { memberLevel: "MONTHLY" });
    const id = await newAgent(owner);
    await setLevel(owner, "FREE");
    expect(await intro(owner, id, 2)).toMatchObject({ status: 400, msg: "当前会员等级不能设置付费智能体，请升级会员" });
    expect((await intro(owner, id, 2, "en")).msg).toBe("your member level cannot price agents, please upgrade");
    expect((await intro(owner, id, 0)).code).toBe(200);
    // A tenant's users may use the studio at FREE level; their level's priced agents still apply.
    const tenantUser = await createUser(t, { domain: `lim${Math.random().toString(36).slice(2, 8)}` });
    const theirs = await newAgent(tenantUser);
    expect((await intro(tenantUser, theirs, 2)).msg).toBe("当前会员等级不能设置付费智能体，请升级会员");
  });

  it("parallel pricing at one below the limit ends at exactly the limit", async () => {
    const owner = await createUser(t, { memberLevel: "MONTHLY" });
    const first = await newAgent(owner);
    expect((await intro(owner, first, 1)).code).toBe(200);
    const ids = [];
    for (let i = 0; i < 8; i++) ids.push(await newAgent(owner, `助手${i}`));
    const outcomes = await Promise.all(ids.map((id) => intro(owner, id, 2)));
    expect(outcomes.filter((o) => o.code === 200)).toHaveLength(1);
    expect(await priced(owner)).toBe(2);
  });

  it("does not limit white-listed users, the exempt user and administrators", async () => {
    // At MONTHLY (2 priced agents): three of each.
    const level = { memberLevel: "MONTHLY" } as const;
    for (const user of [
      await createUser(t, { isWhite: true, ...level }),
      await createUser(t, { username: "vip", ...level }),
      await createUser(t, { username: "admin", ...level }),
    ]) {
      for (let i = 0; i < 3; i++) expect((await intro(user, await newAgent(user), 1)).code).toBe(200);
      expect(await priced(user)).toBe(3);
    }
  });

  it("an upgrade raises the limit to the new level's", async () => {
    const owner = await createUser(t, { memberLevel: "MONTHLY" });
    const ids = [await newAgent(owner), await newAgent(owner), await newAgent(owner)];
    await intro(owner, ids[0], 1);
    await intro(owner, ids[1], 1);
    expect((await intro(owner, ids[2], 1)).code).toBe(400);
    await setLevel(owner, "PER_FLAGSHIP_MONTHLY");
    expect((await intro(owner, ids[2], 1)).code).toBe(200);
  });
});
