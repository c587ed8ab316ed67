/** Variable references `{{nodeId.field.sub}}`: resolved against node outputs, parent scopes first shadowed by inner ones. */
export type Lookup = (nodeId: string) => unknown;

const REF = /\{\{\s*([A-Za-z0-9_-]+)((?:\.[A-Za-z0-9_\u4e00-\u9fa5-]+)*)\s*\}\}/g;
const WHOLE = /^\{\{\s*([A-Za-z0-9_-]+)((?:\.[A-Za-z0-9_\u4e00-\u9fa5-]+)*)\s*\}\}$/;

export function pathGet(value: unknown, path: string[]): unknown {
  let v = value;
  for (const p of path) {
    if (v === null || v === undefined) return undefined;
    if (Array.isArray(v) && /^\d+$/.test(p)) v = v[Number(p)];
    else if (typeof v === "object") v = Object.hasOwn(v as object, p) ? (v as Record<string, unknown>)[p] : undefined;
    else return undefined;
  }
  return v;
}

const lookupRef = (lookup: Lookup, nodeId: string, rest: string) => pathGet(lookup(nodeId), rest ? rest.slice(1).split(".") : []);

export const asText = (v: unknown): string =>
  v === undefined || v === null ? "" : typeof v === "string" ? v : typeof v === "object" ? JSON.stringify(v) : String(v);

/** A value: exactly one reference keeps the referenced value's type; anything else is text with references filled in. */
export function resolveValue(template: string, lookup: Lookup): unknown {
  const whole = WHOLE.exec(template);
  if (whole) return lookupRef(lookup, whole[1], whole[2]);
  return resolveText(template, lookup);
}

/**
 * Longest text a template may make (a prompt, a URL, a template node's output). References multiply: a
 * template of 9,000 references to a 1 KB input made 9 MB, and one of 50 references to that 450 MB.
 */
export const TEXT_MAX_CHARS = 4_000_000;

export class TextTooLong extends Error {
  constructor() {
    super(`the text would be longer than ${TEXT_MAX_CHARS.toLocaleString("en")} characters`);
  }
}

export function resolveText(template: string, lookup: Lookup): string {
  let length = template.length;
  return template.replace(REF, (m: string, id: string, rest: string) => {
    const text = asText(lookupRef(lookup, id, rest));
    length += text.length - m.length;
    if (length > TEXT_MAX_CHARS) throw new TextTooLong();
    return text;
  });
}

/**
 * About how many characters a value takes as JSON, counted only up to `max` (then `max + 1`): a value that
 * refers to the same list twice, nested, would take exponentially more to write out than to hold.
 */
export function jsonSizeWithin(value: unknown, max: number): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "string") size += v.length + 2;
    else if (Array.isArray(v)) {
      size += 2 + v.length;
      for (const item of v) stack.push(item);
    } else if (v && typeof v === "object") {
      for (const [k, item] of Object.entries(v)) {
        size += k.length + 4;
        stack.push(item);
      }
      size += 2;
    } else size += v === undefined ? 0 : String(v).length;
    if (size > max) return max + 1;
  }
  return size;
}

/** The node ids a template refers to. */
export function referencedNodes(template: string): string[] {
  return [...template.matchAll(REF)].map((m) => m[1]);
}

/** Resolves each value of a map of templates. */
export function resolveMap(map: Record<string, string>, lookup: Lookup): Record<string, unknown> {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, resolveValue(v, lookup)]));
}
