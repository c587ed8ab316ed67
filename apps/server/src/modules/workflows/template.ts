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

export function resolveText(template: string, lookup: Lookup): string {
  return template.replace(REF, (_m, id: string, rest: string) => asText(lookupRef(lookup, id, rest)));
}

/** The node ids a template refers to. */
export function referencedNodes(template: string): string[] {
  return [...template.matchAll(REF)].map((m) => m[1]);
}

/** Resolves each value of a map of templates. */
export function resolveMap(map: Record<string, string>, lookup: Lookup): Record<string, unknown> {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, resolveValue(v, lookup)]));
}
