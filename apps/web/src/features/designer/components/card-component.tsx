import { Empty } from "antd";
import { useTranslation } from "react-i18next";
import { useWidgetRenderers } from "../../../components/chat/widgets";
import { readPath } from "../model/result";
import type { Widget } from "../model/widgets";
import { useDesign } from "./design-context";

const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === "";

/**
 * The palette's card components (§2, §3): the image-text card (img, title, content) and the weather
 * card (lists), drawn by the card renderer the app shell gives the chat, fed through useVar.
 */
export function CardComponent({ widget }: { widget: Widget }) {
  const { t } = useTranslation();
  const ctx = useDesign();
  const Card = useWidgetRenderers().card;
  const o = widget.options;
  const fromResult = readPath(ctx.result, o.useVar);
  if (widget.type === "imagetext") {
    const item = (fromResult && typeof fromResult === "object" ? fromResult : { img: o.img, title: o.title, content: o.content }) as Record<
      string,
      unknown
    >;
    // §8: in designer mode a card without title or content shows 暂无数据.
    if (ctx.mode === "designer" && (blank(item.title) || blank(item.content)))
      return (
        <div className="dz-card-empty" data-testid="imagetext-empty">
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("designer.noData")} />
        </div>
      );
    if (!Card) return null;
    return (
      <Card
        widget={{
          config: { kind: "card", type: "image-text-button", list: false, dataPath: "", options: { image: "img" }, buttons: [] },
          data: item,
        }}
        bus={ctx.bus ?? { on: () => () => undefined, emit: () => undefined }}
      />
    );
  }
  const lists = Array.isArray(fromResult) ? fromResult : Array.isArray(o.lists) ? o.lists : [];
  if (!Card) return null;
  return (
    <Card
      widget={{ config: { kind: "card", type: "weather-card", list: true, dataPath: "", options: {}, buttons: [] }, data: lists }}
      bus={ctx.bus ?? { on: () => () => undefined, emit: () => undefined }}
    />
  );
}
