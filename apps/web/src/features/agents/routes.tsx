import type { RouteObject } from "react-router";
import { lazyPage } from "../../lib/lazy-page";

export const agentsRoutes: { pages: RouteObject[] } = {
  pages: [
    { path: "index", lazy: lazyPage(() => import("./pages/marketplace-page"), "MarketplacePage") },
    { path: "home", lazy: lazyPage(() => import("./pages/home-page"), "HomePage") },
    { path: "agent-detail", lazy: lazyPage(() => import("./pages/agent-detail-page"), "AgentDetailPage") },
    { path: "studio", lazy: lazyPage(() => import("./pages/studio-page"), "StudioPage"), handle: { membership: true } },
    { path: "admin/agent-review", lazy: lazyPage(() => import("./pages/review-page"), "ReviewPage") },
  ],
};
