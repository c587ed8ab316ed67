import type { RouteObject } from "react-router";
import { lazyPage } from "../../lib/lazy-page";

export const knowledgeRoutes: { pages: RouteObject[] } = {
  pages: [{ path: "knowledge-list", lazy: lazyPage(() => import("./pages/knowledge-list-page"), "KnowledgeListPage") }],
};
