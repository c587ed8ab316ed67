import { z } from "zod";

/**
 * Rich cards (doc 2 §2 "Rich cards", §3 Card template, Weather item, Train ticket, Image-text-button,
 * Message widgetData.config, §5, §8, §9): card templates a builder keeps per owner under
 * /aiagent_api/cards (paths beyond the spec), bound to plugins so that a bound tool's result comes
 * back in the reply as `widgetData`.
 */
export const CARD_TYPES = ["image-text-button", "weather-card", "train-tickets", "echarts-card"] as const;
export const cardType = z.enum(CARD_TYPES);
export type CardType = z.infer<typeof cardType>;

/** The fields each card reads from one item of the data (§3 Weather item, Train ticket, Image-text-button; the chart's echarts entry). */
export const CARD_FIELDS = {
  "image-text-button": ["image", "title", "content"],
  "weather-card": ["date", "min", "max", "weather"],
  "train-tickets": ["from", "to", "duration", "date", "start", "end", "no", "firstClass", "secondClass"],
  "echarts-card": ["echarts"],
} as const satisfies Record<CardType, readonly string[]>;

/** The card editor's component groups (dictionary: basic and advanced components). */
export const BASIC_CARD_TYPES: CardType[] = ["image-text-button", "weather-card", "train-tickets"];
export const ADVANCED_CARD_TYPES: CardType[] = ["echarts-card"];

/** §9 card widths: about 280 px minimum, 350 px maximum for single cards. */
export const CARD_WIDTH_MIN = 280;
export const CARD_WIDTH_MAX = 350;
/** §9 the image-text card shows 2 lines of content. */
export const CARD_CONTENT_LINES = 2;

/** §9 weather icons, chosen by the first characters of the weather text. */
export const WEATHER_ICONS = ["sunny", "cloudy", "overcast", "thunderstorm", "snow", "rain", "wind"] as const;
export type WeatherIcon = (typeof WEATHER_ICONS)[number];

/** §8 messages and §2 placeholders, verbatim (the web shows them through its zh dictionary). */
export const CARD_TEXTS = {
  weatherEmpty: "暂无查询到天气数据",
  noData: "暂无数据",
  seatNone: "无",
  from: "出发地",
  to: "目的地",
  start: "出发时间",
  fromStation: "起始站",
  end: "到达时间",
  toStation: "到达站",
  no: "车次",
} as const;

const valuePath = z.string().trim().max(200);

/** A landscape button row: one rounded outline button per option label, sending its value (else label) into the chat. */
export const buttonOption = z.object({ label: z.string().trim().min(1).max(100), value: z.string().max(2000).optional() });
export type ButtonOption = z.infer<typeof buttonOption>;

/** Card template (§3): type, list flag, data path, options mapping each card field to a value path. */
export const cardTemplateConfig = z.object({
  type: cardType,
  /** Many cards: the data path points at a list, one card per item. */
  list: z.boolean().default(false),
  /** Where the card data sits inside the tool result (dot path, `a.b.0.c`); empty is the whole result. */
  dataPath: valuePath.default(""),
  /** Card field → value path inside one item (empty or missing: the field's own name). */
  options: z.record(z.string().max(40), valuePath).default({}),
  /** Optional landscape button row under the card(s). */
  buttons: z.array(buttonOption).max(10).default([]),
});
export type CardTemplateConfig = z.infer<typeof cardTemplateConfig>;

/**
 * A message's `widgetData` (§3 "Message (rendering)" widgetData.config): what the reply renders
 * besides its text. `config.kind` picks the renderer the chat was given: a card template, a design
 * of the designer, or a landscape button row. `data` is what the card reads (the tool result at the
 * template's data path).
 */
export const cardWidgetConfig = cardTemplateConfig.extend({ kind: z.literal("card") });
export const designWidgetConfig = z.looseObject({ kind: z.literal("design"), designId: z.string().optional() });
export const buttonsWidgetConfig = z.object({ kind: z.literal("buttons"), options: z.array(buttonOption).min(1).max(20) });
export const widgetConfig = z.discriminatedUnion("kind", [cardWidgetConfig, designWidgetConfig, buttonsWidgetConfig]);
export type WidgetConfig = z.infer<typeof widgetConfig>;
export type WidgetKind = WidgetConfig["kind"];
export const widgetData = z.object({ config: widgetConfig, data: z.unknown().optional() });
export type WidgetData = z.infer<typeof widgetData>;

/**
 * Reads `widgetData` as the chat renders it: the shape above, or the older `{ options: [{label}] }`
 * menu (a landscape button row). Anything else is null.
 */
export function readWidgetData(value: unknown): WidgetData | null {
  const parsed = widgetData.safeParse(value);
  if (parsed.success) return parsed.data;
  const options = (value as { options?: unknown } | null)?.options;
  const menu = z.array(buttonOption).min(1).safeParse(options);
  return menu.success ? { config: { kind: "buttons", options: menu.data } } : null;
}

/**
 * A reply's cards in the order its tools returned them: stored as a list (older replies stored one
 * card, or the `{ options }` menu). Entries the chat cannot render are left out.
 */
export function readWidgetDataList(value: unknown): WidgetData[] {
  const list = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];
  return list.flatMap((v) => readWidgetData(v) ?? []);
}

/** A value inside `data` by dot path (`list.0.name`; `[0]` works too); an empty path is `data` itself. */
export function valueAt(data: unknown, path: string | undefined): unknown {
  if (!path) return data;
  let cur: unknown = data;
  for (const key of path
    .replace(/\[(\d+)\]/g, ".$1")
    .split(".")
    .filter(Boolean)) {
    if (cur === null || cur === undefined) return undefined;
    if (typeof cur === "string" && /^[[{]/.test(cur.trim())) {
      try {
        cur = JSON.parse(cur);
      } catch {
        return undefined;
      }
    }
    if (typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

// ---- card templates (calls beyond the spec, under /aiagent_api/cards) -------------------------------

export const CARD_NAME_MAX = 50;
export const CARD_SAMPLE_MAX_BYTES = 64 * 1024;
/** Most templates one owner keeps (the list is one page). */
export const CARD_TEMPLATES_MAX = 200;

export const cardTemplateInput = z.object({
  name: z.string().trim().max(CARD_NAME_MAX).default(""),
  group: z.string().trim().max(50).default(""),
  /** Without a type the card has no component yet (§5: card editing needs at least one). */
  config: cardTemplateConfig.extend({ type: cardType.optional() }),
  /** A sample tool result that feeds the live preview (and checks the list rule). */
  sample: z.unknown().optional(),
});
export type CardTemplateInput = z.input<typeof cardTemplateInput>;

export const cardTemplate = z.object({
  id: z.string(),
  name: z.string(),
  group: z.string(),
  config: cardTemplateConfig,
  sample: z.unknown().optional(),
  /** Plugins this card is bound to. */
  pluginIds: z.array(z.string()),
  createdTime: z.string(),
  updatedTime: z.string(),
});
export type CardTemplate = z.infer<typeof cardTemplate>;

export const cardBinding = z.object({ pluginId: z.string(), cardId: z.string().nullable() });
export type CardBinding = z.infer<typeof cardBinding>;
export const cardBindingInput = z.object({ cardId: z.string().min(1).max(64).nullable() });
