import type { RouteObject } from "react-router";
import { lazyPage } from "../../lib/lazy-page";

export const rpaRoutes: { pages: RouteObject[] } = {
  pages: [
    { path: "rpa", lazy: lazyPage(() => import("./pages/rpa-page"), "RpaPage") },
    { path: "robots", lazy: lazyPage(() => import("./pages/robots-page"), "RobotsPage") },
  ],
};
