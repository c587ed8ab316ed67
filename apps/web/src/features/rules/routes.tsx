import type { RouteObject } from "react-router";
import { lazyPage } from "../../lib/lazy-page";

export const rulesRoutes: { pages: RouteObject[] } = {
  pages: [{ path: "rules", lazy: lazyPage(() => import("./pages/rules-page"), "RulesPage") }],
};
