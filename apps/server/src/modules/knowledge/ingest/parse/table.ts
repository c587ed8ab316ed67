import type { Block } from "../types.ts";

/**
 * A table block from rows of cells: empty rows and trailing empty columns dropped, the first non-empty row is the
 * header, short rows padded. Title rows above the header (see `isCaption`) are no header: they join the table's
 * name ("员工 > 2024年员工名单"). Undefined when nothing is left.
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
  const names = name ? [name] : [];
  while (rows.length > 1 && width > 1 && isCaption(rows[0], rows[1])) names.push(rows.shift()!.find(Boolean)!);
  const pad = (r: string[]) => Array.from({ length: width }, (_, i) => r[i] ?? "");
  const [header, ...body] = rows.map(pad);
  return { kind: "table", header, rows: body, ...(names.length ? { name: names.join(" > ") } : {}) };
}

/**
 * A title row over a table ("2024年员工名单" in its first cell, or merged across the table, which gives every cell the
 * same text) above a header row: one text, longer than any below it, over several different texts that are not numbers.
 * (A header naming only its first column, "产品" over "苹果 | 红色", stays the header.)
 */
function isCaption(row: string[], next: string[]): boolean {
  const texts = new Set(row.filter(Boolean));
  const below = next.filter(Boolean);
  const [title] = texts;
  return texts.size === 1 && new Set(below).size > 1 && below.every((c) => c.length < title.length && !/^[-+]?[\d,.]+%?$/.test(c));
}
