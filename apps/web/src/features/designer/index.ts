/**
 * What the app shell takes from the designer: its routes, and the renderers chat replies use for
 * designs (DesignWidget takes the chat's widgetData; DesignRenderer a design and a result).
 */
export { DesignRenderer, type DesignRendererProps } from "./components/design-renderer";
export { DesignWidget, type DesignWidgetProps } from "./components/design-widget";
export { designerRoutes } from "./routes";
