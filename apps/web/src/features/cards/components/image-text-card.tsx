import { Button, Empty } from "antd";
import { useTranslation } from "react-i18next";
import type { ChatBus } from "../../../components/chat/event-bus";
import { type CardItem, isBlank } from "../lib/items";

/**
 * Image-text-button card (doc 2 §2): image, title, content (2 lines). In designer mode a card
 * without title or content shows 暂无数据; in render mode its button sends the title into the chat.
 */
export function ImageTextCard({ item, mode, bus }: { item: CardItem; mode: "designer" | "render"; bus?: ChatBus }) {
  const { t } = useTranslation();
  if (mode === "designer" && (isBlank(item.title) || isBlank(item.content)))
    return (
      <div className="card-item image-text-card" data-testid="image-text-card">
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("cards.noData")} />
      </div>
    );
  return (
    <div className="card-item image-text-card" data-testid="image-text-card">
      {!isBlank(item.image) && <img className="image-text-img" src={String(item.image)} alt="" />}
      <div className="image-text-body">
        {!isBlank(item.title) && <div className="image-text-title">{String(item.title)}</div>}
        {!isBlank(item.content) && <div className="image-text-content">{String(item.content)}</div>}
        {!isBlank(item.title) && (
          <Button
            size="small"
            shape="round"
            type="primary"
            ghost
            disabled={mode === "designer"}
            onClick={() => bus?.emit("send-chat-button", { text: String(item.title), flag: true })}
          >
            {t("cards.imageText.more")}
          </Button>
        )}
      </div>
    </div>
  );
}
