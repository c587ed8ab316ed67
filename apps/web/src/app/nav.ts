import type { UserInfo } from "@agentfair/contracts";

/** Header navigation; features add their entry here when their screens exist. */
export function navItems(user: UserInfo | undefined): { path: string; label: string }[] {
  // admin: platform administrators only; manager: platform or tenant administrators (their tenant's models)
  const items: { path: string; label: string; admin?: boolean; manager?: boolean }[] = [
    { path: "/index", label: "common.nav.index" },
    { path: "/home", label: "common.nav.home" },
    { path: "/recharge", label: "common.nav.recharge" },
    { path: "/admin/agent-review", label: "agents.nav.review", admin: true },
    { path: "/models", label: "models.title", manager: true },
    { path: "/admin/tenants", label: "tenants.admin.nav", admin: true },
    { path: "/admin/billing", label: "billing.admin.nav", admin: true },
  ];
  return items.filter((i) => (i.manager ? user?.isAdmin || user?.isTenantAdmin : !i.admin || user?.isAdmin));
}
