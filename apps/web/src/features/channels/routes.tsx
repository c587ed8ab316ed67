import type { RouteObject } from "react-router";
import { lazyPage } from "../../lib/lazy-page";

export const channelsRoutes: { pages: RouteObject[] } = {
  pages: [{ path: "mcp-access", lazy: lazyPage(() => import("./pages/mcp-access-page"), "McpAccessPage") }],
};
