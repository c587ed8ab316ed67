import type { RouteObject } from "react-router";
import { lazyPage } from "../../lib/lazy-page";

export const billingRoutes: { pages: RouteObject[]; standalone: RouteObject[] } = {
  pages: [
    { path: "recharge", lazy: lazyPage(() => import("./pages/recharge-page"), "RechargePage"), handle: { public: true } },
    { path: "user-order", lazy: lazyPage(() => import("./pages/user-order-page"), "UserOrderPage") },
    { path: "admin/billing", lazy: lazyPage(() => import("./pages/admin-billing-page"), "AdminBillingPage") },
  ],
  standalone: [
    { path: "pay/sandbox", lazy: lazyPage(() => import("./pages/sandbox-pay-page"), "SandboxPayPage"), handle: { public: true } },
  ],
};
