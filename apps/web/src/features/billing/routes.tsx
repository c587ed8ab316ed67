import type { RouteObject } from "react-router";
import { AdminBillingPage } from "./pages/admin-billing-page";
import { RechargePage } from "./pages/recharge-page";
import { SandboxPayPage } from "./pages/sandbox-pay-page";
import { UserOrderPage } from "./pages/user-order-page";

export const billingRoutes: { pages: RouteObject[]; standalone: RouteObject[] } = {
  pages: [
    { path: "recharge", element: <RechargePage />, handle: { public: true } },
    { path: "user-order", element: <UserOrderPage /> },
    { path: "admin/billing", element: <AdminBillingPage /> },
  ],
  standalone: [{ path: "pay/sandbox", element: <SandboxPayPage />, handle: { public: true } }],
};
