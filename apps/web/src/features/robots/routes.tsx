import type { RouteObject } from "react-router";
import { lazyPage } from "../../lib/lazy-page";

/** /chat-robots: robot management (/robots is the RPA robots' page). */
export const robotsRoutes: { pages: RouteObject[] } = {
  pages: [{ path: "chat-robots", lazy: lazyPage(() => import("./pages/robots-page"), "ChatRobotsPage") }],
};
