import type { RouteObject } from "react-router";
import { lazyPage } from "../../lib/lazy-page";

export const tasksRoutes: { pages: RouteObject[] } = {
  pages: [{ path: "tasks", lazy: lazyPage(() => import("./pages/tasks-page"), "TasksPage") }],
};
