import type { TFunction } from "i18next";

/** Doc 1 §9 relative time: just now, minutes, hours (<24), days (<7), one week, two weeks, weeks (<30 days), months. */
export function relativeTime(t: TFunction, iso: string, now = Date.now()) {
  const s = Math.max(0, (now - new Date(iso).getTime()) / 1000);
  if (s < 60) return t("common.time.justNow");
  if (s < 3600) return t("common.time.minutes", { count: Math.floor(s / 60) });
  if (s < 86400) return t("common.time.hours", { count: Math.floor(s / 3600) });
  const days = Math.floor(s / 86400);
  if (days < 7) return t("common.time.days", { count: days });
  if (days < 14) return t("common.time.oneWeek");
  if (days < 21) return t("common.time.twoWeeks");
  if (days < 30) return t("common.time.weeks", { count: Math.floor(days / 7) });
  return t("common.time.months", { count: Math.max(1, Math.floor(days / 30)) });
}
