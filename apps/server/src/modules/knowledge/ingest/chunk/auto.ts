import { DEFAULT_DELIMITERS, type NormalizedOptions } from "../options.ts";
import type { Block, ParsedDocument, Segment } from "../types.ts";
import { type Unit, pack } from "./pack.ts";
import { numbered, tableLines } from "./text.ts";

/** The document's blocks as packing units: one per heading, paragraph line, table name and table row (rows know their header). */
export function unitsOf(blocks: Block[]): Unit[] {
  const units: Unit[] = [];
  for (const block of blocks) {
    if (block.kind === "heading") units.push({ text: block.text, sep: "\n", heading: true });
    else if (block.kind === "paragraph" || block.kind === "ocr") {
      // Paragraph lines stay apart so a budget can fall between them; "\n" joins them back as they were.
      for (const line of block.text.split("\n")) if (line.trim()) units.push({ text: line, sep: "\n" });
    } else if (block.kind === "table") {
      // A sheet's name (and a title row above its header) says what the rows are.
      if (block.name) units.push({ text: block.name, sep: "\n", heading: true });
      const [header, ...rows] = tableLines(block);
      units.push({ text: header, sep: "\n", heading: true, tableHeader: header });
      for (const row of rows) units.push({ text: row, sep: "\n", tableHeader: header });
    }
  }
  return units;
}

/**
 * auto: the document's text packed to the token budget, with overlap. Chunks end between lines (an overlong line
 * is cut at the best delimiter it holds); with the user's own delimiters, at any of those too.
 */
export function chunkAuto(doc: ParsedDocument, opts: NormalizedOptions): Segment[] {
  let units = unitsOf(doc.blocks);
  if (opts.delimiters !== DEFAULT_DELIMITERS) units = units.flatMap((u) => (u.heading ? [u] : splitAt(u, opts.delimiters)));
  return numbered(pack(units, opts.chunkSize, opts.overlap, opts.delimiters).map((content) => ({ content })));
}

/** A unit cut after every occurrence of any delimiter (each delimiter stays at the end of its piece). */
function splitAt(unit: Unit, delimiters: string[]): Unit[] {
  const pattern = new RegExp(`(?<=${delimiters.map((d) => d.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`);
  const pieces = unit.text.split(pattern).filter((p) => p.length);
  return pieces.map((text, i) => ({ ...unit, text, sep: i === 0 ? unit.sep : "", tokens: undefined }));
}
