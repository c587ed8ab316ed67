import type { RouteObject } from "react-router";
import { lazyPage } from "../../lib/lazy-page";

export const designerRoutes: { pages: RouteObject[] } = {
  pages: [{ path: "designer", lazy: lazyPage(() => import("./pages/designer-page"), "DesignerPage") }],
};
