import { z } from "zod";

/**
 * The form and page designer (doc 2 §1, §2 "Designer canvas widgets", §3 Widget, §4, §9):
 * designs are saved per owner under /aiagent_api/designer (paths beyond the spec).
 */
export const WIDGET_TYPES = [
  "button",
  "cascader",
  "chart",
  "checkbox",
  "date",
  "daterange",
  "div",
  "divider",
  "iframe",
  "image",
  "input",
  "map",
  "radio",
  "rate",
  "row",
  "scroll",
  "select",
  "switch",
  "table",
  "tag",
  "text",
  "time",
  "timerange",
] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];
/** §2 card components of the palette: the image-text card (img, title, content) and the weather card (lists). */
export const CARD_WIDGET_TYPES = ["imagetext", "weather"] as const;
export type CardWidgetType = (typeof CARD_WIDGET_TYPES)[number];
/** Everything the palette offers. */
export type PaletteType = WidgetType | CardWidgetType;
/** §2 each palette widget's Chinese name: the palette shows it (the zh dictionary reads it from here) and it is the default label. */
export const WIDGET_NAMES: Record<PaletteType, string> = {
  button: "按钮",
  cascader: "级联选择",
  chart: "图表",
  checkbox: "多选框",
  date: "日期",
  daterange: "日期范围",
  div: "容器",
  divider: "分割线",
  iframe: "内嵌网页",
  image: "图片",
  input: "输入框",
  map: "地图",
  radio: "单选框",
  rate: "评分",
  row: "栅格",
  scroll: "横向滚动",
  select: "下拉选择",
  switch: "开关",
  table: "表格",
  tag: "标签",
  text: "文本",
  time: "时间",
  timerange: "时间范围",
  imagetext: "图文卡片",
  weather: "天气卡片",
};
/** A row's columns are widgets of type col (§3 Column). */
export const COLUMN_TYPE = "col";
/** Widgets that hold other widgets in widgetList (a row holds columns in cols). */
export const CONTAINER_TYPES = ["div", "scroll"] as const;

/** §9 designer constants. */
export const DESIGNER = {
  columnSpan: 12,
  chartHeight: 240,
  chartResizeDebounceMs: 200,
  dropAnimationMs: 300,
  mapHeight: 350,
  mapZoom: 13.5,
  mapMinZoom: 2,
  mapMaxZoom: 20,
  mapPitch: 50,
  mapBearing: -15,
  /** "Centre near a fixed city": Hangzhou, West Lake. */
  mapCenter: [120.155, 30.274] as [number, number],
  imageTextLines: 2,
  /** §7: the default text of the last button. */
  lastButtonValue: "帮我使用这些参数生成报告：",
} as const;

/** How many widgets one design may hold, and how deep containers may nest. */
export const DESIGN_WIDGETS_MAX = 500;
export const DESIGN_DEPTH_MAX = 8;
export const DESIGN_NAME_MAX = 100;

export interface Widget {
  type: PaletteType | typeof COLUMN_TYPE;
  id: string;
  options: Record<string, unknown>;
  widgetList?: Widget[];
  cols?: Widget[];
}

export const widget: z.ZodType<Widget> = z.lazy(() =>
  z.object({
    type: z.enum([...WIDGET_TYPES, ...CARD_WIDGET_TYPES, COLUMN_TYPE]),
    id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    options: z.record(z.string(), z.unknown()),
    widgetList: z.array(widget).optional(),
    cols: z.array(widget).optional(),
  }),
);

/** Counts the widgets of a tree and its depth, so a design stays within the limits. */
export function measureWidgets(list: Widget[], depth = 1): { count: number; depth: number } {
  let count = 0;
  let deepest = list.length ? depth : depth - 1;
  for (const w of list) {
    count += 1;
    for (const children of [w.widgetList, w.cols]) {
      if (!children) continue;
      const inner = measureWidgets(children, depth + 1);
      count += inner.count;
      deepest = Math.max(deepest, inner.depth);
    }
  }
  return { count, depth: deepest };
}

export const widgetList = z.array(widget).superRefine((list, ctx) => {
  const { count, depth } = measureWidgets(list);
  if (count > DESIGN_WIDGETS_MAX) ctx.addIssue({ code: "custom", message: `at most ${DESIGN_WIDGETS_MAX} widgets` });
  if (depth > DESIGN_DEPTH_MAX) ctx.addIssue({ code: "custom", message: `containers nest at most ${DESIGN_DEPTH_MAX} deep` });
});

export const designInput = z.object({
  name: z.string().trim().min(1).max(DESIGN_NAME_MAX),
  widgetList: widgetList.default([]),
  /** A sample result that feeds the render-mode preview through useVar paths. */
  sampleResult: z.string().max(100_000).default(""),
});
export type DesignInput = z.infer<typeof designInput>;

export const designSummary = z.object({
  id: z.string(),
  name: z.string(),
  widgetCount: z.number(),
  createdTime: z.string(),
  updatedTime: z.string(),
});
export type DesignSummary = z.infer<typeof designSummary>;

export const design = designSummary.extend({
  widgetList: z.array(widget),
  sampleResult: z.string(),
  /** The tools whose results this design shows in chat replies. */
  pluginIds: z.array(z.string()),
});

/** PUT /aiagent_api/designer/{id}/plugins: the tools bound to the design (a tool shows one design). */
export const designBindRequest = z.object({ pluginIds: z.array(z.string().min(1).max(64)).max(20) });
export type Design = z.infer<typeof design>;

export const designPageQuery = z.object({
  name: z.string().max(100).optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const designPage = z.object({ list: z.array(designSummary), total: z.number() });
export type DesignPage = z.infer<typeof designPage>;

/**
 * §5 date linking: in the one configured form (the design whose id is the route's query id),
 * the policyholder and insured birth date fields are read-only inputs (picked, not typed); a new
 * insured birth date is copied into three dependent fields, a new policyholder birth date into
 * three others. The ids are fixed; the demo seed writes this form.
 */
export const DATE_LINK_FORM = {
  formId: "0f3c9a2e-6b1d-4e8a-9c7f-2d5b8e1a4c60",
  policyholderBirthId: "f0c1a2b3c4d5e6f7a8b9c0d1e2f3a4b5",
  insuredBirthId: "f1c1a2b3c4d5e6f7a8b9c0d1e2f3a4b5",
  insuredDependentIds: ["f2c1a2b3c4d5e6f7a8b9c0d1e2f3a4b5", "f3c1a2b3c4d5e6f7a8b9c0d1e2f3a4b5", "f4c1a2b3c4d5e6f7a8b9c0d1e2f3a4b5"],
  policyholderDependentIds: ["f5c1a2b3c4d5e6f7a8b9c0d1e2f3a4b5", "f6c1a2b3c4d5e6f7a8b9c0d1e2f3a4b5", "f7c1a2b3c4d5e6f7a8b9c0d1e2f3a4b5"],
} as const;
