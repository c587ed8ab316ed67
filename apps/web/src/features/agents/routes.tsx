import type { RouteObject } from "react-router";
import { AgentDetailPage } from "./pages/agent-detail-page";
import { HomePage } from "./pages/home-page";
import { MarketplacePage } from "./pages/marketplace-page";
import { ReviewPage } from "./pages/review-page";
import { StudioPage } from "./pages/studio-page";

export const agentsRoutes: { pages: RouteObject[] } = {
  pages: [
    { path: "index", element: <MarketplacePage /> },
    { path: "home", element: <HomePage /> },
    { path: "agent-detail", element: <AgentDetailPage /> },
    { path: "studio", element: <StudioPage />, handle: { membership: true } },
    { path: "admin/agent-review", element: <ReviewPage /> },
  ],
};
