import type { TFunction } from "i18next";

/**
 * A tool's name as people read it. The server names the platform's own tools (current time,
 * calculator, knowledge search, memory, rules) in Chinese in an agent's skills and a reply's tool
 * calls: in English they show their English name. Any other name (a plugin's, a workflow's) is the
 * user's own and shows as it is.
 */
export function shownToolName(t: TFunction, name: string): string {
  const zh = t("chat.systemTools", { lng: "zh", returnObjects: true }) as Record<string, string> | string;
  const key = typeof zh === "object" ? Object.keys(zh).find((k) => zh[k] === name) : undefined;
  return key ? t(`chat.systemTools.${key}`) : name;
}
