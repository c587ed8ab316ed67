import type { TFunction } from "i18next";

/**
 * A node's name as the canvas shows it: its own title, or its type's name in the current language
 * (a title that is the type's Chinese name, as the server names a new draft's nodes, follows it too).
 */
export const nodeTitle = (t: TFunction, type: string, title: unknown) =>
  title && title !== t(`workflows.nodes.${type}`, { lng: "zh" }) ? String(title) : t(`workflows.nodes.${type}`);
