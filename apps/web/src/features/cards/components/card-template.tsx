import type { CardTemplateConfig } from "@agentfair/contracts";
import type { ChatBus } from "../../../components/chat/event-bus";
import { ButtonRow } from "../../../components/chat/widgets";
import { itemsOf, mapItem } from "../lib/items";
import "../cards.css";
import { EchartsCard } from "./echarts-card";
import { ImageTextCard } from "./image-text-card";
import { TrainTicketCard } from "./train-ticket-card";
import { WeatherCard } from "./weather-card";

export type CardMode = "designer" | "render";

/**
 * The template renderer (doc 2 §2): picks the card by template type, single or list. A weather list
 * is one card of entries; other lists are one card per item, stacked vertically in render mode and
 * side by side in designer mode. An optional landscape button row follows.
 */
export function CardTemplateView({
  config,
  data,
  mode,
  bus,
}: {
  config: CardTemplateConfig;
  data: unknown;
  mode: CardMode;
  bus?: ChatBus;
}) {
  const items = itemsOf(config, data).map((i) => mapItem(config, i));
  let body: React.ReactNode;
  if (config.type === "weather-card") body = <WeatherCard items={items} />;
  else {
    const cards = (items.length ? items : [{}]).map((item, k) => {
      const key = `${config.type}-${k}`;
      if (config.type === "train-tickets") return <TrainTicketCard key={key} item={item} />;
      if (config.type === "image-text-button") return <ImageTextCard key={key} item={item} mode={mode} bus={bus} />;
      return <EchartsCard key={key} item={item} />;
    });
    body = config.list ? <div className={`card-list card-list-${mode}`}>{cards}</div> : cards[0];
  }
  return (
    <div className="card-template" data-testid="card-template" data-card-type={config.type}>
      {body}
      {bus && config.buttons.length > 0 && <ButtonRow options={config.buttons} bus={bus} disabled={mode === "designer"} />}
    </div>
  );
}
