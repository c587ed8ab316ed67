import { ArrowRightOutlined } from "@ant-design/icons";
import { useTranslation } from "react-i18next";
import { type CardItem, isBlank } from "../lib/items";
import { cityOfStation } from "../lib/stations";
import { parseDate } from "../lib/weather";

/**
 * Train ticket card (doc 2 §2): header departure city, date MM月DD日 with weekday, arrival city;
 * body start time, from-station, duration in hours, end time, to-station; footer train number and
 * first- and second-class seats. Missing values show the placeholders; a missing seat count 无.
 */
export function TrainTicketCard({ item }: { item: CardItem }) {
  const { t } = useTranslation();
  const or = (v: unknown, placeholder: string) =>
    isBlank(v) ? <span className="card-placeholder">{t(`cards.train.${placeholder}`)}</span> : String(v);
  const fromCity = cityOfStation(item.from);
  const toCity = cityOfStation(item.to);
  const date = parseDate(item.date);
  const weekdays = t("cards.weather.weekdays", { returnObjects: true }) as string[];
  const seats = (v: unknown) => {
    if (isBlank(v) || v === 0 || v === "0") return t("cards.train.seatNone");
    return typeof v === "number" || /^\d+$/.test(String(v)) ? t("cards.train.seats", { count: Number(v) }) : String(v);
  };
  return (
    <div className="card-item train-card" data-testid="train-card">
      <div className="train-header">
        <span className="train-city" data-testid="train-from-city">
          {or(fromCity, "from")}
        </span>
        <span className="train-date">
          {date ? `${t("cards.train.date", { month: date.format("MM"), day: date.format("DD") })} ${weekdays[date.day()]}` : ""}
        </span>
        <span className="train-city" data-testid="train-to-city">
          {or(toCity, "to")}
        </span>
      </div>
      <div className="train-body">
        <div className="train-end-point">
          <div className="train-time">{or(item.start, "start")}</div>
          <div className="train-station">{or(item.from, "fromStation")}</div>
        </div>
        <div className="train-duration">
          <div>{durationText(item.duration, t)}</div>
          <ArrowRightOutlined />
        </div>
        <div className="train-end-point train-end-point-right">
          <div className="train-time">{or(item.end, "end")}</div>
          <div className="train-station">{or(item.to, "toStation")}</div>
        </div>
      </div>
      <div className="train-footer">
        <span className="train-no">{or(item.no, "no")}</span>
        <span>
          {t("cards.train.firstClass")} <b data-testid="train-first">{seats(item.firstClass)}</b>
        </span>
        <span>
          {t("cards.train.secondClass")} <b data-testid="train-second">{seats(item.secondClass)}</b>
        </span>
      </div>
    </div>
  );
}

/** Duration in hours: a number of hours, "H:MM", or a text kept as it is. */
export function durationText(v: unknown, t: (key: string, o?: Record<string, unknown>) => string) {
  if (isBlank(v)) return "";
  const s = String(v).trim();
  const hm = s.match(/^(\d{1,2}):(\d{2})$/);
  if (hm)
    return Number(hm[2])
      ? t("cards.train.hoursMinutes", { h: Number(hm[1]), m: Number(hm[2]) })
      : t("cards.train.hours", { count: Number(hm[1]) });
  if (/^\d+(\.\d+)?$/.test(s)) return t("cards.train.hours", { count: Number(s) });
  return s;
}
