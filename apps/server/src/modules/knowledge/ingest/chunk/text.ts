import { countTokens } from "../tokens.ts";
import type { Block, Segment } from "../types.ts";

export type Table = Extract<Block, { kind: "table" }>;

/** A table as Markdown-like lines (the header first), for methods that keep tables inside running text. */
export function tableLines(table: Table): string[] {
  const row = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, "\\|").replace(/\n/g, " ")).join(" | ")} |`;
  return [row(table.header), ...table.rows.map(row)];
}

/** The text of a block as a reader sees it (page and slide markers have none). */
export function blockText(block: Block): string {
  switch (block.kind) {
    case "heading":
    case "paragraph":
    case "ocr":
      return block.text;
    case "table":
      return [...(block.name ? [block.name] : []), ...tableLines(block)].join("\n");
    default:
      return "";
  }
}

/** Segments numbered in order, empty ones dropped, tokens counted on the final content. */
export function numbered(parts: Omit<Segment, "position" | "tokens">[]): Segment[] {
  return parts
    .map((p) => ({ ...p, content: p.content.trim() }))
    .filter((p) => p.content)
    .map((p, position) => ({ position, ...p, tokens: countTokens(p.content) }));
}

const CN_DIGITS: Record<string, number> = { 零: 0, 〇: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
const CN_UNITS: Record<string, number> = { 十: 10, 百: 100, 千: 1000 };

/** "二十三" → 23, "一百零五" → 105, "12" → 12; NaN when not a number. */
export function chineseNumber(text: string): number {
  if (/^\d+$/.test(text)) return Number(text);
  let total = 0;
  let digit = -1;
  for (const ch of text) {
    if (ch in CN_DIGITS) digit = CN_DIGITS[ch];
    else if (ch in CN_UNITS) {
      total += (digit < 0 ? 1 : digit) * CN_UNITS[ch];
      digit = -1;
    } else return Number.NaN;
  }
  return total + Math.max(digit, 0);
}
