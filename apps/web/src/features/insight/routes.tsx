import type { RouteObject } from "react-router";
import { lazyPage } from "../../lib/lazy-page";

export const insightRoutes: { pages: RouteObject[]; standalone: RouteObject[] } = {
  pages: [{ path: "insight", lazy: lazyPage(() => import("./pages/insight-page"), "InsightPage"), handle: { membership: true } }],
  // Public so a share-link holder reads a report without signing in; the page sends others to login.
  standalone: [
    { path: "insight-detail", lazy: lazyPage(() => import("./pages/report-page"), "ReportPage"), handle: { public: true } },
    { path: "insight-report", lazy: lazyPage(() => import("./pages/report-page"), "ReportPage"), handle: { public: true } },
  ],
};
