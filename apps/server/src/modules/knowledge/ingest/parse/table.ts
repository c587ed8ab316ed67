import type { Block } from "../types.ts";

/**
 * A table block from rows of cells: empty rows and trailing empty columns dropped, the first non-empty row is the
 * header, short rows padded. Undefined when nothing is left.
 */
export function tableFromRows(raw: string[][], name?: string): Extract<Block, { kind: "table" }> | undefined {
  const rows = raw.map((r) => r.map((c) => (c ?? "").trim())).filter((r) => r.some((c) => c !== ""));
  if (rows.length === 0) return undefined;
  let width = 0;
  for (const r of rows) {
    let last = r.length;
    while (last > 0 && r[last - 1] === "") last--;
    width = Math.max(width, last);
  }
  const pad = (r: string[]) => Array.from({ length: width }, (_, i) => r[i] ?? "");
  const [header, ...body] = rows.map(pad);
  return { kind: "table", header, rows: body, ...(name ? { name } : {}) };
}
