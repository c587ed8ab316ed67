import { Spin } from "antd";
import { createBrowserRouter, Navigate, type RouteObject } from "react-router";
import { agentsRoutes } from "../features/agents/routes";
import { authRoutes } from "../features/auth/routes";
import { billingRoutes } from "../features/billing/routes";
import { chatRoutes } from "../features/chat/routes";
import { designerRoutes } from "../features/designer/routes";
import { channelsRoutes } from "../features/channels/routes";
import { modelsRoutes } from "../features/models/routes";
import { tenantsRoutes } from "../features/tenants/routes";
import { cardsRoutes } from "../features/cards/routes";
import { datatablesRoutes } from "../features/datatables/routes";
import { rulesRoutes } from "../features/rules/routes";
import { rpaRoutes } from "../features/rpa/routes";
import { insightRoutes } from "../features/insight/routes";
import { robotsRoutes } from "../features/robots/routes";
import { tasksRoutes } from "../features/tasks/routes";
import { lazyPage } from "../lib/lazy-page";
import { NavigationGuard } from "./guards";
import { knowledgeListRoute } from "./knowledge-list-route";

/**
 * Every route of the spec that is built. Each feature exports its routes: `pages` render
 * inside the layout (header, footer), `standalone` ones fill the screen. A route's `handle`
 * may say `{ public: true }` (no sign-in needed) or `{ membership: true }` (membership gate).
 */
const features: { pages?: RouteObject[]; standalone?: RouteObject[] }[] = [
  authRoutes,
  chatRoutes,
  modelsRoutes,
  agentsRoutes,
  billingRoutes,
  tenantsRoutes,
  designerRoutes,
  cardsRoutes,
  datatablesRoutes,
  rulesRoutes,
  rpaRoutes,
  channelsRoutes,
  insightRoutes,
  robotsRoutes,
  tasksRoutes,
];

/** Every route. A new first path segment goes into APP_SEGMENTS too (lib/tenant.ts), or it is taken for a tenant. */
export const appRoutes: RouteObject[] = [
  {
    element: <NavigationGuard />,
    // What the first screen shows while a lazily loaded page's code arrives.
    hydrateFallbackElement: (
      <div style={{ minHeight: "100vh", display: "grid", placeItems: "center" }}>
        <Spin size="large" />
      </div>
    ),
    children: [
      ...features.flatMap((f) => f.standalone ?? []),
      {
        // Lazy like the pages: the standalone chat page never loads the header's menu.
        lazy: lazyPage(() => import("./layout"), "Layout"),
        children: [
          { index: true, element: <Navigate to="/index" replace /> },
          ...features.flatMap((f) => f.pages ?? []),
          knowledgeListRoute,
          // Public: a mistyped address is a page not found for everybody, not a reason to sign in.
          { path: "*", lazy: lazyPage(() => import("./not-found"), "NotFound"), handle: { public: true } },
        ],
      },
    ],
  },
];

export function createAppRouter(basename: string) {
  return createBrowserRouter(appRoutes, { basename });
}
