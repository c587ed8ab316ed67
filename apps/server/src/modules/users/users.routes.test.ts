import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userGroups, users } from "../../db/schema/index.ts";
import { createTenant, createUser, randomIp, TEST_PASSWORD } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";

const U = "/agent_api/api/userinfo";
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await createTenant(t, "acme");
});
afterAll(async () => {
  await t.close();
});

const get = (path: string, headers: Record<string, string> = {}) => t.app.inject({ url: `${U}/${path}`, headers });

describe("findUserInfo", () => {
  it("gives the fields of doc 1 §3 for a member of the public platform", async () => {
    const u = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY", balanceCents: 12345, email: "m@example.com" });
    const res = await get("findUserInfo", u.headers);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      userId: u.id,
      tenantId: null,
      tenantDomain: "",
      username: u.username,
      email: "m@example.com",
      isWhite: false,
      isAdmin: false,
      userInfo: { accountBalance: 123.45 },
      groups: [],
      agentDeductFeeTemplates: { category: "PERSONAL", fees: expect.any(Number) },
    });
    expect(data.userMemberLevel.memberLevel).toBe("PER_FLAGSHIP_MONTHLY");
    expect(new Date(data.userMemberLevel.endDate).getTime()).toBeGreaterThan(Date.now());
    expect(JSON.stringify(data)).not.toMatch(/password|scrypt/i);
  });

  it("gives a tenant user's tenantId and groups", async () => {
    const u = await createUser(t, { domain: "acme", memberLevel: "ENT_FLAGSHIP_MONTHLY" });
    await t.platform.db.insert(userGroups).values({ userId: u.id, groupName: "研发部" });
    const data = (await get("findUserInfo", u.headers)).json().data;
    expect(data.tenantId).toBe(u.tenantId);
    expect(data.tenantDomain).toBe("acme");
    expect(data.groups).toEqual([{ id: expect.any(String), groupName: "研发部" }]);
    expect(data.agentDeductFeeTemplates.category).toBe("ENTERPRISE");
  });

  it("marks administrators (configured usernames of the default tenant) and white-listed users", async () => {
    const admin = await createUser(t, { username: "admin" });
    expect((await get("findUserInfo", admin.headers)).json().data.isAdmin).toBe(true);
    const white = await createUser(t, { isWhite: true });
    expect((await get("findUserInfo", white.headers)).json().data).toMatchObject({ isWhite: true, isAdmin: false });
  });

  it("reads an ended membership as FREE", async () => {
    const u = await createUser(t, { memberLevel: "MONTHLY" });
    await t.platform.db
      .update(users)
      .set({ memberEndAt: new Date(Date.now() - 1000) })
      .where(eq(users.id, u.id));
    const data = (await get("findUserInfo", u.headers)).json().data;
    expect(data.userMemberLevel).toEqual({ memberLevel: "FREE", endDate: null });
  });

  it("a free user has no end date", async () => {
    const u = await createUser(t);
    expect((await get("findUserInfo", u.headers)).json().data.userMemberLevel).toEqual({ memberLevel: "FREE", endDate: null });
  });
});

describe("findUserMemberInfo and findUseFeeData", () => {
  it("give the level, the validity, the balance and the fee template", async () => {
    const u = await createUser(t, { memberLevel: "ENT_ADVANCED_MONTHLY", balanceCents: 500 });
    const member = (await get("findUserMemberInfo", u.headers)).json().data;
    expect(member).toMatchObject({ memberLevel: "ENT_ADVANCED_MONTHLY", accountBalance: 5 });
    expect(member.endDate).toBeTruthy();
    const fees = (await get("findUseFeeData", u.headers)).json().data;
    expect(fees).toEqual({ agentDeductFeeTemplates: { category: "ENTERPRISE", fees: expect.any(Number) } });
  });
});

describe("findIsFirstLogin and firstLoginDone (the usage-intent survey)", () => {
  const done = (headers: Record<string, string>, payload: unknown) =>
    t.app.inject({ method: "POST", url: `${U}/firstLoginDone`, headers, payload: payload as object });
  const signInAgain = async (username: string) => {
    const again = await t.app.inject({
      method: "POST",
      url: "/agent_api/api/auth/login",
      payload: { username, password: TEST_PASSWORD },
      remoteAddress: randomIp(),
    });
    return { authorization: `Bearer ${again.json().data.token}` };
  };

  it("stays the first sign-in, sign-in after sign-in, until the survey is answered", async () => {
    const u = await createUser(t);
    const first = await get("findIsFirstLogin?tenantId=", u.headers);
    expect(first.json()).toEqual({ code: 200, msg: "操作成功", data: { isFirstLogin: true } });
    const next = await signInAgain(u.username);
    expect((await get("findIsFirstLogin", next)).json().data.isFirstLogin).toBe(true);

    const res = await done(next, { survey: "answered" });
    expect(res.json()).toEqual({ code: 200, msg: "操作成功", data: null });
    expect((await get("findIsFirstLogin", u.headers)).json().data.isFirstLogin).toBe(false);
    expect((await get("findIsFirstLogin", await signInAgain(u.username))).json().data.isFirstLogin).toBe(false);
    const [row] = await t.platform.db.select().from(users).where(eq(users.id, u.id));
    expect(row.surveyOutcome).toBe("answered");
  });

  it("is over once the survey is explicitly skipped; the first outcome is kept", async () => {
    const u = await createUser(t);
    expect((await done(u.headers, { survey: "skipped" })).statusCode).toBe(200);
    expect((await get("findIsFirstLogin", u.headers)).json().data.isFirstLogin).toBe(false);
    await done(u.headers, { survey: "answered" });
    const [row] = await t.platform.db.select().from(users).where(eq(users.id, u.id));
    expect(row.surveyOutcome).toBe("skipped");
  });

  it("only for the caller, with a known outcome", async () => {
    const u = await createUser(t);
    const other = await createUser(t);
    expect((await done(u.headers, { survey: "maybe" })).statusCode).toBe(400);
    expect((await done(u.headers, {})).statusCode).toBe(400);
    expect((await done({}, { survey: "answered" })).statusCode).toBe(403);
    await done(u.headers, { survey: "answered", userId: other.id });
    expect((await get("findIsFirstLogin", other.headers)).json().data.isFirstLogin).toBe(true);
  });

  it("rejects an overlong tenantId", async () => {
    const u = await createUser(t);
    expect((await get(`findIsFirstLogin?tenantId=${"x".repeat(100)}`, u.headers)).statusCode).toBe(400);
  });
});

describe("every user call needs a session", () => {
  it.each(["findUserInfo", "findUserMemberInfo", "findUseFeeData", "findIsFirstLogin"])(
    "%s answers 403 'token失效' without one",
    async (path) => {
      const res = await get(path);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 403, msg: "token失效", data: null });
    },
  );
});
