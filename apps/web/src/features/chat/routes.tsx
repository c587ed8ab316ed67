import type { RouteObject } from "react-router";
import { lazyPage } from "../../lib/lazy-page";

export const chatRoutes: { standalone: RouteObject[] } = {
  standalone: [
    { path: "agent-execute", lazy: lazyPage(() => import("./pages/execute-page"), "ExecutePage", []) },
    // Public so the page itself can send visitors to login with the hash route kept for the way back.
    { path: "share-page", lazy: lazyPage(() => import("./pages/share-page"), "SharePage", []), handle: { public: true } },
  ],
};
