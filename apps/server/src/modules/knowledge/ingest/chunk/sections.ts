import type { NormalizedOptions } from "../options.ts";
import type { Block, ParsedDocument, Segment } from "../types.ts";
import { unitsOf } from "./auto.ts";
import { pack } from "./pack.ts";
import { countTokens } from "../tokens.ts";
import { numbered } from "./text.ts";

export interface Section {
  /** The chain of headings above the section's body, outermost first. */
  path: string[];
  blocks: Block[];
}

/**
 * A heading level from numbering, for documents whose headings are only numbered lines (OCR text, plain text,
 * PDFs whose headings are set in body type): "第一章" 1, "第一节" 2, "1" / "一、" 1, "1.2" 2, "1.2.3" 3.
 * Only short lines without sentence punctuation count, so numbered list items stay body text.
 */
export function numberedLevel(line: string): number | undefined {
  const text = line.trim();
  if (text.length > 40 || /[。；;!?！？]$|[，,。]/.test(text)) return undefined;
  if (/^第[一二三四五六七八九十百零〇\d]+[篇编部]\s*\S/.test(text)) return 1;
  if (/^第[一二三四五六七八九十百零〇\d]+章\s*\S/.test(text)) return 1;
  if (/^第[一二三四五六七八九十百零〇\d]+节\s*\S/.test(text)) return 2;
  const dotted = /^(\d{1,2}(?:\.\d{1,2}){0,4})\.?\s+\S/.exec(text);
  if (dotted && !/^\d+\s+\d/.test(text)) return dotted[1].split(".").length;
  if (/^[一二三四五六七八九十]+、\s*\S/.test(text)) return 1;
  if (/^[（(][一二三四五六七八九十]+[)）]\s*\S/.test(text)) return 2;
  return undefined;
}

/** How a numbered line is numbered, its numbers left out: "1.2 用途" → "#.#", "2. 保存" → "#.", "第三章 …" → "第#章". */
function numberingStyle(line: string): string {
  const prefix =
    /^(第[^\s章节篇编部]+[章节篇编部]|[一二三四五六七八九十]+、|[（(][一二三四五六七八九十]+[)）]|\d{1,2}(?:\.\d{1,2})*\.?)/.exec(
      line.trim(),
    );
  return (prefix?.[0] ?? "").replace(/[一二三四五六七八九十百零〇\d]+/g, "#");
}

/**
 * Paragraph and OCR lines that are numbered headings become heading blocks when a document has no headings of
 * its own (or, `alongsideHeadings`, one-line numbered paragraphs in any document).
 */
export function withNumberedHeadings(blocks: Block[], alongsideHeadings = false): Block[] {
  if (alongsideHeadings) {
    // Beside real headings only a numbered paragraph of one line is taken (a bold "1 引言" in a PDF).
    return blocks.map((b) => {
      const level = b.kind === "paragraph" && !b.text.includes("\n") ? numberedLevel(b.text) : undefined;
      return level && b.kind === "paragraph" ? { kind: "heading", level, text: b.text.trim(), ...(b.page ? { page: b.page } : {}) } : b;
    });
  }
  if (blocks.some((b) => b.kind === "heading")) return blocks;
  // Numbered lines in a row numbered alike ("1.1", "1.2"; "1.", "2.") are a list (steps, items), not headings: a
  // heading has text under it. Every line (and table) in reading order, with its numbering when it has one.
  const numbering: (string | undefined)[] = [];
  for (const block of blocks) {
    if (block.kind === "paragraph" || block.kind === "ocr") {
      for (const line of block.text.split("\n")) numbering.push(numberedLevel(line) ? numberingStyle(line) : undefined);
    } else if (block.kind === "table") numbering.push(undefined);
  }
  const isHeading = (i: number) => numbering[i] !== undefined && numbering[i - 1] !== numbering[i] && numbering[i + 1] !== numbering[i];
  let at = 0;
  const out: Block[] = [];
  for (const block of blocks) {
    if (block.kind !== "paragraph" && block.kind !== "ocr") {
      if (block.kind === "table") at++;
      out.push(block);
      continue;
    }
    let body: string[] = [];
    const flush = () => {
      if (body.length) out.push({ ...block, text: body.join("\n") });
      body = [];
    };
    for (const line of block.text.split("\n")) {
      if (isHeading(at)) {
        flush();
        out.push({ kind: "heading", level: numberedLevel(line)!, text: line.trim(), ...(block.page ? { page: block.page } : {}) });
      } else body.push(line);
      at++;
    }
    flush();
  }
  return out;
}

/**
 * Blocks grouped under their chain of headings. A heading with neither text nor a subheading under it still
 * yields its section, with no blocks (its title is text of the document too).
 */
