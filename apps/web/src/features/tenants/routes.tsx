import type { RouteObject } from "react-router";
import { lazyPage } from "../../lib/lazy-page";

export const tenantsRoutes: { pages: RouteObject[] } = {
  pages: [
    { path: "admin/tenants", lazy: lazyPage(() => import("./pages/admin-tenants-page"), "AdminTenantsPage") },
    { path: "tenant/members", lazy: lazyPage(() => import("./pages/members-page"), "MembersPage") },
  ],
};
