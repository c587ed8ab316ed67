import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { authSessions, captchas, users } from "../../db/schema/index.ts";
import { alignClock, restoreClock } from "../../test/clock.ts";
import { createTenant, createUser, insertUser, randomIp, solveCaptcha, TEST_PASSWORD } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";

const LOGIN = "/agent_api/api/auth/login";
const INFO = "/agent_api/api/userinfo/findUserInfo";
const LOGOUT = "/agent_api/api/auth/logout";

describe("password login (captcha off)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await createTenant(t, "acme");
  });
  afterAll(async () => {
    await t.close();
  });
  afterEach(restoreClock);

  const login = (payload: object, remoteAddress = randomIp(), headers: Record<string, string> = {}) =>
    t.app.inject({ method: "POST", url: LOGIN, payload, remoteAddress, headers });
  const info = (token: string) => t.app.inject({ url: INFO, headers: { authorization: `Bearer ${token}` } });

  it("signs in with the right password, returns both tokens and sets the cookies", async () => {
    const { user } = await insertUser(t);
    const res = await login({ username: user.username, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 200 });
    const { token, reportToken } = res.json().data;
    expect(token).toMatch(/^[\w-]{40,}$/);
    expect(reportToken).not.toBe(token);
    const cookie = res.cookies.find((c) => c.name === "Admin-Token");
    expect(cookie?.value).toBe(token);
    expect(cookie?.maxAge).toBe(24 * 60 * 60);
    expect(res.cookies.find((c) => c.name === "Report-Token")?.value).toBe(reportToken);
    expect((await info(token)).json().data).toMatchObject({ username: user.username, tenantId: null });
  });

  it("attack: the report token is no API token: refused everywhere but the report calls", async () => {
    const { user } = await insertUser(t);
    const { reportToken } = (await login({ username: user.username, password: TEST_PASSWORD })).json().data;
    const res = await info(reportToken);
    expect(res.statusCode).toBe(403);
    expect(res.json().msg).toBe("token失效");
    const write = await t.app.inject({
      method: "POST",
      url: "/aiagent_api/agent/quick/add",
      headers: { authorization: `Bearer ${reportToken}` },
      payload: {},
    });
    expect(write.statusCode).toBe(403);
    const chat = await t.app.inject({
      method: "POST",
      url: "/agent/agent_runtime/chat",
      payload: { token: reportToken, schema_id: "x", query: "hi" },
    });
    expect(chat.statusCode).toBe(403);
  });

  it("user info says whether the caller is the home user: the default tenant's HOME_USERNAME only", async () => {
    const home = await createUser(t, { username: "admin" });
    expect((await info(home.token)).json().data).toMatchObject({ username: "admin", isHome: true, isAdmin: true });
    const namesake = await createUser(t, { username: "admin", domain: "acme" });
    expect((await info(namesake.token)).json().data).toMatchObject({ username: "admin", isHome: false, isAdmin: false });
    expect((await info((await createUser(t)).token)).json().data.isHome).toBe(false);
  });

  it("accepts the bearer scheme in any case", async () => {
    const u = await createUser(t);
    for (const scheme of ["bearer", "BEARER", "Bearer"])
      expect((await t.app.inject({ url: INFO, headers: { authorization: `${scheme} ${u.token}` } })).statusCode, scheme).toBe(200);
  });

  it("stores only a hash of the token", async () => {
    const u = await createUser(t);
    const rows = await t.platform.db.select().from(authSessions).where(eq(authSessions.userId, u.id));
    expect(rows.length).toBe(2);
    for (const r of rows) expect(r.tokenHash).not.toContain(u.token);
  });

  it("signs in with the email or the phone number instead of the username", async () => {
    const { user } = await insertUser(t, { email: "mail.user@example.com", phone: "13800138000" });
    expect((await login({ username: "Mail.User@Example.COM", password: TEST_PASSWORD })).statusCode).toBe(200);
    expect((await login({ username: "13800138000", password: TEST_PASSWORD })).statusCode).toBe(200);
    expect((await login({ username: user.username, password: TEST_PASSWORD })).statusCode).toBe(200);
  });

  it("refuses a wrong password and an unknown user with the same clear message", async () => {
    const { user } = await insertUser(t);
    const wrong = await login({ username: user.username, password: "nope-nope" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ code: 400, msg: "用户名或密码错误", data: null });
    const unknown = await login({ username: "nobody-here", password: "x" });
    expect(unknown.json()).toEqual({ code: 400, msg: "用户名或密码错误", data: null });
    expect(wrong.cookies.length).toBe(0);
  });

  it("answers in English when asked", async () => {
    const res = await login({ username: "nobody", password: "x" }, randomIp(), { "accept-language": "en-US" });
    expect(res.json().msg).toBe("wrong username or password");
    const viaLang = await login({ username: "nobody", password: "x" }, randomIp(), { lang: "en" });
    expect(viaLang.json().msg).toBe("wrong username or password");
  });

  it.each([
    ["an empty body", {}],
    ["no password", { username: "someone" }],
    ["no username", { password: "x" }],
    ["a blank username", { username: "   ", password: "x" }],
    ["a number as username", { username: 1, password: "x" }],
    ["an overlong password", { username: "a", password: "x".repeat(200) }],
  ])("rejects %s with 400 and the parameter error", async (_name, payload) => {
    const res = await login(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(400);
    expect(res.json().msg).toMatch(/^参数错误/);
    expect(res.json().data).toBeNull();
  });

  it("rejects a body that is not JSON without a 500", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: LOGIN,
      payload: "{not json",
      headers: { "content-type": "application/json" },
      remoteAddress: randomIp(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(400);
  });

  it("locks the account after 5 failures, even for the right password, and only that account", async () => {
    alignClock();
    const { user } = await insertUser(t);
    const other = await insertUser(t);
    for (let i = 0; i < 5; i++) {
      // Different addresses: the lock is per account, not per IP.
      expect((await login({ username: user.username, password: `wrong-${i}` })).statusCode).toBe(400);
    }
    const locked = await login({ username: user.username, password: TEST_PASSWORD });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().msg).toMatch(/^登录失败次数过多，账号已锁定，请\d+分钟后再试$/);
    expect((await login({ username: other.user.username, password: TEST_PASSWORD })).statusCode).toBe(200);
  });

  it("attack: a burst of parallel password guesses gets no more than 5 tries at an account", async () => {
    alignClock();
    const { user } = await insertUser(t);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => login({ username: user.username, password: `burst-${i}` })));
    const tried = results.filter((r) => r.statusCode === 400).length;
    expect(tried).toBeLessThanOrEqual(5);
    expect(results.filter((r) => r.statusCode === 429).length).toBe(20 - tried);
  });

  it("the lock counts per account, whichever identifier the guesses use", async () => {
    alignClock();
    const { user } = await insertUser(t, { email: "lock.me@example.com", phone: "13900139000" });
    const names = [user.username, "lock.me@example.com", "13900139000"];
    for (let i = 0; i < 5; i++) expect((await login({ username: names[i % 3], password: `wrong-${i}` })).statusCode).toBe(400);
    for (const name of names) {
      const res = await login({ username: name, password: TEST_PASSWORD });
      expect(res.statusCode).toBe(429);
      expect(res.json().msg).toMatch(/^登录失败次数过多/);
    }
  });

  it("attack: 80 parallel failed sign-ins from one IP: no more than 20 are checked", async () => {
    alignClock();
    const ip = randomIp();
    const results = await Promise.all(Array.from({ length: 80 }, (_, i) => login({ username: `flood-${i}`, password: "x" }, ip)));
    const checked = results.filter((r) => r.statusCode === 400).length;
    expect(checked).toBeLessThanOrEqual(20);
    expect(results.filter((r) => r.statusCode === 429).length).toBe(80 - checked);
  });

  it("does not lock an account that signs in successfully many times", async () => {
    alignClock();
    const { user } = await insertUser(t);
    for (let i = 0; i < 7; i++) expect((await login({ username: user.username, password: TEST_PASSWORD })).statusCode).toBe(200);
  });

  it("limits failed sign-ins per IP across accounts", async () => {
    alignClock();
    const ip = randomIp();
    const { user } = await insertUser(t);
    for (let i = 0; i < 20; i++) {
      expect((await login({ username: `guess-${i}`, password: "x" }, ip)).statusCode).toBe(400);
    }
    const refused = await login({ username: user.username, password: TEST_PASSWORD }, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().msg).toMatch(/^操作过于频繁，请\d+秒后再试$/);
    // Another address is not affected.
    expect((await login({ username: user.username, password: TEST_PASSWORD })).statusCode).toBe(200);
  });

  it("attack: a client on the internet cannot dodge the per-IP limit with X-Forwarded-For", async () => {
    alignClock();
    const ip = "203.0.113.77";
    const { user } = await insertUser(t);
    for (let i = 0; i < 20; i++) {
      const res = await login({ username: `spoof-${i}`, password: "x" }, ip, { "x-forwarded-for": `198.51.100.${i + 1}` });
      expect(res.statusCode).toBe(400);
    }
    const refused = await login({ username: user.username, password: TEST_PASSWORD }, ip, { "x-forwarded-for": "198.51.100.200" });
    expect(refused.statusCode).toBe(429);
  });

  it("takes the client address from X-Forwarded-For when a local reverse proxy sends it", async () => {
    alignClock();
    const client = randomIp();
    for (let i = 0; i < 20; i++) {
      const res = await login({ username: `proxied-${i}`, password: "x" }, "127.0.0.1", { "x-forwarded-for": client });
      expect(res.statusCode).toBe(400);
    }
    const { user } = await insertUser(t);
    expect((await login({ username: user.username, password: TEST_PASSWORD }, "127.0.0.1", { "x-forwarded-for": client })).statusCode).toBe(
      429,
    );
    // Other clients behind the same proxy are not affected.
    expect(
      (await login({ username: user.username, password: TEST_PASSWORD }, "127.0.0.1", { "x-forwarded-for": randomIp() })).statusCode,
    ).toBe(200);
  });

  it("attack: a client on the LAN (no proxy) cannot pick its own address with X-Forwarded-For", async () => {
    alignClock();
    const lan = "192.168.7.23";
    const tries = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        login({ username: `lan-${i}`, password: "x" }, lan, { "x-forwarded-for": `203.0.113.${i + 1}` }),
      ),
    );
    for (const res of tries) expect(res.statusCode).toBe(400);
    const { user } = await insertUser(t);
    const last = await login({ username: user.username, password: TEST_PASSWORD }, lan, { "x-forwarded-for": "203.0.113.99" });
    expect(last.statusCode).toBe(429);
  }, 90_000);

  it("does not count successful sign-ins as failures (an office behind one IP)", async () => {
    alignClock();
    const ip = randomIp();
    const { user } = await insertUser(t);
    for (let i = 0; i < 25; i++) expect((await login({ username: user.username, password: TEST_PASSWORD }, ip)).statusCode).toBe(200);
  });

  describe("tenants", () => {
    it("signs an acme user in at the acme domain only", async () => {
      const { user } = await insertUser(t, { domain: "acme" });
      const ok = await login({ username: user.username, password: TEST_PASSWORD, domain: "acme" });
      expect(ok.statusCode).toBe(200);
      expect((await info(ok.json().data.token)).json().data).toMatchObject({ tenantDomain: "acme", tenantId: user.tenantId });
      expect((await login({ username: user.username, password: TEST_PASSWORD, domain: "ACME" })).statusCode).toBe(200);
      // At the platform's page the right password signs nobody in, but says where to go; a wrong one says nothing.
      const atDefault = await login({ username: user.username, password: TEST_PASSWORD });
      expect(atDefault.statusCode).toBe(400);
      expect(atDefault.json()).toEqual({ code: 400, msg: "该账号属于「Tenant acme」，请在其登录页 /acme/login 登录", data: null });
      const en = await login({ username: user.username, password: TEST_PASSWORD }, randomIp(), { lang: "en" });
      expect(en.json().msg).toBe("this account belongs to Tenant acme: sign in on its page /acme/login");
      expect(atDefault.headers["set-cookie"]).toBeUndefined();
      const wrong = await login({ username: user.username, password: "not-the-password" });
      expect(wrong.json().msg).toBe("用户名或密码错误");
    });

    it("does not sign a default-tenant user in at acme, and points them to the platform's page", async () => {
      const { user } = await insertUser(t);
      const res = await login({ username: user.username, password: TEST_PASSWORD, domain: "acme" });
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe("该账号属于「Agentfair 智能体平台」，请在其登录页 /login 登录");
    });

    it("gives no hint for a username of several other tenants, or of a stopped account", async () => {
      const name = `many${Date.now() % 100000}`;
      await createUser(t, { username: name });
      await createUser(t, { username: name, domain: "acme" });
      await createTenant(t, "third");
      const res = await login({ username: name, password: TEST_PASSWORD, domain: "third" });
      expect(res.json().msg).toBe("用户名或密码错误");
      const stopped = await createUser(t, { username: `stopped${Date.now() % 100000}`, domain: "acme" });
      await t.platform.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, stopped.id));
      expect((await login({ username: stopped.username, password: TEST_PASSWORD })).json().msg).toBe("用户名或密码错误");
    });

    it("counts wrong passwords at any tenant's page towards the one account's lock", async () => {
      const { user } = await insertUser(t, { domain: "acme" });
      for (let i = 0; i < 5; i++) expect((await login({ username: user.username, password: `wrong-${i}` })).statusCode).toBe(400);
      const locked = await login({ username: user.username, password: TEST_PASSWORD, domain: "acme" });
      expect(locked.statusCode).toBe(429);
    });

    it("keeps the same username apart in two tenants", async () => {
      const name = `twin${Date.now() % 100000}`;
      const a = await createUser(t, { username: name });
      const b = await createUser(t, { username: name, domain: "acme" });
      expect(a.id).not.toBe(b.id);
      expect((await info(b.token)).json().data.tenantDomain).toBe("acme");
    });

    it("says clearly when the domain names no tenant", async () => {
      const { user } = await insertUser(t);
      const res = await login({ username: user.username, password: TEST_PASSWORD, domain: "no-such-tenant" });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 404, msg: "租户不存在", data: null });
    });
  });

  describe("sessions and logout", () => {
    it("refuses calls without a token or with a made-up one with 403 'token失效'", async () => {
      for (const headers of [{}, { authorization: "Bearer made-up-token" }, { authorization: "Basic abc" }]) {
        const res = await t.app.inject({ url: INFO, headers });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ code: 403, msg: "token失效", data: null });
      }
    });

    it("logout revokes both tokens of the session, and only that session", async () => {
      const u = await createUser(t);
      const second = await login({ username: u.username, password: TEST_PASSWORD });
      const other = second.json().data.token as string;
      const first = (await t.platform.db.select().from(authSessions).where(eq(authSessions.userId, u.id))).length;
      expect(first).toBe(4);
      const out = await t.app.inject({ method: "POST", url: LOGOUT, headers: u.headers });
      expect(out.statusCode).toBe(200);
      expect(out.json()).toMatchObject({ code: 200, data: null });
      expect(out.cookies.find((c) => c.name === "Admin-Token")?.value).toBe("");
      const after = await info(u.token);
      expect(after.statusCode).toBe(403);
      expect(after.json().msg).toBe("token失效");
      const revoked = await t.platform.db.select().from(authSessions).where(eq(authSessions.userId, u.id));
      expect(revoked.filter((r) => r.revokedAt).length).toBe(2);
      expect((await info(other)).statusCode).toBe(200);
      // Logging out again with the revoked token is refused too.
      expect((await t.app.inject({ method: "POST", url: LOGOUT, headers: u.headers })).statusCode).toBe(403);
    });

    it("logout without a token is 403", async () => {
      const res = await t.app.inject({ method: "POST", url: LOGOUT });
      expect(res.statusCode).toBe(403);
      expect(res.json().msg).toBe("token失效");
    });

    it("an expired session is refused", async () => {
      const u = await createUser(t);
      await t.platform.db
        .update(authSessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(authSessions.userId, u.id));
      const res = await info(u.token);
      expect(res.statusCode).toBe(403);
      expect(res.json().msg).toBe("token失效");
    });

    it("honours the cookie on reads but not on writes (no cross-site form can log anyone out)", async () => {
      const u = await createUser(t);
      const read = await t.app.inject({ url: INFO, cookies: { "Admin-Token": u.token } });
      expect(read.statusCode).toBe(200);
      const write = await t.app.inject({ method: "POST", url: LOGOUT, cookies: { "Admin-Token": u.token } });
      expect(write.statusCode).toBe(403);
      expect((await info(u.token)).statusCode).toBe(200);
    });
  });

  it("the captcha call says the captcha is off", async () => {
    const res = await t.app.inject({ url: "/agent_api/api/loginImage/captchaImage" });
    expect(res.json()).toMatchObject({ code: 200, data: { captchaEnabled: false, uuid: "", img: "" } });
  });
});

