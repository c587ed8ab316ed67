import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROBOT_GUEST_PASSWORD_HASH, users } from "../../db/schema/index.ts";
import { callerOfUser } from "../../platform/auth.ts";
import { createTenant, createUser, lastCheckCode, randomIp, type TestUser } from "../../test/factories.ts";
import { MEMBERS_ADDED_PER_HOUR } from "./tenants.members.service.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";

// A tenant's administrator manages its members (beyond the spec): adds accounts though the tenant
// takes no sign-ups, makes administrators, stops accounts and sets new passwords, in their own
// tenant only.

const M = "/agent_api/api/tenant/members";
let t: TestApp;
let admin: TestUser;
let member: TestUser;
let other: TestUser;

const call = (user: TestUser | null, method: "GET" | "POST" | "PUT", url: string, payload?: object, lang = "zh") =>
  t.app.inject({ method, url, payload, headers: { ...(user?.headers ?? {}), lang } });
const login = (username: string, password: string, domain = "closed") =>
  t.app.inject({ method: "POST", url: "/agent_api/api/auth/login", payload: { username, password, domain }, remoteAddress: randomIp() });
const userInfo = (token: string) =>
  t.app.inject({ url: "/agent_api/api/userinfo/findUserInfo", headers: { authorization: `Bearer ${token}` } });
const makeAdmin = async (user: TestUser) => {
  await t.platform.db.update(users).set({ tenantRole: "admin" }).where(eq(users.id, user.id));
  await t.platform.invalidate("user", user.id);
};

beforeAll(async () => {
  t = await createTestApp({ ADMIN_USERNAMES: "boss" });
  await createTenant(t, "closed", false);
  await createTenant(t, "other");
  admin = await createUser(t, { domain: "closed", username: "carol" });
  member = await createUser(t, { domain: "closed", username: "dave" });
  other = await createUser(t, { domain: "other", username: "olga" });
  await makeAdmin(admin);
});
afterAll(async () => {
  await t?.close();
});

