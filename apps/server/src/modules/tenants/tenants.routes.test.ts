import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tenants } from "../../db/schema/index.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";

const INFO = "/agent_api/api/auth/reg/getTenantInfo";
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.platform.db.insert(tenants).values({
    domain: "acme",
    name: "Acme 智能科技",
    logo: "/tenant-logos/acme.svg",
    primaryColor: "#d4380d",
    backgroundColor: "#fff2e8",
    recordFiling: "沪ICP备2025000042号-1",
  });
});
afterAll(async () => {
  await t.close();
});

describe("getTenantInfo", () => {
  it("gives the default tenant for no domain or an empty one, without a tenantId", async () => {
    for (const url of [INFO, `${INFO}?domain=`]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ tenantId: null, domain: "", name: "Agentfair 智能体平台", openRegistration: true });
    }
  });

  it("gives a tenant's branding: name, logo, colours and record filing", async () => {
    const res = await t.app.inject({ url: `${INFO}?domain=acme` });
    const [row] = await t.platform.db.select().from(tenants).where(eq(tenants.domain, "acme"));
    expect(res.json()).toEqual({
      code: 200,
      msg: "操作成功",
      data: {
        tenantId: row.id,
        domain: "acme",
        name: "Acme 智能科技",
        logo: "/tenant-logos/acme.svg",
        primaryColor: "#d4380d",
        backgroundColor: "#fff2e8",
        recordFiling: "沪ICP备2025000042号-1",
        // Closed unless a platform administrator opens it; the login page then offers no sign-up.
        openRegistration: false,
      },
    });
    expect((await t.app.inject({ url: `${INFO}?domain=%20ACME%20` })).json().data.domain).toBe("acme");
  });

  it("says clearly when no tenant has the domain", async () => {
    const res = await t.app.inject({ url: `${INFO}?domain=nowhere` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 404, msg: "租户不存在", data: null });
    const en = await t.app.inject({ url: `${INFO}?domain=nowhere`, headers: { lang: "en" } });
    expect(en.json().msg).toBe("tenant not found");
  });

  it("rejects an overlong domain", async () => {
    expect((await t.app.inject({ url: `${INFO}?domain=${"a".repeat(65)}` })).statusCode).toBe(400);
  });

  it("needs no sign-in and ignores a bad token", async () => {
    const res = await t.app.inject({ url: `${INFO}?domain=acme`, headers: { authorization: "Bearer junk" } });
    expect(res.statusCode).toBe(200);
  });
});
