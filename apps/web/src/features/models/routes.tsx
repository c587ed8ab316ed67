import type { RouteObject } from "react-router";
import { lazyPage } from "../../lib/lazy-page";

export const modelsRoutes: { pages: RouteObject[] } = {
  pages: [{ path: "models", lazy: lazyPage(() => import("./pages/models-page"), "ModelsPage") }],
};
