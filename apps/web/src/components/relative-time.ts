import i18n from "../i18n";

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Relative time exactly as doc 1 §9: 'just now' under 60 s, then minutes, hours under 24,
 * days under 7, one week, two weeks, weeks under 30 days, then months. A time in the future
 * (a clock a little ahead) reads 'just now'.
 */
export function relativeTime(value: Date | string | number, opts: { now?: number; lang?: "zh" | "en" } = {}): string {
  const t = i18n.getFixedT(opts.lang ?? (i18n.language === "en" ? "en" : "zh"));
  const then = value instanceof Date ? value.getTime() : new Date(value).getTime();
  if (Number.isNaN(then)) return "";
  const seconds = Math.floor(((opts.now ?? Date.now()) - then) / 1000);
  const say = (one: string, many: string, count: number) => (count === 1 ? t(`common.time.${one}`) : t(`common.time.${many}`, { count }));
  if (seconds < MINUTE) return t("common.time.justNow");
  if (seconds < HOUR) return say("minute", "minutes", Math.floor(seconds / MINUTE));
  if (seconds < DAY) return say("hour", "hours", Math.floor(seconds / HOUR));
  const days = Math.floor(seconds / DAY);
  if (days < 7) return say("day", "days", days);
  if (days < 14) return t("common.time.oneWeek");
  if (days < 21) return t("common.time.twoWeeks");
  if (days < 30) return t("common.time.weeks", { count: Math.floor(days / 7) });
  return say("month", "months", Math.floor(days / 30));
}
