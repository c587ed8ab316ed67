import { Spin } from "antd";
import { type ComponentType, lazy, Suspense } from "react";
import type { WidgetRendererProps, WidgetRenderers } from "../components/chat/widgets";
import { loadAllTexts } from "../i18n";

/**
 * A renderer whose code and texts (cards and designer areas) load with the first reply that needs
 * it: the chat page waits for neither.
 */
function lazyRenderer(load: () => Promise<ComponentType<WidgetRendererProps>>): ComponentType<WidgetRendererProps> {
  const Lazy = lazy(async () => ({ default: (await Promise.all([load(), loadAllTexts()]))[0] }));
  return (props) => (
    <Suspense fallback={<Spin size="small" className="chat-widget-pending" />}>
      <Lazy {...props} />
    </Suspense>
  );
}

/**
 * The chat's renderers of `widgetData` by kind, given to components/chat through context so the
 * chat imports no feature. "card": the card template renderer (features/cards); "design": a design
 * of the designer (features/designer), fed by the tool result, its last button sending into the chat.
 */
export const widgetRenderers: WidgetRenderers = {
  card: lazyRenderer(() => import("../features/cards/components/card-widget").then((m) => m.CardWidget)),
  design: lazyRenderer(() => import("../features/designer/components/design-widget").then((m) => m.DesignWidget)),
};
