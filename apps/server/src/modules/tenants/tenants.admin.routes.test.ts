import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../db/schema/index.ts";
import { createTenant, createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";

const A = "/agent_api/api/admin/tenants";
let t: TestApp;
let boss: TestUser;
let acmeUser: TestUser;
let globexUser: TestUser;
let publicUser: TestUser;

const setRole = (tenantId: string, body: Record<string, unknown>, headers: Record<string, string> = boss.headers) =>
  t.app.inject({ method: "PUT", url: `${A}/${tenantId}/role`, headers, payload: body });
const info = async (u: TestUser) => (await t.app.inject({ url: "/agent_api/api/userinfo/findUserInfo", headers: u.headers })).json().data;
const models = (u: TestUser) => t.app.inject({ url: "/agent_api/api/models", headers: u.headers });

beforeAll(async () => {
  t = await createTestApp({ ADMIN_USERNAMES: "boss" });
  await createTenant(t, "acme");
  await createTenant(t, "globex");
  boss = await createUser(t, { username: "boss" });
  acmeUser = await createUser(t, { domain: "acme", username: "alice" });
  globexUser = await createUser(t, { domain: "globex", username: "gary" });
  publicUser = await createUser(t, { username: "pat" });
});
afterAll(async () => {
  await t.close();
});

describe("Tenant administrators (granted by platform administrators)", () => {
  it("lists the non-default tenants with their user counts and administrators", async () => {
    const res = await t.app.inject({ url: A, headers: boss.headers });
    expect(res.statusCode).toBe(200);
    const list = res.json().data as { domain: string; userCount: number; admins: unknown[] }[];
    expect(list.map((x) => x.domain)).toEqual(["acme", "globex"]);
    expect(list[0]).toMatchObject({ id: acmeUser.tenantId, name: "Tenant acme", userCount: 1, admins: [] });
  });

  it("a grant takes effect on the user's next request, and so does a revoke", async () => {
    // signed in and seen before the change: a cached identity must not keep the old role
    expect(await info(acmeUser)).toMatchObject({ isAdmin: false, isTenantAdmin: false });
    expect((await models(acmeUser)).statusCode).toBe(401);

    const granted = await setRole(acmeUser.tenantId, { username: "alice", role: "admin" });
    expect(granted.statusCode).toBe(200);
    expect(granted.json().data.admins).toEqual([{ userId: acmeUser.id, username: "alice", nickname: "alice", disabled: false }]);
    expect(await info(acmeUser)).toMatchObject({ isAdmin: false, isTenantAdmin: true });
    expect((await models(acmeUser)).statusCode).toBe(200);
    const list = (await t.app.inject({ url: A, headers: boss.headers })).json().data;
    expect(list.find((x: { domain: string }) => x.domain === "acme").admins).toHaveLength(1);

    const revoked = await setRole(acmeUser.tenantId, { username: "alice", role: "member" });
    expect(revoked.json().data.admins).toEqual([]);
    expect((await info(acmeUser)).isTenantAdmin).toBe(false);
    expect((await models(acmeUser)).statusCode).toBe(401);
  });

  it("only platform administrators grant: tenant administrators, tenant users and the public get no permission", async () => {
    await setRole(acmeUser.tenantId, { username: "alice", role: "admin" });
    for (const who of [acmeUser, globexUser, publicUser]) {
      expect((await t.app.inject({ url: A, headers: who.headers })).statusCode).toBe(401);
      const res = await setRole(globexUser.tenantId, { username: "gary", role: "admin" }, who.headers);
      expect(res.statusCode).toBe(401);
      expect(res.json().msg).toBe("没有权限");
    }
    // a tenant administrator cannot promote a colleague of its own tenant either
    const bob = await createUser(t, { domain: "acme", username: "bob" });
    expect((await setRole(acmeUser.tenantId, { username: "bob", role: "admin" }, acmeUser.headers)).statusCode).toBe(401);
    expect((await info(bob)).isTenantAdmin).toBe(false);
    expect((await info(globexUser)).isTenantAdmin).toBe(false);
    expect((await t.app.inject({ url: A })).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: "PUT", url: `${A}/${globexUser.tenantId}/role`, payload: { username: "gary", role: "admin" } }))
        .statusCode,
    ).toBe(403);
    await setRole(acmeUser.tenantId, { username: "alice", role: "member" });
  });

  it("refuses the default tenant: it is run by platform administrators", async () => {
    const defaultTenant = await t.services.tenants.defaultTenant();
    const res = await setRole(defaultTenant.id, { username: "pat", role: "admin" });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe("平台默认租户没有租户管理员，由平台管理员管理");
    const en = await t.app.inject({
      method: "PUT",
      url: `${A}/${defaultTenant.id}/role`,
      headers: { ...boss.headers, lang: "en" },
      payload: { username: "pat", role: "admin" },
    });
    expect(en.json().msg).toBe("the default tenant has no tenant administrators: platform administrators manage it");
    const [row] = await t.platform.db.select().from(users).where(eq(users.id, publicUser.id));
    expect(row.tenantRole).toBe("member");
    expect((await info(publicUser)).isTenantAdmin).toBe(false);
  });

  it("a default-tenant user with the role in the database is still no tenant administrator", async () => {
    await t.platform.db.update(users).set({ tenantRole: "admin" }).where(eq(users.id, publicUser.id));
    await t.platform.invalidate("user", publicUser.id);
    expect((await info(publicUser)).isTenantAdmin).toBe(false);
    expect((await models(publicUser)).statusCode).toBe(401);
    await t.platform.db.update(users).set({ tenantRole: "member" }).where(eq(users.id, publicUser.id));
  });

  it("says clearly when the tenant or the user is unknown; a username only names a user of that tenant", async () => {
    const noTenant = await setRole("no-such-tenant", { username: "alice", role: "admin" });
    expect(noTenant.statusCode).toBe(404);
    expect(noTenant.json().msg).toBe("租户不存在");
    const noUser = await setRole(acmeUser.tenantId, { username: "nobody", role: "admin" });
    expect(noUser.statusCode).toBe(404);
    expect(noUser.json().msg).toBe("该租户下没有此用户");
    // gary exists, but in globex
    expect((await setRole(acmeUser.tenantId, { username: "gary", role: "admin" })).statusCode).toBe(404);
    expect((await info(globexUser)).isTenantAdmin).toBe(false);
  });

  it("validates the role and the username", async () => {
    expect((await setRole(acmeUser.tenantId, { username: "alice", role: "owner" })).statusCode).toBe(400);
    expect((await setRole(acmeUser.tenantId, { username: "", role: "admin" })).statusCode).toBe(400);
    expect((await setRole(acmeUser.tenantId, { username: "alice" })).statusCode).toBe(400);
    expect((await info(acmeUser)).isTenantAdmin).toBe(false);
  });

  it("opens and closes a tenant's sign-ups: platform administrators only, never the default tenant", async () => {
    const set = (tenantId: string, open: unknown, headers: Record<string, string> = boss.headers) =>
      t.app.inject({ method: "PUT", url: `${A}/${tenantId}/registration`, headers, payload: { open } });
    expect((await set(globexUser.tenantId, false)).json().data).toMatchObject({ domain: "globex", openRegistration: false });
    expect((await t.app.inject({ url: A, headers: boss.headers })).json().data[1]).toMatchObject({ openRegistration: false });
    expect((await set(globexUser.tenantId, true, globexUser.headers)).statusCode).toBe(401);
    expect((await set(globexUser.tenantId, "yes")).statusCode).toBe(400);
    expect((await set(publicUser.tenantId, false)).statusCode).toBe(404);
    expect((await set(globexUser.tenantId, true)).json().data).toMatchObject({ openRegistration: true });
  });
});

