import type { RouteObject } from "react-router";
import { lazyPage } from "../../lib/lazy-page";

// Lazy like every page: a signed-in visitor's first load carries no sign-in forms.
export const authRoutes: { standalone: RouteObject[] } = {
  standalone: [
    { path: "login", lazy: lazyPage(() => import("./pages/login-page"), "LoginPage", ["auth"]), handle: { public: true } },
    { path: "register", lazy: lazyPage(() => import("./pages/register-page"), "RegisterPage", ["auth"]), handle: { public: true } },
    { path: "forget", lazy: lazyPage(() => import("./pages/forget-page"), "ForgetPage", ["auth"]), handle: { public: true } },
    // Needs a signed-in user: anonymous visitors sign in first and come back.
    { path: "qr-confirm", lazy: lazyPage(() => import("./pages/qr-confirm-page"), "QrConfirmPage", ["auth"]) },
  ],
};