describe("tenant members (the tenant's administrators)", () => {
  it("adds a member to a tenant that takes no sign-ups, who then signs in with the first password", async () => {
    const res = await call(admin, "POST", M, {
      username: "erin",
      nickname: "Erin 王",
      contact: "Erin@Closed.example",
      password: "first-pass-1",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      username: "erin",
      nickname: "Erin 王",
      email: "erin@closed.example",
      phone: null,
      role: "member",
      disabled: false,
      lastLoginAt: null,
    });
    const signedIn = await login("erin", "first-pass-1");
    expect(signedIn.statusCode).toBe(200);
    expect((await userInfo(signedIn.json().data.token)).json().data).toMatchObject({ username: "erin", tenantId: admin.tenantId });

    const page = (await call(admin, "GET", `${M}?keyword=ERIN`)).json().data;
    expect(page.total).toBe(1);
    expect(page.list[0].lastLoginAt).not.toBeNull();
    const all = (await call(admin, "GET", M)).json().data;
    expect(all.list.map((m: { username: string }) => m.username).sort()).toEqual(["carol", "dave", "erin"]);
    expect(all.list.find((m: { username: string }) => m.username === "carol").role).toBe("admin");
    // A keyword's % and _ match only themselves.
    expect((await call(admin, "GET", `${M}?keyword=%25`)).json().data.total).toBe(0);
  });

  it("refuses bad input with a clear message and keeps nothing", async () => {
    const bad = async (body: object, status: number, msg?: string | RegExp, lang = "zh") => {
      const res = await call(admin, "POST", M, body, lang);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      if (msg) expect(res.json().msg).toMatch(msg);
    };
    await bad({ username: "dave", password: "first-pass-1" }, 409, "用户名已存在");
    await bad({ username: "dave2", contact: "dave@nowhere", password: "first-pass-1" }, 400);
    await bad({ username: "has space", password: "first-pass-1" }, 400);
    await bad({ username: "fred", password: "short" }, 400);
    await bad({ username: "boss", password: "first-pass-1" }, 409);
    await t.platform.db.update(users).set({ phone: "13800000001" }).where(eq(users.id, member.id));
    await bad({ username: "gina", contact: "13800000001", password: "first-pass-1" }, 409);
    await bad({ username: "gina", contact: "13800000001", password: "first-pass-1" }, 409, /^[\x20-\x7e]+$/, "en");
    // The same name in another tenant is another account.
    expect((await call(admin, "POST", M, { username: "olga", password: "first-pass-1" })).statusCode).toBe(200);
    expect((await t.platform.db.select().from(users).where(eq(users.username, "gina"))).length).toBe(0);
  });

  it("parallel adds of one name make one account", async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => call(admin, "POST", M, { username: "twin", password: "first-pass-1" })),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(7);
  });

  it("only a tenant's administrators manage it, and only its own members", async () => {
    const publicUser = await createUser(t, { username: "pat" });
    const boss = await createUser(t, { username: "boss" });
    for (const caller of [member, publicUser, boss, other]) {
      const res = await call(caller, "GET", M);
      expect(res.statusCode).toBe(401);
      expect(res.json().msg).toBe("仅组织管理员可以管理成员");
      expect((await call(caller, "POST", M, { username: "sneak", password: "first-pass-1" })).statusCode).toBe(401);
    }
    expect((await call(null, "GET", M)).statusCode).toBe(403);
    // Another tenant's administrator sees and changes none of this tenant's members.
    await makeAdmin(other);
    const page = (await call(other, "GET", M)).json().data;
    expect(page.list.map((m: { username: string }) => m.username)).toEqual(["olga"]);
    expect((await call(other, "PUT", `${M}/${member.id}`, { disabled: true })).statusCode).toBe(404);
    // The tenant in the body is not read: a member made by `other` lands in `other`.
    const made = await call(other, "POST", M, { username: "zed", password: "first-pass-1", tenantId: admin.tenantId });
    expect(made.statusCode).toBe(200);
    expect((await t.platform.db.select().from(users).where(eq(users.username, "zed")))[0].tenantId).toBe(other.tenantId);
  });

  it("a stopped member is signed out everywhere and cannot sign in, act through keys or tasks, until restarted", async () => {
    const frank = await call(admin, "POST", M, { username: "frank", password: "first-pass-1" });
    const id = frank.json().data.id as string;
    const token = (await login("frank", "first-pass-1")).json().data.token as string;
    expect((await userInfo(token)).statusCode).toBe(200);

    const stopped = await call(admin, "PUT", `${M}/${id}`, { disabled: true });
    expect(stopped.json().data.disabled).toBe(true);
    expect((await userInfo(token)).statusCode).toBe(403);
    const refused = await login("frank", "first-pass-1");
    // 400 as a failed sign-in: the client reads a 403 as a session that ended.
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toBe("账号已停用，请联系组织管理员");
    // A wrong password says only that the sign-in failed: guessing learns nothing of the account.
    expect((await login("frank", "wrong-pass-1")).json().msg).not.toMatch(/停用/);
    expect(await callerOfUser(t.platform.db, t.platform.config, id)).toBeNull();

    expect((await call(admin, "PUT", `${M}/${id}`, { disabled: false })).json().data.disabled).toBe(false);
    expect((await login("frank", "first-pass-1")).statusCode).toBe(200);
    expect(await callerOfUser(t.platform.db, t.platform.config, id)).not.toBeNull();
  });

  it("a new password signs the member out and replaces the old one", async () => {
    const created = await call(admin, "POST", M, { username: "hana", password: "first-pass-1" });
    const id = created.json().data.id as string;
    const token = (await login("hana", "first-pass-1")).json().data.token as string;
    expect((await call(admin, "PUT", `${M}/${id}`, { password: "short" })).statusCode).toBe(400);
    expect((await call(admin, "PUT", `${M}/${id}`, {})).statusCode).toBe(400);
    expect((await call(admin, "PUT", `${M}/${id}`, { password: "second-pass-2" })).statusCode).toBe(200);
    expect((await userInfo(token)).statusCode).toBe(403);
    expect((await login("hana", "first-pass-1")).statusCode).toBe(400);
    expect((await login("hana", "second-pass-2")).statusCode).toBe(200);
  });

  it("makes a member an administrator from their next request; an administrator cannot stop or demote themself", async () => {
    expect((await call(member, "GET", M)).statusCode).toBe(401);
    expect((await call(admin, "PUT", `${M}/${member.id}`, { role: "admin" })).json().data.role).toBe("admin");
    expect((await call(member, "GET", M)).statusCode).toBe(200);
    for (const change of [{ disabled: true }, { role: "member" }]) {
      const res = await call(admin, "PUT", `${M}/${admin.id}`, change);
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe("不能停用自己或取消自己的管理员身份");
    }
    // Another administrator may.
    expect((await call(member, "PUT", `${M}/${admin.id}`, { role: "member" })).json().data.role).toBe("member");
    expect((await call(admin, "GET", M)).statusCode).toBe(401);
    expect((await call(member, "PUT", `${M}/${admin.id}`, { role: "admin" })).statusCode).toBe(200);
  });

  it("two administrators stopping each other at once leave one of them", async () => {
    const a = (await call(admin, "POST", M, { username: "ann", password: "first-pass-1", role: "admin" })).json().data.id as string;
    const b = (await call(admin, "POST", M, { username: "ben", password: "first-pass-1", role: "admin" })).json().data.id as string;
    const signIn = async (username: string) => {
      const token = (await login(username, "first-pass-1")).json().data.token as string;
      return { headers: { authorization: `Bearer ${token}` } } as TestUser;
    };
    const [ann, ben] = [await signIn("ann"), await signIn("ben")];
    const [x, y] = await Promise.all([
      call(ann, "PUT", `${M}/${b}`, { disabled: true }),
      call(ben, "PUT", `${M}/${a}`, { disabled: true }),
    ]);
    expect([x.statusCode, y.statusCode].sort()).toEqual([200, 401]);
    const page = (await call(admin, "GET", `${M}?keyword=`)).json().data.list as { id: string; disabled: boolean }[];
    expect(page.filter((m) => (m.id === a || m.id === b) && !m.disabled)).toHaveLength(1);
  });

  it("a robot's guest accounts are not members: not listed, not changed", async () => {
    const [guest] = await t.platform.db
      .insert(users)
      .values({ tenantId: admin.tenantId, username: "robot_guest_1", passwordHash: ROBOT_GUEST_PASSWORD_HASH })
      .returning();
    expect((await call(admin, "GET", `${M}?keyword=robot_guest`)).json().data.total).toBe(0);
    expect((await call(admin, "PUT", `${M}/${guest.id}`, { password: "taken-over-1" })).statusCode).toBe(404);
    expect((await login("robot_guest_1", "taken-over-1")).statusCode).toBe(400);
  });

  it("a tenant adds at most MEMBERS_ADDED_PER_HOUR accounts an hour", async () => {
    await createTenant(t, "busy", false);
    const busy = await createUser(t, { domain: "busy" });
    await makeAdmin(busy);
    // The hour's count taken up to one below the limit, as that many adds would.
    await t.platform.rateLimiter.take(`tenant-members:add:${busy.tenantId}`, 10_000, 3600, undefined, MEMBERS_ADDED_PER_HOUR - 1);
    expect((await call(busy, "POST", M, { username: "last_one", password: "first-pass-1" })).statusCode).toBe(200);
    expect((await call(busy, "POST", M, { username: "one_more", password: "first-pass-1" })).statusCode).toBe(429);
    expect((await t.platform.db.select().from(users).where(eq(users.username, "one_more"))).length).toBe(0);
    // Another tenant's administrators add as before.
    expect((await call(admin, "POST", M, { username: "not_busy", password: "first-pass-1" })).statusCode).toBe(200);
  });

  it("a stopped account cannot set its own password with a check code", async () => {
    const made = await call(admin, "POST", M, { username: "ivan", contact: "ivan@closed.example", password: "first-pass-1" });
    await call(admin, "PUT", `${M}/${made.json().data.id}`, { disabled: true });
    await t.app.inject({
      method: "POST",
      url: "/agent_api/api/auth/reg/send-check-code",
      payload: { contact: "ivan@closed.example", purpose: "reset", domain: "closed" },
      remoteAddress: randomIp(),
    });
    const code = await lastCheckCode(t, "ivan@closed.example");
    const reset = await t.app.inject({
      method: "POST",
      url: "/agent_api/api/auth/reg/resetPassword",
      payload: { contact: "ivan@closed.example", checkCode: code, password: "mine-now-1", domain: "closed" },
      remoteAddress: randomIp(),
    });
    expect(reset.json().msg).toBe("账号已停用，请联系组织管理员");
    await call(admin, "PUT", `${M}/${made.json().data.id}`, { disabled: false });
    expect((await login("ivan", "mine-now-1")).statusCode).toBe(400);
    expect((await login("ivan", "first-pass-1")).statusCode).toBe(200);
  });
});
