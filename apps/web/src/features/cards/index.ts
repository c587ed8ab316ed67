// What the app shell wires in: the card renderer for chat replies, the plugin editor's card selector, the routes.
export { CardWidget } from "./components/card-widget";
export { CardBindingSelect } from "./components/card-binding-select";
export { CardTemplateView } from "./components/card-template";
export { cardsRoutes } from "./routes";
