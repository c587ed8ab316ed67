import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { checkCodes, tenants, users } from "../../db/schema/index.ts";
import { alignClock, restoreClock } from "../../test/clock.ts";
import { createTenant, createUser, insertUser, lastCheckCode, outboxCount, randomIp, TEST_PASSWORD } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";

const SEND = "/agent_api/api/auth/reg/send-check-code";
const REG = "/agent_api/api/auth/reg";
const CODE_LOGIN = "/agent_api/api/auth/reg/emailPhoneLogin";
const RESET = "/agent_api/api/auth/reg/resetPassword";
const INFO = "/agent_api/api/userinfo/findUserInfo";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await createTenant(t, "acme");
});
afterAll(async () => {
  await t.close();
});
afterEach(restoreClock);

let seq = 0;
const newEmail = () => `user${Date.now() % 1_000_000}-${++seq}@example.com`;
const post = (url: string, payload: object, remoteAddress = randomIp()) => t.app.inject({ method: "POST", url, payload, remoteAddress });
const send = (contact: string, purpose: "register" | "login" | "reset" = "register", domain?: string, ip?: string) =>
  post(SEND, { contact, purpose, domain }, ip);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const expireCodes = (contact: string) =>
  t.platform.db
    .update(checkCodes)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(checkCodes.contact, contact));

