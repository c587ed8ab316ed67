import type { UserInfo } from "@agentfair/contracts";

/** Header navigation; features add their entry here when their screens exist. */
export function navItems(user: UserInfo | undefined): { path: string; label: string }[] {
  const items: { path: string; label: string; admin?: boolean }[] = [
    { path: "/index", label: "common.nav.index" },
    { path: "/home", label: "common.nav.home" },
    { path: "/recharge", label: "common.nav.recharge" },
    { path: "/admin/agent-review", label: "agents.nav.review", admin: true },
    { path: "/models", label: "models.title", admin: true },
    { path: "/admin/billing", label: "billing.admin.nav", admin: true },
  ];
  return items.filter((i) => !i.admin || user?.isAdmin);
}
