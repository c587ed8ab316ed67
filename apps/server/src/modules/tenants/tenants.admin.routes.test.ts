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
    expect(granted.json().data.admins).toEqual([{ userId: acmeUser.id, username: "alice", nickname: "alice" }]);
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