describe("send-check-code", () => {
  it("writes the code to the outbox and never into the response", async () => {
    const contact = newEmail();
    const res = await send(contact);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 200, msg: "验证码已发送", data: null });
    const code = await lastCheckCode(t, contact);
    expect(code).toMatch(/^\d{6}$/);
    expect(res.body).not.toContain(code);
    expect(JSON.stringify(res.headers)).not.toContain(code);
    const [row] = await t.platform.db.select().from(checkCodes).where(eq(checkCodes.contact, contact));
    expect(row.codeHash).not.toContain(code);
    const ttl = row.expiresAt.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);
  });

  it("lets an administrator read the outbox, and nobody else", async () => {
    const contact = newEmail();
    await send(contact);
    const admin = await createUser(t, { username: "admin" });
    const res = await t.app.inject({ url: "/agent_api/api/admin/outbox", headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const mail = res.json().data.find((m: { recipient: string }) => m.recipient === contact);
    expect(mail.body).toContain(await lastCheckCode(t, contact));
    const user = await createUser(t);
    expect((await t.app.inject({ url: "/agent_api/api/admin/outbox", headers: user.headers })).statusCode).toBe(401);
    expect((await t.app.inject({ url: "/agent_api/api/admin/outbox" })).statusCode).toBe(403);
    // "admin" of another tenant is not an administrator of the platform.
    const acmeAdmin = await createUser(t, { username: "admin", domain: "acme" });
    expect((await t.app.inject({ url: "/agent_api/api/admin/outbox", headers: acmeAdmin.headers })).statusCode).toBe(401);
  });

  it.each([
    ["no contact", {}, /^参数错误：contact/],
    ["a contact that is neither email nor phone", { contact: "hello" }, "请输入正确的邮箱或手机号"],
    ["a short phone number", { contact: "1380013" }, "请输入正确的邮箱或手机号"],
    ["an unknown purpose", { contact: "a@b.cn", purpose: "steal" }, /^参数错误：purpose/],
  ])("rejects %s", async (_name, payload, msg) => {
    const res = await post(SEND, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toMatch(msg);
  });

  it("accepts a mainland phone number", async () => {
    const phone = `139${String(Date.now()).slice(-8)}`;
    expect((await send(phone)).statusCode).toBe(200);
    expect(await lastCheckCode(t, phone)).toMatch(/^\d{6}$/);
  });

  it("refuses a registration code for a contact that is already registered", async () => {
    const email = newEmail();
    await insertUser(t, { email });
    const res = await send(email);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe("该邮箱或手机号已注册");
    expect(await outboxCount(t, email)).toBe(0);
  });

  it("answers a reset for an unknown contact like a real one but sends nothing", async () => {
    const email = newEmail();
    const res = await send(email, "reset");
    expect(res.json()).toEqual({ code: 200, msg: "验证码已发送", data: null });
    expect(await outboxCount(t, email)).toBe(0);
  });

  it("limits sends per contact: one a minute, counted from the last code", async () => {
    alignClock();
    const start = Date.now();
    const contact = newEmail();
    expect((await send(contact)).statusCode).toBe(200);
    const again = await send(contact, "login");
    expect(again.statusCode).toBe(429);
    expect(again.json().msg).toMatch(/^操作过于频繁，请(59|60)秒后再试$/);
    vi.setSystemTime(start + 45_000);
    expect((await send(contact)).json().msg).toMatch(/^操作过于频繁，请1[4-6]秒后再试$/);
    expect(await outboxCount(t, contact)).toBe(1);
    vi.setSystemTime(start + 61_000);
    expect((await send(contact)).statusCode).toBe(200);
    expect(await outboxCount(t, contact)).toBe(2);
  });

  it("limits sends per IP", async () => {
    alignClock();
    const ip = randomIp();
    for (let i = 0; i < 20; i++) expect((await send(newEmail(), "register", undefined, ip)).statusCode).toBe(200);
    const contact = newEmail();
    const refused = await send(contact, "register", undefined, ip);
    expect(refused.statusCode).toBe(429);
    expect(await outboxCount(t, contact)).toBe(0);
    expect((await send(contact)).statusCode).toBe(200);
  });

  it("refuses an unknown tenant domain", async () => {
    const res = await send(newEmail(), "register", "nowhere");
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe("租户不存在");
  });
});

describe("register", () => {
  const register = async (over: Record<string, unknown> = {}) => {
    const contact = (over.contact as string) ?? newEmail();
    await send(contact, "register", over.domain as string | undefined);
    const checkCode = await lastCheckCode(t, contact);
    return post(REG, { username: `n${++seq}x${Date.now() % 100000}`, password: "long-enough-1", contact, checkCode, ...over });
  };

  it("creates the account with the mailed code and signs it in", async () => {
    const contact = newEmail();
    const res = await register({ contact, username: `新用户${seq}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().msg).toBe("注册成功");
    const { token } = res.json().data;
    expect(res.cookies.find((c) => c.name === "Admin-Token")?.value).toBe(token);
    const info = await t.app.inject({ url: INFO, headers: bearer(token) });
    expect(info.json().data).toMatchObject({ email: contact, tenantId: null, userMemberLevel: { memberLevel: "FREE" } });
    const first = await t.app.inject({ url: "/agent_api/api/userinfo/findIsFirstLogin", headers: bearer(token) });
    expect(first.json().data).toEqual({ isFirstLogin: true });
    // The password works for a normal sign-in, by username or email.
    const login = await post("/agent_api/api/auth/login", { username: contact, password: "long-enough-1" });
    expect(login.statusCode).toBe(200);
    const [row] = await t.platform.db.select().from(users).where(eq(users.email, contact));
    expect(row.passwordHash).toMatch(/^scrypt\$/);
    expect(row.passwordHash).not.toContain("long-enough-1");
  });

  it("registers into the tenant of the domain", async () => {
    const res = await register({ domain: "acme" });
    expect(res.statusCode).toBe(200);
    const info = await t.app.inject({ url: INFO, headers: bearer(res.json().data.token) });
    expect(info.json().data.tenantDomain).toBe("acme");
  });

  it("a tenant that does not take sign-ups refuses new accounts (register, or a code login of a new contact), until opened", async () => {
    // Attack: anyone registered into any tenant and so passed the membership gate.
    const closed = await createTenant(t, "closed-co", false);
    const contact = newEmail();
    const refused = await send(contact, "register", "closed-co");
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toBe("该组织未开放注册，请联系组织管理员开通账号");
    expect(await outboxCount(t, contact)).toBe(0);
    // A code asked for login to a new contact does not make an account there either.
    const stranger = newEmail();
    await send(stranger, "login", "closed-co");
    const loginCode = await lastCheckCode(t, stranger);
    expect((await post(CODE_LOGIN, { contact: stranger, checkCode: loginCode, domain: "closed-co" })).json().msg).toBe(
      "该组织未开放注册，请联系组织管理员开通账号",
    );
    expect(await t.platform.db.select().from(users).where(eq(users.tenantId, closed.id))).toHaveLength(0);
    // An existing account of the tenant still signs in with a code.
    const member = newEmail();
    await insertUser(t, { email: member, domain: "closed-co" });
    await send(member, "login", "closed-co");
    expect((await post(CODE_LOGIN, { contact: member, checkCode: await lastCheckCode(t, member), domain: "closed-co" })).statusCode).toBe(
      200,
    );
    // Opened (by a platform administrator: tenants.admin.routes.test), it takes sign-ups.
    await t.platform.db.update(tenants).set({ openRegistration: true }).where(eq(tenants.id, closed.id));
    expect((await register({ domain: "closed-co" })).statusCode).toBe(200);
  });

  it("refuses a wrong code and says so", async () => {
    const contact = newEmail();
    await send(contact);
    const code = await lastCheckCode(t, contact);
    const wrong = code === "000000" ? "111111" : "000000";
    const res = await post(REG, { username: `w${seq++}`, password: "long-enough-1", contact, checkCode: wrong });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe("验证码错误");
  });

  it("refuses an expired code", async () => {
    const contact = newEmail();
    await send(contact);
    const checkCode = await lastCheckCode(t, contact);
    await expireCodes(contact);
    const res = await post(REG, { username: `e${seq++}x`, password: "long-enough-1", contact, checkCode });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe("验证码已失效，请重新获取");
  });

  it("uses a code once", async () => {
    const contact = newEmail();
    await send(contact);
    const checkCode = await lastCheckCode(t, contact);
    expect((await post(REG, { username: `o${seq++}x`, password: "long-enough-1", contact, checkCode })).statusCode).toBe(200);
    // Same code, a second account for a new contact is not possible either: the code belongs to its contact.
    const again = await post(REG, { username: `p${seq++}x`, password: "long-enough-1", contact: newEmail(), checkCode });
    expect(again.statusCode).toBe(400);
    expect(again.json().msg).toBe("验证码已失效，请重新获取");
  });

  it("burns the code at the 5th wrong try", async () => {
    const contact = newEmail();
    await send(contact);
    const checkCode = await lastCheckCode(t, contact);
    const wrong = checkCode === "000000" ? "111111" : "000000";
    const body = { username: `b${seq++}x`, password: "long-enough-1", contact };
    for (let i = 0; i < 4; i++) expect((await post(REG, { ...body, checkCode: wrong })).json().msg).toBe("验证码错误");
    // Still alive after 4 wrong tries.
    const [row] = await t.platform.db.select().from(checkCodes).where(eq(checkCodes.contact, contact));
    expect(row).toMatchObject({ wrongTries: 4, usedAt: null });
    expect((await post(REG, { ...body, checkCode: wrong })).json().msg).toBe("验证码错误");
    const right = await post(REG, { ...body, checkCode });
    expect(right.statusCode).toBe(400);
    expect(right.json().msg).toBe("验证码已失效，请重新获取");
  });

  it("attack: a burst of parallel guesses gets no more than 5 looks at a code", async () => {
    const target = newEmail();
    await send(target);
    const checkCode = await lastCheckCode(t, target);
    const body = { username: `r${seq++}x`, password: "long-enough-1", contact: target };
    const guesses = Array.from({ length: 20 }, (_, i) => String((Number(checkCode) + 1 + i) % 1_000_000).padStart(6, "0"));
    const results = await Promise.all([...guesses, checkCode].map((c) => post(REG, { ...body, checkCode: c })));
    // Every guess compared with the code costs a try: at most 5, the right one included.
    const compared = results.filter((r) => r.json().msg === "验证码错误" || r.statusCode === 200).length;
    expect(compared).toBeLessThanOrEqual(5);
    const [row] = await t.platform.db.select().from(checkCodes).where(eq(checkCodes.contact, target));
    expect(row.wrongTries).toBeLessThanOrEqual(5);
  });

  it("attack: nobody registers an administrator's (or the exempt user's) username to become one", async () => {
    // Names no account has yet (as after SEED_DEMO=0): they still cannot be claimed.
    const own = await createTestApp({
      ADMIN_USERNAMES: "root,admin",
      EXEMPT_USERNAME: "vip",
      HOME_USERNAME: "homepage",
      ADMIN_PASSWORD: "boot-pass-1",
    });
    try {
      await createTenant(own, "acme");
      const reg = async (username: string, domain?: string) => {
        const contact = newEmail();
        await own.app.inject({ method: "POST", url: SEND, payload: { contact, purpose: "register", domain }, remoteAddress: randomIp() });
        const checkCode = await lastCheckCode(own, contact);
        const payload = { username, password: "long-enough-1", contact, checkCode, domain };
        return own.app.inject({ method: "POST", url: REG, payload, remoteAddress: randomIp() });
      };
      for (const username of ["root", "admin", "vip"]) {
        const res = await reg(username);
        expect(res.statusCode).toBe(409);
        expect(res.json().msg).toBe("用户名已存在");
      }
      // The names are reserved in every tenant too (a tenant user of that name is nobody special, but
      // the name would read as the administrator's).
      for (const username of ["root", "admin", "vip", "homepage"]) expect((await reg(username, "acme")).statusCode, username).toBe(409);
      expect((await reg("homepage")).statusCode).toBe(409);
      // The operator's way to the first administrator: ADMIN_PASSWORD at start.
      expect(await own.services.auth.ensureAdmins()).toEqual(["root", "admin"]);
      expect(await own.services.auth.ensureAdmins()).toEqual([]);
      const login = await own.app.inject({
        method: "POST",
        url: "/agent_api/api/auth/login",
        payload: { username: "root", password: "boot-pass-1" },
      });
      const info = await own.app.inject({ url: INFO, headers: bearer(login.json().data.token) });
      expect(info.json().data).toMatchObject({ username: "root", isAdmin: true });
    } finally {
      await own.close();
    }
  });

  it("refuses a taken username (in the same tenant only)", async () => {
    const { user } = await insertUser(t);
    const res = await register({ username: user.username });
    expect(res.statusCode).toBe(409);
    expect(res.json().msg).toBe("用户名已存在");
    expect((await register({ username: user.username, domain: "acme" })).statusCode).toBe(200);
  });

  it("does not take a registration code from another tenant", async () => {
    const contact = newEmail();
    await send(contact, "register", "acme");
    const checkCode = await lastCheckCode(t, contact);
    const res = await post(REG, { username: `x${seq++}x`, password: "long-enough-1", contact, checkCode });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe("验证码已失效，请重新获取");
  });

  it.each([
    ["an empty body", {}],
    ["no code", { username: "abc", password: "long-enough-1", contact: "a@b.cn" }],
    ["no contact", { username: "abc", password: "long-enough-1", checkCode: "123456" }],
    ["a short password", { username: "abc", password: "short", contact: "a@b.cn", checkCode: "123456" }],
    ["a username with spaces", { username: "a b", password: "long-enough-1", contact: "a@b.cn", checkCode: "123456" }],
    ["a one-letter username", { username: "a", password: "long-enough-1", contact: "a@b.cn", checkCode: "123456" }],
  ])("rejects %s", async (_name, payload) => {
    const res = await post(REG, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toMatch(/^参数错误/);
  });
});

describe("sign in with a check code", () => {
  it("signs an existing user in by email", async () => {
    const email = newEmail();
    const { user } = await insertUser(t, { email });
    await send(email, "login");
    const res = await post(CODE_LOGIN, { contact: email, checkCode: await lastCheckCode(t, email) });
    expect(res.statusCode).toBe(200);
    const info = await t.app.inject({ url: INFO, headers: bearer(res.json().data.token) });
    expect(info.json().data.username).toBe(user.username);
  });

  it("creates an account for a new phone number", async () => {
    const phone = `137${String(Date.now()).slice(-8)}`;
    await send(phone, "login");
    const res = await post(CODE_LOGIN, { contact: phone, checkCode: await lastCheckCode(t, phone) });
    expect(res.statusCode).toBe(200);
    const info = await t.app.inject({ url: INFO, headers: bearer(res.json().data.token) });
    expect(info.json().data).toMatchObject({ phone, tenantId: null });
    const [row] = await t.platform.db.select().from(users).where(eq(users.phone, phone));
    expect(row.username).toMatch(/^\w+_\d{4}$/);
  });

  it("refuses a code sent for another purpose, a wrong code, and an expired code", async () => {
    const email = newEmail();
    await insertUser(t, { email });
    await send(email, "reset");
    const resetCode = await lastCheckCode(t, email);
    expect((await post(CODE_LOGIN, { contact: email, checkCode: resetCode })).json().msg).toBe("验证码已失效，请重新获取");

    const other = newEmail();
    await send(other, "login");
    const code = await lastCheckCode(t, other);
    expect((await post(CODE_LOGIN, { contact: other, checkCode: code === "123456" ? "654321" : "123456" })).json().msg).toBe("验证码错误");
    await expireCodes(other);
    expect((await post(CODE_LOGIN, { contact: other, checkCode: code })).json().msg).toBe("验证码已失效，请重新获取");
  });

  it("signs in at the contact's tenant only", async () => {
    const email = newEmail();
    await insertUser(t, { email, domain: "acme" });
    await send(email, "login", "acme");
    const checkCode = await lastCheckCode(t, email);
    expect((await post(CODE_LOGIN, { contact: email, checkCode })).statusCode).toBe(400);
    const ok = await post(CODE_LOGIN, { contact: email, checkCode, domain: "acme" });
    expect(ok.statusCode).toBe(200);
    expect((await t.app.inject({ url: INFO, headers: bearer(ok.json().data.token) })).json().data.tenantDomain).toBe("acme");
  });

  it("rejects missing fields", async () => {
    expect((await post(CODE_LOGIN, {})).statusCode).toBe(400);
    expect((await post(CODE_LOGIN, { contact: "a@b.cn" })).statusCode).toBe(400);
    expect((await post(CODE_LOGIN, { checkCode: "123456" })).statusCode).toBe(400);
  });

  it("limits code checks per IP", async () => {
    alignClock();
    const ip = randomIp();
    const email = newEmail();
    for (let i = 0; i < 30; i++) expect((await post(CODE_LOGIN, { contact: email, checkCode: "123456" }, ip)).statusCode).toBe(400);
    expect((await post(CODE_LOGIN, { contact: email, checkCode: "123456" }, ip)).statusCode).toBe(429);
  });
});

describe("forget password", () => {
  it("resets the password with a mailed code and revokes every old session", async () => {
    const email = newEmail();
    const u = await createUser(t, { email });
    const second = await post("/agent_api/api/auth/login", { username: u.username, password: TEST_PASSWORD });
    const secondToken = second.json().data.token;
    await send(email, "reset");
    const checkCode = await lastCheckCode(t, email);
    const res = await post(RESET, { contact: email, checkCode, password: "brand-new-pass" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 200, msg: "密码已重置，请登录", data: null });
    for (const token of [u.token, secondToken]) {
      const info = await t.app.inject({ url: INFO, headers: bearer(token) });
      expect(info.statusCode).toBe(403);
      expect(info.json().msg).toBe("token失效");
    }
    expect((await post("/agent_api/api/auth/login", { username: u.username, password: TEST_PASSWORD })).statusCode).toBe(400);
    expect((await post("/agent_api/api/auth/login", { username: u.username, password: "brand-new-pass" })).statusCode).toBe(200);
    // The code is spent.
    expect((await post(RESET, { contact: email, checkCode, password: "another-pass-2" })).json().msg).toBe("验证码已失效，请重新获取");
  });

  it("refuses a wrong code and leaves the password alone", async () => {
    const email = newEmail();
    const u = await createUser(t, { email });
    await send(email, "reset");
    const code = await lastCheckCode(t, email);
    const res = await post(RESET, { contact: email, checkCode: code === "000000" ? "999999" : "000000", password: "brand-new-pass" });
    expect(res.json().msg).toBe("验证码错误");
    expect((await t.app.inject({ url: INFO, headers: u.headers })).statusCode).toBe(200);
    expect((await post("/agent_api/api/auth/login", { username: u.username, password: TEST_PASSWORD })).statusCode).toBe(200);
  });

  it("rejects a short new password and missing fields", async () => {
    expect((await post(RESET, { contact: "a@b.cn", checkCode: "123456", password: "short" })).statusCode).toBe(400);
    expect((await post(RESET, { contact: "a@b.cn", password: "long-enough-1" })).statusCode).toBe(400);
    expect((await post(RESET, {})).statusCode).toBe(400);
  });

  it("does not reset a user of another tenant", async () => {
    const email = newEmail();
    await insertUser(t, { email, domain: "acme" });
    await send(email, "reset");
    expect(await outboxCount(t, email)).toBe(0);
    await send(email, "reset", "acme");
    const checkCode = await lastCheckCode(t, email);
    const wrongTenant = await post(RESET, { contact: email, checkCode, password: "brand-new-pass" });
    expect(wrongTenant.statusCode).toBe(400);
    const rows = await t.platform.db
      .select()
      .from(checkCodes)
      .where(and(eq(checkCodes.contact, email), eq(checkCodes.purpose, "reset")));
    expect(rows.length).toBe(1);
    expect(rows[0].usedAt).toBeNull();
  });
});
