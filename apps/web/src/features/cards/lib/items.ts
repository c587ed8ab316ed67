import { CARD_FIELDS, type CardTemplateConfig, valueAt } from "@agentfair/contracts";

export type CardItem = Record<string, unknown>;

/** The card data as items: a list's entries (one card each), or the single value. */
export function itemsOf(config: Pick<CardTemplateConfig, "list">, data: unknown): unknown[] {
  if (config.list) return Array.isArray(data) ? data : data && typeof data === "object" ? [data] : [];
  if (Array.isArray(data)) return data.length ? [data[0]] : [];
  return data === undefined || data === null ? [] : [data];
}

/** One item's card fields, each read at its value path (the field's own name when none is set). */
export function mapItem(config: Pick<CardTemplateConfig, "type" | "options">, item: unknown): CardItem {
  const out: CardItem = {};
  for (const field of CARD_FIELDS[config.type]) out[field] = valueAt(item, config.options[field] || field);
  return out;
}

export const isBlank = (v: unknown) => v === null || v === undefined || (typeof v === "string" && v.trim() === "");
