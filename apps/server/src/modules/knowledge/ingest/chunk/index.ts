import type { NormalizedOptions } from "../options.ts";
import { IngestError, type Block, type ParsedDocument, type Segment } from "../types.ts";
import { chunkAuto, unitsOf } from "./auto.ts";
import { chunkLaws } from "./laws.ts";
import { pack } from "./pack.ts";
import { chunkQa } from "./qa.ts";
import { chunkResume } from "./resume.ts";
import { chunkBook, chunkManual, chunkSections, sections, withNumberedHeadings } from "./sections.ts";
import { chunkTable } from "./table.ts";
import { blockText, numbered, tableLines, type Table } from "./text.ts";

/** The segments of a parsed (and cleaned) document by the chosen method; see README.md for each contract. */
export function chunkDocument(doc: ParsedDocument, opts: NormalizedOptions): Segment[] {
  const segments = byMethod(doc, opts);
  if (segments.length === 0) throw new IngestError("empty", "no text was found in the file");
  return segments;
}

function byMethod(doc: ParsedDocument, opts: NormalizedOptions): Segment[] {
  switch (opts.method) {
    case "auto":
      return chunkAuto(doc, opts);
    case "qa":
      return chunkQa(doc);
    case "resume":
      return chunkResume(doc);
    case "manual":
    case "scanned_manual":
      return chunkManual(doc, opts);
    case "table":
      return chunkTable(doc);
    case "paper":
      return chunkPaper(doc, opts);
    case "book":
      return chunkBook(doc, opts);
    case "laws":
      return chunkLaws(doc, opts);
    case "ppt":
      return chunkPpt(doc, opts);
    case "full_text":
      return numbered([{ content: doc.blocks.map(blockText).filter(Boolean).join("\n") }]);
  }
}

const ABSTRACT = /^(abstract|摘\s*要|内容摘要|summary)\s*[:：.]?\s*/i;
const KEYWORDS = /^(keywords?|关键词|关键字|index terms)\s*[:：]/i;

/**
 * paper: the title, authors and abstract (with keywords) as the first chunk, then each section between headings
 * packed to the budget under its title path.
 */
export function chunkPaper(doc: ParsedDocument, opts: NormalizedOptions): Segment[] {
  const plain = doc.blocks.filter((b) => b.kind !== "pageBreak");
  const blocks = withNumberedHeadings(
    plain,
    plain.some((b) => b.kind === "heading"),
  );
  let i = 0;
  const front: string[] = [];
  // Title: the first heading, else the first line.
  const first = blocks[0];
  if (first && (first.kind === "heading" || first.kind === "paragraph")) {
    front.push(first.text);
    i = 1;
  }
  // Authors and affiliations: what comes before the abstract (or the first section heading).
  const abstractAt = blocks.findIndex((b, j) => j >= i && (b.kind === "heading" || b.kind === "paragraph") && ABSTRACT.test(b.text));
  const firstSection = blocks.findIndex((b, j) => j >= i && b.kind === "heading" && !ABSTRACT.test(b.text));
  const authorsEnd = abstractAt >= 0 && (firstSection < 0 || abstractAt < firstSection) ? abstractAt : firstSection < 0 ? i : firstSection;
  for (; i < authorsEnd; i++) front.push(blockText(blocks[i]));
  if (abstractAt >= 0 && abstractAt === i) {
    const heading = blocks[i];
    const inline = heading.kind === "paragraph" ? heading.text.replace(ABSTRACT, "") : "";
    const abstract: string[] = inline ? [inline] : [];
    for (i++; i < blocks.length; i++) {
      const b = blocks[i];
      if (b.kind === "heading" && !KEYWORDS.test(b.text)) break;
      abstract.push(blockText(b));
      if (b.kind === "paragraph" && KEYWORDS.test(b.text)) {
        i++;
        break;
      }
    }
    front.push(
      `Abstract: ${abstract.join("\n")}`.replace(/^Abstract: /, /[\u4e00-\u9fa5]/.test(abstract.join("")) ? "摘要：" : "Abstract: "),
    );
  }
  const parts = [{ content: front.filter(Boolean).join("\n"), ...(front[0] ? { title: front[0] } : {}) }];
  return numbered([...parts, ...chunkSections(sections(blocks.slice(i)), opts)]);
}

/** ppt: one chunk per slide (per page of a PDF made from slides): title, text, table rows as `表头: 单元格` lines. */
export function chunkPpt(doc: ParsedDocument, opts: NormalizedOptions): Segment[] {
  const marker = doc.blocks.some((b) => b.kind === "slide") ? "slide" : "pageBreak";
  const slides: Block[][] = [];
  for (const block of doc.blocks) {
    if (block.kind === marker || slides.length === 0) slides.push([]);
    if (block.kind !== "slide" && block.kind !== "pageBreak") slides[slides.length - 1].push(block);
  }
  const parts: { content: string; title?: string }[] = [];
  for (const slide of slides) {
    const title = slide.find((b) => b.kind === "heading")?.text;
    const lines = slide.map((b) => (b.kind === "table" ? tableRowLines(b) : blockText(b))).filter(Boolean);
    const content = lines.join("\n");
    if (!content.trim()) continue;
    // A slide over the budget (a dense table) is packed into several chunks, each under the slide's title.
    const chunks = pack(
      unitsOf(slide.map((b) => (b.kind === "table" ? ({ kind: "paragraph", text: tableRowLines(b) } as Block) : b))),
      opts.chunkSize,
      0,
      opts.delimiters,
    );
    for (const chunk of chunks.length > 1 ? chunks : [content]) {
      const text = title && !chunk.startsWith(title) ? `${title}\n${chunk}` : chunk;
      parts.push({ content: text, ...(title ? { title } : {}) });
    }
  }
  return numbered(parts);
}

/** Each row of a table as `表头: 单元格` lines, rows apart by a blank line. */
function tableRowLines(table: Table): string {
  if (table.rows.length === 0) return tableLines(table)[0];
  return table.rows.map((row) => table.header.map((h, i) => `${h || `列${i + 1}`}: ${row[i] ?? ""}`).join("\n")).join("\n\n");
}

export { chunkSections };
