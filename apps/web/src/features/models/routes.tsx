import type { RouteObject } from "react-router";
import { ModelsPage } from "./pages/models-page";

export const modelsRoutes: { pages: RouteObject[] } = {
  pages: [{ path: "models", element: <ModelsPage /> }],
};
