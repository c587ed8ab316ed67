/** Keys whose values echarts puts into the page as HTML or CSS (the HTML tooltip's box). */
const HTML_KEYS = new Set(["extraCssText", "className", "appendTo", "appendToBody"]);

/**
 * A chart option from a model, a tool or a design author, made safe to draw: echarts renders a
 * tooltip's string formatter as HTML (only the {a}/{b} values it fills in are escaped), styles its
 * box with `extraCssText`, and loads `image://` symbols from anywhere. Those are dropped; a
 * formatter function can only come from this app's own code and stays. Everything else is canvas.
 */
export function safeChartOption<T>(value: T, inTooltip = false): T {
  if (Array.isArray(value)) return value.map((v) => safeChartOption(v, inTooltip)) as T;
  if (typeof value === "string") return (value.startsWith("image://") ? undefined : value) as T;
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (HTML_KEYS.has(key)) continue;
    if (inTooltip && key === "formatter" && typeof v === "string") continue;
    out[key] = safeChartOption(v, inTooltip || key === "tooltip");
  }
  return out as T;
}
