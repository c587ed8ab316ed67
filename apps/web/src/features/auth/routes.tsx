import type { RouteObject } from "react-router";
import { ForgetPage } from "./pages/forget-page";
import { LoginPage } from "./pages/login-page";
import { QrConfirmPage } from "./pages/qr-confirm-page";
import { RegisterPage } from "./pages/register-page";

export const authRoutes: { standalone: RouteObject[] } = {
  standalone: [
    { path: "login", element: <LoginPage />, handle: { public: true } },
    { path: "register", element: <RegisterPage />, handle: { public: true } },
    { path: "forget", element: <ForgetPage />, handle: { public: true } },
    // Needs a signed-in user: anonymous visitors sign in first and come back.
    { path: "qr-confirm", element: <QrConfirmPage /> },
  ],
};