export function sections(blocks: Block[]): Section[] {
  const out: Section[] = [];
  const stack: { level: number; text: string }[] = [];
  let current: Section = { path: [], blocks: [] };
  for (const block of blocks) {
    if (block.kind === "heading") {
      const parent = !current.blocks.length && stack.length > 0 && block.level > stack[stack.length - 1].level;
      if (current.path.length ? !parent : current.blocks.length) out.push(current);
      while (stack.length && stack[stack.length - 1].level >= block.level) stack.pop();
      stack.push({ level: block.level, text: block.text });
      current = { path: stack.map((h) => h.text), blocks: [] };
    } else if (block.kind !== "pageBreak" && block.kind !== "slide") current.blocks.push(block);
  }
  if (current.blocks.length || current.path.length) out.push(current);
  return out;
}

export const PATH_SEPARATOR = " > ";

/** Each section's body packed to the budget; every chunk starts with the section's title path and carries it as `title`. */
export function chunkSections(list: Section[], opts: NormalizedOptions): Omit<Segment, "position" | "tokens">[] {
  const parts: Omit<Segment, "position" | "tokens">[] = [];
  for (const section of list) {
    const title = section.path.join(PATH_SEPARATOR);
    const prefix = title ? `${title}\n` : "";
    const room = Math.max(opts.chunkSize - countTokens(prefix), Math.ceil(opts.chunkSize / 2));
    const bodies = pack(unitsOf(section.blocks), room, 0, opts.delimiters);
    // A heading with nothing under it is a chunk of its title path alone.
    for (const body of bodies.length ? bodies : [""]) parts.push({ content: prefix + body, ...(title ? { title } : {}) });
  }
  return parts;
}

/** manual and scanned_manual: title paths from heading styles, bookmarks, or numbering, prefixing each chunk. */
export function chunkManual(doc: ParsedDocument, opts: NormalizedOptions): Segment[] {
  return numbered(chunkSections(sections(withNumberedHeadings(doc.blocks)), opts));
}

const TOC_HEADING = /^(目\s*录|目\s*次|contents|table of contents)$/i;
/** A table-of-contents entry: a title followed by dot leaders and/or a page number. */
const TOC_ENTRY = /^(.{1,80}?)(?:[\s.．…·•_-]{2,}|\s+)(\d{1,4}|[ivxlc]{1,6})$/i;

/** Drops a table of contents: its heading and the entries after it, or a run of entry-looking lines on the first pages. */
export function dropTableOfContents(blocks: Block[]): Block[] {
  const out: Block[] = [];
  let inToc = false;
  // An entry without a page number is a title that the body repeats.
  const key = (line: string) => line.replace(/[\s.．…·•_-]+(\d{1,4}|[ivxlc]{1,6})$/i, "").replace(/\s+/g, "");
  const seen = new Map<string, number>();
  for (const b of blocks) if ("text" in b) for (const l of b.text.split("\n")) seen.set(key(l), (seen.get(key(l)) ?? 0) + 1);
  const isEntry = (l: string) => TOC_ENTRY.test(l) || (seen.get(key(l)) ?? 0) >= 2;
  for (const block of blocks) {
    const text = block.kind === "heading" || block.kind === "paragraph" || block.kind === "ocr" ? block.text.trim() : "";
    let lines = text.split("\n").map((l) => l.trim());
    if (text && TOC_HEADING.test(lines[0].replace(/\s+/g, " "))) {
      inToc = true;
      lines = lines.slice(1);
    }
    if (inToc && block.kind !== "pageBreak") {
      const first = lines.findIndex((l) => l && !isEntry(l));
      for (const l of first === -1 ? lines : lines.slice(0, first)) seen.set(key(l), (seen.get(key(l)) ?? 1) - 1);
      if (first === -1) continue;
      inToc = false;
      lines = lines.slice(first);
    } else if (text && lines.length >= 3) {
      const entries = lines.filter((l) => /[.．…·]{3,}\s*\d{1,4}$/.test(l)).length;
      if (entries >= 3 && entries >= lines.length * 0.8) continue;
    }
    if (block.kind === "heading" || block.kind === "paragraph" || block.kind === "ocr") {
      const kept = lines.join("\n").trim();
      if (kept) out.push({ ...block, text: kept });
    } else out.push(block);
  }
  return out;
}

/** book: table of contents dropped; paragraphs packed under their chain of headings. */
export function chunkBook(doc: ParsedDocument, opts: NormalizedOptions): Segment[] {
  return numbered(chunkSections(sections(withNumberedHeadings(dropTableOfContents(doc.blocks))), opts));
}
