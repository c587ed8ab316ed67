import type { RouteObject } from "react-router";
import { ExecutePage } from "./pages/execute-page";
import { SharePage } from "./pages/share-page";

export const chatRoutes: { standalone: RouteObject[] } = {
  standalone: [
    { path: "agent-execute", element: <ExecutePage /> },
    // Public so the page itself can send visitors to login with the hash route kept for the way back.
    { path: "share-page", element: <SharePage />, handle: { public: true } },
  ],
};
