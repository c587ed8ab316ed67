import type { CSSProperties } from "react";

/** A link's address when it is a web page (http or https): a design's button never opens javascript: or data: URLs. */
export function webUrl(value: string): string | null {
  try {
    const url = new URL(value, window.location.origin);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * A design author's inline style, without what lets a widget cover the page (fixed or sticky
 * position, z-index) or load from elsewhere (url(), image-set(), expression()).
 */
export function safeStyle(style: unknown): CSSProperties | undefined {
  if (!style || typeof style !== "object" || Array.isArray(style)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(style)) {
    if (typeof value !== "string" && typeof value !== "number") continue;
    if (/^z-?index$/i.test(key)) continue;
    if (/^position$/i.test(key) && /fixed|sticky/i.test(String(value))) continue;
    if (/url\(|image-set\(|expression\(/i.test(String(value))) continue;
    out[key] = value;
  }
  return out as CSSProperties;
}
