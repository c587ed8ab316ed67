import type { WidgetRendererProps } from "../../../components/chat/widgets";
import { CardTemplateView } from "./card-template";

/** A reply's card (widgetData of kind "card"), in render mode; its buttons send into the chat. */
export function CardWidget({ widget, bus }: WidgetRendererProps) {
  if (widget.config.kind !== "card") return null;
  return <CardTemplateView config={widget.config} data={widget.data} mode="render" bus={bus} />;
}
