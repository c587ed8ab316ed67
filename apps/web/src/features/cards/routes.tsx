import type { RouteObject } from "react-router";
import { lazyPage } from "../../lib/lazy-page";

/** /cards: the card editor (doc 2 dictionary areas: templates, components, layout). */
export const cardsRoutes: { pages: RouteObject[] } = {
  pages: [{ path: "cards", lazy: lazyPage(() => import("./pages/cards-page"), "CardsPage") }],
};
