import { DESIGNER } from "@agentfair/contracts";
import { flatten, VALUE_TYPES, type Widget, type WidgetType } from "./widgets";

/** §3 useVar: a dotted path into the result data (`a.b.0.c`, `a.b[0].c`); empty or missing gives undefined. */
export function readPath(data: unknown, path: unknown): unknown {
  if (typeof path !== "string" || !path.trim()) return undefined;
  let node: unknown = data;
  for (const part of path
    .replace(/\[(\d+)\]/g, ".$1")
    .split(".")
    .filter(Boolean)) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** A widget's starting value in render mode: from the result through useVar, else its own value. */
export function initialValue(w: Widget, result: unknown) {
  const fromResult = readPath(result, w.options.useVar);
  return fromResult === undefined ? w.options.value : fromResult;
}

/** The form's values keyed by widget id, as render mode starts them. */
export function initialValues(design: Widget[], result: unknown): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const w of flatten(design)) if (VALUE_TYPES.includes(w.type as WidgetType)) values[w.id] = initialValue(w, result);
  return values;
}

const show = (v: unknown) => {
  if (v === undefined || v === null) return "";
  if (Array.isArray(v) && v.every((x) => typeof x !== "object")) return v.join(",");
  return typeof v === "object" ? JSON.stringify(v) : String(v);
};

export const isLastButton = (design: Widget[], id: string) =>
  flatten(design)
    .filter((w) => w.type === "button")
    .at(-1)?.id === id;

/**
 * §7 send-chat-button text. The last button: its value (default 帮我使用这些参数生成报告：)
 * followed by key:value of every non-button widget that holds a value. Other buttons: their
 * value with {{variable}} replaced by the JSON of the row variable (the result data at the
 * button's variable path).
 */
export function sendText(design: Widget[], button: Widget, values: Record<string, unknown>, result: unknown): string {
  const value = String(button.options.value ?? "");
  if (isLastButton(design, button.id)) {
    const pairs = flatten(design)
      .filter((w) => VALUE_TYPES.includes(w.type as WidgetType))
      .map((w) => `${String(w.options.key ?? w.options.name)}:${show(values[w.id])}`);
    return (value || DESIGNER.lastButtonValue) + pairs.join(",");
  }
  const row = readPath(result, button.options.variable);
  return value.replace(/\{\{\s*variable\s*\}\}/g, () => JSON.stringify(row ?? null));
}
