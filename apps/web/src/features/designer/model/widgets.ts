import { COLUMN_TYPE, DESIGNER, type PaletteType, WIDGET_NAMES, type Widget } from "@agentfair/contracts";

export type { Widget };
/** The 23 widgets of §2 and the two card components. */
export type WidgetType = PaletteType;

/** Palette groups, in the order they are shown. */
export const PALETTE: { group: "layout" | "form" | "show" | "cards"; types: WidgetType[] }[] = [
  { group: "layout", types: ["row", "div", "scroll", "divider"] },
  {
    group: "form",
    types: ["input", "select", "cascader", "checkbox", "radio", "date", "daterange", "time", "timerange", "switch", "rate", "button"],
  },
  { group: "show", types: ["text", "tag", "image", "iframe", "table", "chart", "map"] },
  { group: "cards", types: ["imagetext", "weather"] },
];

export const isCardWidget = (type: string) => type === "imagetext" || type === "weather";

/** Widgets that hold other widgets in widgetList (a row holds columns in cols). */
export const isContainer = (w: Widget) => w.type === "div" || w.type === "scroll" || w.type === COLUMN_TYPE;

/** Widgets whose value the last button sends (§7: key:value pairs of the non-button widgets). */
export const VALUE_TYPES: WidgetType[] = [
  "cascader",
  "checkbox",
  "date",
  "daterange",
  "input",
  "radio",
  "rate",
  "select",
  "switch",
  "table",
  "tag",
  "text",
  "time",
  "timerange",
];

/** §3 Widget id: a uuid without dashes. */
export const newId = () => crypto.randomUUID().replace(/-/g, "");

const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/** §4: a key is the type plus 5 random characters. */
export const newKey = (type: string) => {
  const bytes = crypto.getRandomValues(new Uint8Array(5));
  return type + Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join("");
};

/** Every widget of a tree, depth first, in document order (columns included). */
export function flatten(list: Widget[]): Widget[] {
  return list.flatMap((w) => [w, ...flatten(w.cols ?? []), ...flatten(w.widgetList ?? [])]);
}

/** §4: a name of the form type-number, unique in the design. */
export function uniqueName(type: string, design: Widget[]) {
  const taken = new Set(flatten(design).map((w) => String(w.options.name ?? "")));
  let n = 1;
  while (taken.has(`${type}-${n}`)) n += 1;
  return `${type}-${n}`;
}

const options = (o: Record<string, unknown>) => o;
const demoItems = [
  { label: "选项1", value: "1" },
  { label: "选项2", value: "2" },
];

export function newColumn(design: Widget[], span: number = DESIGNER.columnSpan): Widget {
  return {
    type: COLUMN_TYPE,
    id: newId(),
    options: { name: uniqueName(COLUMN_TYPE, design), span, offset: 0, push: 0, pull: 0 },
    widgetList: [],
  };
}

/** The defaults of §3 for a new widget of a type. */
export function createWidget(type: WidgetType, design: Widget[]): Widget {
  const base = { name: uniqueName(type, design), key: newKey(type), label: WIDGET_NAMES[type], useVar: "" };
  const w: Widget = { type, id: newId(), options: base };
  switch (type) {
    case "button":
      w.options = options({
        ...base,
        label: "提交",
        type: "primary",
        color: "",
        size: "middle",
        fullWidth: false,
        variable: "",
        value: "",
      });
      break;
    case "input":
      w.options = options({ ...base, placeholder: "请输入", value: "", type: "text" });
      break;
    case "select":
      w.options = options({ ...base, placeholder: "请选择", value: "", multiple: false, optionItems: demoItems });
      break;
    case "cascader":
      w.options = options({
        ...base,
        placeholder: "请选择",
        value: [],
        valueKey: "value",
        labelKey: "label",
        childrenKey: "children",
        checkStrictly: false,
        showAllLevels: true,
        multiple: false,
        optionItems: [{ label: "浙江", value: "zj", children: [{ label: "杭州", value: "hz" }] }],
      });
      break;
    case "checkbox":
      w.options = options({ ...base, value: [], displayStyle: "inline", buttonStyle: false, optionItems: demoItems });
      break;
    case "radio":
      w.options = options({ ...base, value: "", displayStyle: "inline", buttonStyle: false, optionItems: demoItems });
      break;
    case "date":
      w.options = options({ ...base, placeholder: "请选择日期", format: "YYYY-MM-DD", type: "date", value: "" });
      break;
    case "daterange":
      w.options = options({ ...base, format: "YYYY-MM-DD", value: [] });
      break;
    case "time":
      w.options = options({ ...base, placeholder: "请选择时间", format: "HH:mm:ss", value: "" });
      break;
    case "timerange":
      w.options = options({ ...base, format: "HH:mm:ss", value: [] });
      break;
    case "switch":
      w.options = options({ ...base, value: false, activeText: "", inactiveText: "", color: "" });
      break;
    case "rate":
      w.options = options({ ...base, value: 0, count: 5, allowHalf: false });
      break;
    case "text":
      w.options = options({ ...base, value: "文本内容", useLabelVar: "", style: { fontSize: 14, color: "" } });
      break;
    case "tag":
      w.options = options({ ...base, value: "标签", color: "blue" });
      break;
    case "divider":
      w.options = options({ ...base, label: "", orientation: "center", dashed: false });
      break;
    case "image":
      w.options = options({ ...base, value: "", mode: "full", size: 200, height: 160, style: { aspectRatio: "", objectFit: "cover" } });
      break;
    case "iframe":
      w.options = options({ ...base, value: "", mode: "full", size: 400, height: 300, style: { aspectRatio: "", objectFit: "" } });
      break;
    case "table":
      w.options = options({
        ...base,
        showHeader: true,
        th: [
          { label: "名称", prop: "name", checked: true },
          { label: "数值", prop: "value", checked: true },
        ],
        value: [],
      });
      break;
    case "chart":
      w.options = options({ ...base, label: "", height: DESIGNER.chartHeight });
      break;
    case "map":
      w.options = options({
        ...base,
        label: "",
        height: DESIGNER.mapHeight,
        center: DESIGNER.mapCenter,
        zoom: DESIGNER.mapZoom,
        styleUrl: "",
        list: [],
      });
      break;
    case "imagetext":
      w.options = options({ ...base, label: "", img: "", title: "", content: "" });
      break;
    case "weather":
      w.options = options({ ...base, label: "", lists: [] });
      break;
    case "row":
      w.options = options({ name: base.name, key: base.key, gutter: 12, justify: "start" });
      w.cols = [newColumn(design), newColumn(design)];
      // Two new columns in one call: the second must not take the first one's name.
      w.cols[1].options.name = `col-${Number(String(w.cols[0].options.name).split("-")[1]) + 1}`;
      break;
    case "div":
      w.options = options({ name: base.name, key: base.key, style: { padding: 8 } });
      w.widgetList = [];
      break;
    case "scroll":
      w.options = options({ name: base.name, key: base.key, gutter: 12 });
      w.widgetList = [];
      break;
  }
  return w;
}
