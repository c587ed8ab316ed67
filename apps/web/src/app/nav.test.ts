import type { UserInfo } from "@agentfair/contracts";
import { describe, expect, it } from "vitest";
import { navItems, navLinks } from "./nav";

const user = (over: Partial<UserInfo>) => ({ isAdmin: false, isTenantAdmin: false, ...over }) as UserInfo;
const paths = (u: UserInfo | undefined) => navLinks(navItems(u)).map((i) => i.path);

describe("navigation entries by role", () => {
  it("shows Model management to platform and tenant administrators, Tenants to platform administrators only", () => {
    expect(paths(user({ isAdmin: true }))).toEqual(expect.arrayContaining(["/models", "/admin/tenants"]));
    expect(paths(user({ isTenantAdmin: true }))).toContain("/models");
    expect(paths(user({ isTenantAdmin: true }))).not.toContain("/admin/tenants");
    expect(paths(user({ isTenantAdmin: true }))).not.toContain("/admin/billing");
    // A tenant's members: its administrators only (a platform administrator's tenant has none to manage here).
    expect(paths(user({ isTenantAdmin: true }))).toContain("/tenant/members");
    expect(paths(user({ isAdmin: true }))).not.toContain("/tenant/members");
    for (const u of [user({}), undefined]) {
      expect(paths(u)).not.toContain("/models");
      expect(paths(u)).not.toContain("/tenant/members");
      expect(paths(u)).not.toContain("/admin/tenants");
    }
  });

  it("keeps the header to six entries at most: the tools and the administration are groups", () => {
    for (const u of [user({ isAdmin: true }), user({ isTenantAdmin: true }), user({}), undefined])
      expect(navItems(u).length).toBeLessThanOrEqual(6);
    expect(navItems(user({})).map((i) => i.path)).not.toContain("nav:admin");
    expect(paths(user({}))).toEqual(expect.arrayContaining(["/designer", "/rules", "/tasks", "/chat-robots"]));
  });
});