describe("Tenants made and branded by platform administrators", () => {
  const create = (body: Record<string, unknown>, headers: Record<string, string> = boss.headers, lang = "zh") =>
    t.app.inject({ method: "POST", url: A, headers: { ...headers, lang }, payload: body });
  const tenantInfo = async (domain: string) =>
    (await t.app.inject({ url: `/agent_api/api/auth/reg/getTenantInfo?domain=${domain}` })).json().data;

  it("creates a tenant with its branding and first administrator, who signs in on its login page and manages its members", async () => {
    const res = await create({
      domain: " Initech ",
      name: "Initech 科技",
      primaryColor: "#aa3300",
      recordFiling: "沪ICP备00000000号",
      admin: { username: "peter", password: "first-pass-1" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      domain: "initech",
      name: "Initech 科技",
      logo: "",
      primaryColor: "#aa3300",
      backgroundColor: "#f0f5ff",
      userCount: 1,
      openRegistration: false,
      admins: [{ username: "peter" }],
    });
    expect(await tenantInfo("initech")).toMatchObject({ name: "Initech 科技", primaryColor: "#aa3300", recordFiling: "沪ICP备00000000号" });
    const login = await t.app.inject({
      method: "POST",
      url: "/agent_api/api/auth/login",
      payload: { username: "peter", password: "first-pass-1", domain: "initech" },
    });
    expect(login.statusCode).toBe(200);
    const members = await t.app.inject({
      url: "/agent_api/api/tenant/members",
      headers: { authorization: `Bearer ${login.json().data.token}` },
    });
    expect(members.json().data.list).toEqual([expect.objectContaining({ username: "peter", role: "admin" })]);
  });

  it("changes the branding, never the domain; the default tenant is not one of these", async () => {
    const created = (await create({ domain: "hooli", name: "Hooli" })).json().data;
    expect(created.admins).toEqual([]);
    const set = (id: string, body: Record<string, unknown>, headers: Record<string, string> = boss.headers) =>
      t.app.inject({ method: "PUT", url: `${A}/${id}`, headers, payload: body });
    const res = await set(created.id, {
      name: "Hooli 中国",
      logo: "/agent_api/api/files/data/abc",
      backgroundColor: "#FFFFFF",
      domain: "x",
    });
    expect(res.json().data).toMatchObject({
      domain: "hooli",
      name: "Hooli 中国",
      logo: "/agent_api/api/files/data/abc",
      primaryColor: "#1677ff",
    });
    expect((await tenantInfo("hooli")).backgroundColor).toBe("#FFFFFF");
    // Only the fields given change.
    expect((await set(created.id, { recordFiling: "粤ICP备1号" })).json().data).toMatchObject({
      name: "Hooli 中国",
      logo: "/agent_api/api/files/data/abc",
      backgroundColor: "#FFFFFF",
      recordFiling: "粤ICP备1号",
    });
    expect((await set(created.id, {})).statusCode).toBe(400);
    expect((await set(created.id, { logo: "/tenant-logos/acme.svg" })).json().data.logo).toBe("/tenant-logos/acme.svg");
    for (const logo of ["//evil.example/x.png", "/../../etc/passwd", "/agent_api/api/auth/logout", "/tenant-logos/../x.svg"])
      expect((await set(created.id, { logo })).statusCode, logo).toBe(400);
    expect((await set((await t.services.tenants.defaultTenant()).id, { name: "x" })).statusCode).toBe(404);
    expect((await set("no-such", { name: "x" })).statusCode).toBe(404);
    expect((await set(created.id, { name: "x" }, acmeUser.headers)).statusCode).toBe(401);
  });

  it("refuses a bad, reserved or taken domain, bad colours and outside logos, and keeps nothing", async () => {
    const refused = async (body: Record<string, unknown>, status: number, msg?: string) => {
      const res = await create({ name: "坏租户", ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      if (msg) expect(res.json().msg).toBe(msg);
    };
    await refused({ domain: "a" }, 400, "域名须为 2–32 位小写字母、数字或连字符，并以字母开头");
    await refused({ domain: "9lives" }, 400);
    await refused({ domain: "bad/path" }, 400);
    await refused({ domain: "admin" }, 400, "该域名为平台保留路径，请换一个");
    await refused({ domain: "Login" }, 400);
    await refused({ domain: "healthz" }, 400);
    await refused({ domain: "acme" }, 409, "该域名已被其他租户使用");
    await refused({ domain: "badco", primaryColor: "red" }, 400, "颜色格式应为 #RRGGBB");
    await refused({ domain: "badco", logo: "https://evil.example/x.png" }, 400, "Logo 须为本站上传的图片地址");
    await refused({ domain: "badco", logo: "javascript:alert(1)" }, 400);
    await refused({ domain: "badco", logo: "//evil.example/x.png" }, 400);
    await refused({ domain: "null" }, 400);
    await refused({ domain: "badco", name: "" }, 400);
    // The first administrator's account is made with the tenant or not at all.
    await refused({ domain: "badco", admin: { username: "admin", password: "first-pass-1" } }, 409);
    await refused({ domain: "badco", admin: { username: "ok_name", password: "short" } }, 400);
    expect(await t.app.inject({ url: "/agent_api/api/auth/reg/getTenantInfo?domain=badco" }).then((r) => r.statusCode)).toBe(404);
    const en = await create({ domain: "admin", name: "x" }, boss.headers, "en");
    expect(en.json().msg).toBe("this domain is a path of the platform itself: choose another");
  });

  it("only platform administrators create tenants", async () => {
    for (const who of [acmeUser, publicUser]) expect((await create({ domain: "sneaky", name: "x" }, who.headers)).statusCode).toBe(401);
    expect((await t.app.inject({ method: "POST", url: A, payload: { domain: "sneaky", name: "x" } })).statusCode).toBe(403);
  });

  it("a grant starts a stopped account again: how a tenant whose administrators were all stopped gets one back", async () => {
    const created = (await create({ domain: "lockedout", name: "Locked", admin: { username: "lone", password: "first-pass-1" } })).json()
      .data;
    await t.platform.db.update(users).set({ disabledAt: new Date() }).where(eq(users.username, "lone"));
    expect(
      (await t.app.inject({ url: A, headers: boss.headers })).json().data.find((x: { id: string }) => x.id === created.id).admins,
    ).toEqual([expect.objectContaining({ username: "lone", disabled: true })]);
    expect((await setRole(created.id, { username: "lone", role: "admin" })).json().data.admins[0].disabled).toBe(false);
    const login = await t.app.inject({
      method: "POST",
      url: "/agent_api/api/auth/login",
      payload: { username: "lone", password: "first-pass-1", domain: "lockedout" },
    });
    expect(login.statusCode).toBe(200);
  });
});
