import type { WeatherIcon } from "@agentfair/contracts";
import dayjs, { type Dayjs } from "dayjs";

/** Keywords of the weather text and their icon (§9): the one that appears first decides ("晴转多云" is sunny). */
const KEYWORDS: [string, WeatherIcon][] = [
  ["雷", "thunderstorm"],
  ["thunder", "thunderstorm"],
  ["雪", "snow"],
  ["snow", "snow"],
  ["雨", "rain"],
  ["rain", "rain"],
  ["shower", "rain"],
  ["drizzle", "rain"],
  ["风", "wind"],
  ["wind", "wind"],
  ["阴", "overcast"],
  ["overcast", "overcast"],
  ["多云", "cloudy"],
  ["云", "cloudy"],
  ["cloud", "cloudy"],
  ["晴", "sunny"],
  ["sunny", "sunny"],
  ["clear", "sunny"],
];

/** The icon for a weather text by its first characters; null when no keyword is found. */
export function weatherIcon(text: unknown): WeatherIcon | null {
  if (typeof text !== "string") return null;
  const lower = text.toLowerCase();
  let best: { at: number; icon: WeatherIcon } | null = null;
  for (const [word, icon] of KEYWORDS) {
    const at = lower.indexOf(word);
    if (at >= 0 && (!best || at < best.at)) best = { at, icon };
  }
  return best?.icon ?? null;
}

/** A weather value that is an icon (an image address) rather than a text. */
export const isIconUrl = (v: unknown): v is string => typeof v === "string" && /^(https?:\/\/|\/|data:image\/)/.test(v.trim());

/** A card date: ISO or slashed dates, MM-DD (this year), or a timestamp; null when unreadable. */
export function parseDate(v: unknown, now: Dayjs = dayjs()): Dayjs | null {
  if (v === null || v === undefined || v === "") return null;
  if (typeof v === "number") return dayjs(v < 1e12 ? v * 1000 : v);
  const s = String(v)
    .trim()
    .replace(/[年月]/g, "-")
    .replace(/日/g, "")
    .replace(/\//g, "-");
  const short = s.match(/^(\d{1,2})-(\d{1,2})$/);
  const d = short ? now.month(Number(short[1]) - 1).date(Number(short[2])) : dayjs(s);
  return d.isValid() ? d : null;
}

/** today, tomorrow, yesterday, or the weekday (0 Sunday … 6 Saturday). */
export function dayLabel(date: Dayjs, now: Dayjs = dayjs()): "today" | "tomorrow" | "yesterday" | number {
  const diff = date.startOf("day").diff(now.startOf("day"), "day");
  if (diff === 0) return "today";
  if (diff === 1) return "tomorrow";
  if (diff === -1) return "yesterday";
  return date.day();
}

/** A temperature without its unit ("18℃" → "18"). */
export const degrees = (v: unknown) =>
  v === null || v === undefined || v === ""
    ? ""
    : String(v)
        .trim()
        .replace(/\s*(°C|℃|°|C)$/i, "");