describe("password login with the captcha on", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CAPTCHA: "on" });
  });
  afterAll(async () => {
    await t.close();
  });
  afterEach(restoreClock);

  const login = (payload: object) => t.app.inject({ method: "POST", url: LOGIN, payload, remoteAddress: randomIp() });

  it("serves a real image captcha and stores only a hash of its answer", async () => {
    const res = await t.app.inject({ url: "/agent_api/api/loginImage/captchaImage" });
    expect(res.statusCode).toBe(200);
    const { captchaEnabled, uuid, img } = res.json().data;
    expect(captchaEnabled).toBe(true);
    expect(img).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(img.split(",")[1], "base64").toString()).toContain("<svg");
    const [row] = await t.platform.db.select().from(captchas).where(eq(captchas.id, uuid));
    expect(row.answerHash).toMatch(/^[0-9a-f]{64}$/);
    const ttl = row.expiresAt.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
  });

  it("signs in with the right answer, in any letter case", async () => {
    const { user } = await insertUser(t);
    const captcha = await solveCaptcha(t, "AbCd");
    const res = await login({ username: user.username, password: TEST_PASSWORD, uuid: captcha.uuid, code: "abcd" });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.token).toBeTruthy();
  });

  it("refuses a missing captcha", async () => {
    const { user } = await insertUser(t);
    const res = await login({ username: user.username, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe("请输入验证码");
    const noUuid = await login({ username: user.username, password: TEST_PASSWORD, code: "abcd" });
    expect(noUuid.json().msg).toBe("请输入验证码");
  });

  it("refuses a wrong captcha, even with the right password", async () => {
    const { user } = await insertUser(t);
    const captcha = await solveCaptcha(t);
    const res = await login({ username: user.username, password: TEST_PASSWORD, uuid: captcha.uuid, code: "zzzz" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 400, msg: "验证码错误", data: null });
  });

  it("a captcha is single use: reused after a right or a wrong answer it is refused", async () => {
    const { user } = await insertUser(t);
    const captcha = await solveCaptcha(t);
    const body = { username: user.username, password: TEST_PASSWORD, ...captcha };
    expect((await login(body)).statusCode).toBe(200);
    const reused = await login(body);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().msg).toBe("验证码已失效，请刷新");

    const second = await solveCaptcha(t);
    expect((await login({ ...body, uuid: second.uuid, code: "nope" })).json().msg).toBe("验证码错误");
    expect((await login({ ...body, ...second })).json().msg).toBe("验证码已失效，请刷新");
  });

  it("refuses an expired captcha", async () => {
    const { user } = await insertUser(t);
    const captcha = await solveCaptcha(t);
    await t.platform.db
      .update(captchas)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(captchas.id, captcha.uuid));
    const res = await login({ username: user.username, password: TEST_PASSWORD, ...captcha });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe("验证码已失效，请刷新");
  });

  it("limits new captchas per IP", async () => {
    alignClock();
    const ip = randomIp();
    for (let i = 0; i < 100; i++)
      expect((await t.app.inject({ url: "/agent_api/api/loginImage/captchaImage", remoteAddress: ip })).statusCode).toBe(200);
    const refused = await t.app.inject({ url: "/agent_api/api/loginImage/captchaImage", remoteAddress: ip });
    expect(refused.statusCode).toBe(429);
  });

  it("refuses a made-up captcha id and a malformed one", async () => {
    const { user } = await insertUser(t);
    const madeUp = await login({ username: user.username, password: TEST_PASSWORD, uuid: crypto.randomUUID(), code: "abcd" });
    expect(madeUp.json().msg).toBe("验证码已失效，请刷新");
    const malformed = await login({ username: user.username, password: TEST_PASSWORD, uuid: "'; drop table users; --", code: "abcd" });
    expect(malformed.statusCode).toBe(400);
    expect((await login({ username: user.username, password: TEST_PASSWORD, ...(await solveCaptcha(t)) })).statusCode).toBe(200);
  });
});
