import { widgetList } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { Skeleton } from "antd";
import type { ChatBus } from "../../../components/chat/event-bus";
import { designKey, fetchDesign } from "../api/designs";
import { DesignRenderer } from "./design-renderer";

/** A reply's widgetData of kind "design": the widgets inline in its config, or the saved design by id. */
export interface DesignWidgetProps {
  widget: { config: { kind: string; designId?: string; widgetList?: unknown }; data?: unknown };
  bus: ChatBus;
}

/** A design inside a chat reply (render mode): fed by the tool result, its last button sends into this chat. */
export function DesignWidget({ widget, bus }: DesignWidgetProps) {
  const inline = widgetList.safeParse(widget.config.widgetList);
  const designId = typeof widget.config.designId === "string" ? widget.config.designId : "";
  const saved = useQuery({
    queryKey: designKey(designId),
    queryFn: () => fetchDesign(designId),
    enabled: !inline.success && !!designId,
  });
  const list = inline.success ? inline.data : saved.data?.widgetList;
  if (!list) return saved.isLoading ? <Skeleton active paragraph={{ rows: 3 }} style={{ width: 320 }} /> : null;
  return (
    <div style={{ maxWidth: 560 }}>
      <DesignRenderer design={list} result={widget.data} bus={bus} />
    </div>
  );
}
