import type { RouteObject } from "react-router";
import { lazyPage } from "../../lib/lazy-page";

export const datatablesRoutes: { pages: RouteObject[] } = {
  pages: [{ path: "datatables", lazy: lazyPage(() => import("./pages/datatables-page"), "DatatablesPage") }],
};
