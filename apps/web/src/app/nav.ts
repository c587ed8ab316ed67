import type { UserInfo } from "@agentfair/contracts";

export interface NavItem {
  path: string;
  label: string;
  /** A group: its entries open from the header (the path is only its key). */
  children?: NavItem[];
}

/**
 * Header navigation; features add their entry here when their screens exist. The builders' tools
 * and the administration pages are two groups, so the header fits one line at any role.
 */
export function navItems(user: UserInfo | undefined): NavItem[] {
  const isManager = !!(user?.isAdmin || user?.isTenantAdmin);
  const isAdmin = !!user?.isAdmin;
  // Only users of a non-default tenant are its administrators: a platform administrator has no members page.
  const isTenantAdmin = !!user?.isTenantAdmin;
  const workbench: NavItem[] = [
    { path: "/designer", label: "designer.nav" },
    { path: "/cards", label: "cards.nav" },
    { path: "/rules", label: "rules.nav" },
    { path: "/datatables", label: "datatables.nav" },
    { path: "/tasks", label: "tasks.nav" },
    { path: "/chat-robots", label: "robots.nav" },
  ];
  // Agent review, tenants and billing: platform administrators; models and RPA robots: also tenant
  // administrators; a tenant's members: its administrators.
  const admin: NavItem[] = [
    ...(isAdmin ? [{ path: "/admin/agent-review", label: "agents.nav.review" }] : []),
    ...(isTenantAdmin ? [{ path: "/tenant/members", label: "tenants.members.nav" }] : []),
    ...(isManager ? [{ path: "/models", label: "models.title" }] : []),
    ...(isAdmin ? [{ path: "/admin/tenants", label: "tenants.admin.nav" }] : []),
    ...(isAdmin ? [{ path: "/admin/billing", label: "billing.admin.nav" }] : []),
    ...(isManager ? [{ path: "/robots", label: "rpa.robots.nav" }] : []),
  ];
  return [
    { path: "/index", label: "common.nav.index" },
    { path: "/home", label: "common.nav.home" },
    { path: "/insight", label: "insight.nav" },
    { path: "/recharge", label: "common.nav.recharge" },
    { path: "nav:workbench", label: "common.nav.workbench", children: workbench },
    ...(admin.length ? [{ path: "nav:admin", label: "common.nav.admin", children: admin }] : []),
  ];
}

/** Every page entry, groups opened: what the header links to. */
export const navLinks = (items: NavItem[]): NavItem[] => items.flatMap((i) => i.children ?? [i]);
