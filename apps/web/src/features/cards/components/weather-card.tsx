import dayjs, { type Dayjs } from "dayjs";
import { useTranslation } from "react-i18next";
import { type CardItem, isBlank } from "../lib/items";
import { dayLabel, degrees, isIconUrl, parseDate, weatherIcon } from "../lib/weather";
import { WeatherGlyph } from "./weather-icon";

/** §5: a weather block shows only if it has weather, date, min or max. */
const hasBlock = (i: CardItem) => !isBlank(i.weather) || !isBlank(i.date) || !isBlank(i.min) || !isBlank(i.max);

function useWeatherText(now: Dayjs) {
  const { t } = useTranslation();
  const day = (v: unknown) => {
    const d = parseDate(v, now);
    if (!d) return { label: isBlank(v) ? "" : String(v), date: "" };
    const l = dayLabel(d, now);
    return {
      label: typeof l === "number" ? (t("cards.weather.weekdays", { returnObjects: true }) as string[])[l] : t(`cards.weather.${l}`),
      date: d.format("MM/DD"),
    };
  };
  const range = (i: CardItem) => {
    const min = degrees(i.min);
    const max = degrees(i.max);
    if (min && max) return t("cards.weather.range", { min, max });
    return min || max ? `${min || max}°C` : "";
  };
  return { day, range };
}

function Icon({ weather, size }: { weather: unknown; size: number }) {
  const { t } = useTranslation();
  if (isIconUrl(weather)) return <img src={weather} alt="" width={size} height={size} className="weather-icon-img" />;
  const icon = weatherIcon(weather);
  if (!icon) return null;
  return (
    <span className="weather-icon" role="img" aria-label={t(`cards.weather.icons.${icon}`)} data-icon={icon}>
      <WeatherGlyph icon={icon} size={size} />
    </span>
  );
}

/**
 * Weather card (doc 2 §2): the first entry large — min to max °C, the icon, the day label and the
 * date MM/DD —, later entries compact rows with the same items; 暂无查询到天气数据 without entries.
 */
export function WeatherCard({ items, now = dayjs() }: { items: CardItem[]; now?: Dayjs }) {
  const { t } = useTranslation();
  const { day, range } = useWeatherText(now);
  const blocks = items.filter(hasBlock);
  if (!blocks.length)
    return (
      <div className="card-item weather-card weather-empty" data-testid="weather-card">
        {t("cards.weather.empty")}
      </div>
    );
  const [first, ...rest] = blocks;
  const d = day(first.date);
  const text = (w: unknown) => (isBlank(w) || isIconUrl(w) ? "" : String(w));
  return (
    <div className="card-item weather-card" data-testid="weather-card">
      <div className="weather-first" data-testid="weather-first">
        <div className="weather-first-main">
          <Icon weather={first.weather} size={44} />
          <div>
            <div className="weather-range">{range(first)}</div>
            <div className="weather-text">{text(first.weather)}</div>
          </div>
        </div>
        <div className="weather-day">
          <span>{d.label}</span> <span className="weather-date">{d.date}</span>
        </div>
      </div>
      {rest.map((i, k) => {
        const r = day(i.date);
        return (
          <div className="weather-row" data-testid="weather-row" key={`${String(i.date)}-${k}`}>
            <span className="weather-row-day">{r.label}</span>
            <span className="weather-date">{r.date}</span>
            <span className="weather-row-icon">
              <Icon weather={i.weather} size={18} /> {text(i.weather)}
            </span>
            <span className="weather-row-range">{range(i)}</span>
          </div>
        );
      })}
    </div>
  );
}
