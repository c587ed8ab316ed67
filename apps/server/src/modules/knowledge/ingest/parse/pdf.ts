import { getDocumentProxy, renderPageAsImage } from "unpdf";
import { IngestError, type Block, type IngestContext, type ParseOptions, type ParsedDocument } from "../types.ts";
import { checkSignal, MAX_PDF_PAGES, normalizeText } from "./limits.ts";
import { recognize } from "./ocr.ts";
import { tableFromRows } from "./table.ts";

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

// pdf.js draws embedded fonts with ArrayBuffer.prototype.transferToFixedLength, which Node gained in 21: without
// it every glyph fails on Node 20 and a rendered page comes out blank. A copying stand-in is enough for pdf.js.
if (!("transferToFixedLength" in ArrayBuffer.prototype)) {
  Object.defineProperty(ArrayBuffer.prototype, "transferToFixedLength", {
    configurable: true,
    writable: true,
    value(this: ArrayBuffer, length = this.byteLength) {
      const copy = new ArrayBuffer(length);
      new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(length, this.byteLength)));
      return copy;
    },
  });
}

/** A run of a line's text set apart from the next by a wide gap: a table cell when lines line up in columns. */
export interface PdfCell {
  text: string;
  left: number;
  right: number;
}

/** One printed line of a page: its text, font size and position (y grows downwards), and its cells. */
export interface PdfLine {
  text: string;
  size: number;
  top: number;
  left: number;
  right: number;
  cells: PdfCell[];
}

interface TextItem {
  str: string;
  transform: number[];
  width: number;
  hasEOL?: boolean;
}

/** Pages are rendered for OCR with this many pixels on their longer side (A4 at about 1.5×, 110 dpi): enough for body text. */
const OCR_LONG_SIDE = 1300;

/**
 * A PDF read page by page from its text layer (NFKC-normalised); a page whose text layer is missing or garbled, or
 * every page when `forceOcr`, is rendered and read by OCR. Lines repeated at the top or bottom of most pages
 * (running headers, footers, page numbers) are dropped. Headings come from the PDF outline (bookmarks) when it
 * has one, else from font sizes larger than the body text.
 */
export async function parsePdf(
  data: Uint8Array,
  options: ParseOptions,
  ctx: IngestContext & { signal: AbortSignal },
): Promise<ParsedDocument> {
  let pdf: PdfDocument;
  try {
    // pdf.js may take over the buffer it is given: hand it a copy so the caller's bytes stay intact.
    pdf = await getDocumentProxy(new Uint8Array(data), { isEvalSupported: false, stopAtErrors: false });
  } catch (e) {
    const name = (e as Error)?.name;
    if (name === "PasswordException") throw new IngestError("unreadable", "the PDF is password-protected");
    throw new IngestError("unreadable", `the PDF could not be read: ${(e as Error)?.message ?? e}`);
  }
  try {
    if (pdf.numPages > MAX_PDF_PAGES) throw new IngestError("tooLarge", `the PDF has more than ${MAX_PDF_PAGES} pages`);
    const pages: PdfLine[][] = [];
    const ocrText = new Map<number, string>();
    for (let p = 1; p <= pdf.numPages; p++) {
      checkSignal(ctx.signal);
      const page = await pdf.getPage(p);
      const height = page.view[3] - page.view[1];
      const scale = Math.min(3, OCR_LONG_SIDE / Math.max(height, page.view[2] - page.view[0], 1));
      const content = await page.getTextContent();
      const lines = toLines(content.items as TextItem[], height);
      page.cleanup();
      if (options.forceOcr || !readable(lines)) {
        const png = await renderPageAsImage(pdf, p, { canvasImport: () => import("@napi-rs/canvas"), scale });
        checkSignal(ctx.signal);
        ocrText.set(p, await recognize(new Uint8Array(png)));
        pages.push([]);
      } else pages.push(lines);
      ctx.onProgress?.(Math.round((p / pdf.numPages) * 80));
    }
    dropRunningLines(pages);
    const outline = await outlineTitles(pdf);
    const blocks = toBlocks(pages, ocrText, outline);
    return { format: "pdf", blocks, pages: pdf.numPages, ocrPages: [...ocrText.keys()] };
  } finally {
    await pdf.destroy();
  }
}

/** Text items in content order grouped into lines: a new line where the baseline moves or pdf.js marks an end of line. */
export function toLines(items: TextItem[], pageHeight: number): PdfLine[] {
  const lines: PdfLine[] = [];
  let line: PdfLine | undefined;
  let baseline = 0;
  let breakNext = false;
  let cellBreak = false;
  for (const item of items) {
    if (typeof item.str !== "string") continue;
    const [a, b, c, d, x, y] = item.transform;
    const size = Math.hypot(c, d) || Math.hypot(a, b) || 1;
    const text = item.str;
    if (!text.trim()) {
      if (item.hasEOL) breakNext = true;
      else if (line && text) line.text += " ";
      // A "space" much wider than a space (Chromium spans a table's column gap with one) separates cells.
      if (item.width > size * 0.6) cellBreak = true;
      continue;
    }
    if (!line || breakNext || Math.abs(y - baseline) > size * 0.5 || x < line.right - size * 2) {
      if (line) lines.push(line);
      line = { text: "", size, top: pageHeight - y - size, left: x, right: x, cells: [] };
      baseline = y;
      cellBreak = false;
    } else if (x - line.right > size * 0.2 && !line.text.endsWith(" ") && !(cjk(line.text.at(-1)) && cjk(text[0]))) {
      line.text += " ";
    }
    // A gap wider than a character, or a wide space, starts a new cell (words are a space apart, table columns more).
    const cell = line.cells.at(-1);
    if (!cell || cellBreak || x - line.right > size * CELL_GAP) line.cells.push({ text, left: x, right: x + item.width });
    else {
      cell.text += x - cell.right > size * 0.2 && !(cjk(cell.text.at(-1)) && cjk(text[0])) ? ` ${text}` : text;
      cell.right = Math.max(cell.right, x + item.width);
    }
    cellBreak = false;
    line.text += text;
    line.size = Math.max(line.size, size);
    line.right = Math.max(line.right, x + item.width);
    breakNext = item.hasEOL === true;
  }
  if (line) lines.push(line);
  const tidy = (t: string) => normalizeText(t).replace(/\s+/g, " ").trim();
  return lines
    .map((l) => ({
      ...l,
      text: tidy(l.text),
      size: Math.round(l.size * 2) / 2,
      cells: l.cells.map((c) => ({ ...c, text: tidy(c.text) })).filter((c) => c.text),
    }))
    .filter((l) => l.text);
}

/**
 * Whether a line may be a table row: two cells or more, none ending a sentence, and not a numbered article or
 * chapter ("第一条　…", "第一章　总　则" are set with full-width spaces as wide as a table's column gap).
 */
function rowLike(line: PdfLine): boolean {
  return (
    line.cells.length >= 2 &&
    !/^(?:第[一二三四五六七八九十百千零〇两\d]+[编章节条款]|[（(][一二三四五六七八九十\d]+[)）])/.test(line.text) &&
    !line.cells.some((c) => /[。；！？]$/.test(c.text))
  );
}

/** Cells are apart by more than this many font sizes. */
const CELL_GAP = 1;

/**
 * A table starting at `lines[start]`: that line and the lines after it whose cells fall into its columns (a cell
 * starts or ends where a column of the first line does), at least two cells per line and two lines in all. Rows
 * whose cells skip a column get an empty cell there. Undefined when the lines are no table.
 */
export function tableAt(lines: PdfLine[], start: number): { rows: string[][]; end: number } | undefined {
  const head = lines[start];
  if (!rowLike(head)) return undefined;
  const columns = head.cells.map((c) => ({ left: c.left, right: c.right }));
  const rows = [head.cells.map((c) => c.text)];
  let end = start + 1;
  for (; end < lines.length; end++) {
    const line = lines[end];
    if (!rowLike(line) || line.cells.length > columns.length) break;
    // Aligned within a font size: left-aligned text shares the left edge, right-aligned numbers the right one.
    const tol = line.size;
    const row: string[] = Array(columns.length).fill("");
    let col = 0;
    let aligned = true;
    for (const cell of line.cells) {
      while (col < columns.length && Math.abs(cell.left - columns[col].left) > tol && Math.abs(cell.right - columns[col].right) > tol)
        col++;
      if (col >= columns.length) {
        aligned = false;
        break;
      }
      row[col++] = cell.text;
    }
    if (!aligned) break;
    rows.push(row);
  }
  return rows.length >= 2 ? { rows, end } : undefined;
}

const CJK = /[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/;
function cjk(ch: string | undefined): boolean {
  return ch !== undefined && CJK.test(ch);
}

/**
 * Whether a page's text layer can be trusted: some text, and few replacement, private-use or control characters
 * (what fonts without a Unicode map produce). Otherwise the page is read by OCR.
 */
export function readable(lines: PdfLine[]): boolean {
  const text = lines
    .map((l) => l.text)
    .join("")
    .replace(/\s/g, "");
  if (text.length < 5) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a broken text layer yields
  const bad = text.match(/[\uFFFD\uE000-\uF8FF\u0000-\u0008\u000E-\u001F]/g)?.length ?? 0;
  return bad / text.length < 0.1;
}

const PAGE_NUMBER =
  /^(?:[-—–·\s]*\d+[-—–·\s]*|第\s*\d+\s*页(?:\s*[,，/／]?\s*共\s*\d+\s*页)?|\d+\s*[/／]\s*\d+|page\s*\d+(?:\s*of\s*\d+)?|[ivxlc]+)$/i;

/**
 * Drops running headers and footers: lines among the first or last two of a page that recur at the same height on
 * most pages (digits ignored), and lone page numbers there.
 */
export function dropRunningLines(pages: PdfLine[][]): void {
  const textPages = pages.filter((p) => p.length);
  // Same text (digits aside) at the same height of the page: a running header or footer, not body text.
  const key = (l: PdfLine) => `${Math.round(l.top / 6)}|${l.text.replace(/\d+/g, "#").replace(/\s/g, "")}`;
  const edges = (lines: PdfLine[]) => {
    const sorted = [...lines].sort((a, b) => a.top - b.top);
    return new Set([...sorted.slice(0, 2), ...sorted.slice(-2)]);
  };
  const counts = new Map<string, number>();
  for (const lines of textPages) {
    for (const k of new Set([...edges(lines)].map(key))) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const threshold = Math.max(3, Math.ceil(textPages.length * 0.6));
  for (let i = 0; i < pages.length; i++) {
    const edge = edges(pages[i]);
    pages[i] = pages[i].filter(
      (l) => !edge.has(l) || !((counts.get(key(l)) ?? 0) >= threshold || (textPages.length >= 2 && PAGE_NUMBER.test(l.text))),
    );
  }
}

interface OutlineTitle {
  title: string;
  level: number;
  page?: number;
}

/** The PDF's bookmarks, flattened with their depth (1 = top) and the page each points to when it resolves. */
async function outlineTitles(pdf: PdfDocument): Promise<OutlineTitle[]> {
  const out: OutlineTitle[] = [];
  let outline: Awaited<ReturnType<PdfDocument["getOutline"]>> | null;
  try {
    outline = await pdf.getOutline();
  } catch {
    return out;
  }
  const visit = async (items: NonNullable<typeof outline>, level: number) => {
    for (const item of items) {
      if (out.length >= 5000) return;
      let page: number | undefined;
      try {
        const dest = typeof item.dest === "string" ? await pdf.getDestination(item.dest) : item.dest;
        const ref = dest?.[0];
        if (ref && typeof ref === "object") page = (await pdf.getPageIndex(ref)) + 1;
        else if (typeof ref === "number") page = ref + 1;
      } catch {
        page = undefined;
      }
      const title = normalizeText(item.title ?? "")
        .replace(/\s+/g, " ")
        .trim();
      if (title) out.push({ title, level: Math.min(level, 6), page });
      if (item.items?.length) await visit(item.items, level + 1);
    }
  };
  if (outline?.length) await visit(outline, 1);
  return out;
}

const squash = (s: string) => s.replace(/\s+/g, "");
/** A line that starts a new paragraph whatever its spacing: numbered articles, items and sections. */
const STARTS_PARAGRAPH =
  /^(?:第[一二三四五六七八九十百千零〇两\d]+[编章节条款]|[（(][一二三四五六七八九十\d]+[)）]|[一二三四五六七八九十]+、|\d+(?:\.\d+)*[.、\s]|[•·●▪■◆\-*]\s)/;

/** Pages of lines as blocks: headings (outline, else larger type), paragraphs of lines that run on, OCR text per page. */
function toBlocks(pages: PdfLine[][], ocrText: Map<number, string>, outline: OutlineTitle[]): Block[] {
  const all = pages.flat();
  const bodySize = modeSize(all);
  const headingSizes = [...new Set(all.filter((l) => isLargeType(l, bodySize)).map((l) => l.size))].sort((a, b) => b - a).slice(0, 6);
  const byTitle = new Map<string, OutlineTitle[]>();
  for (const o of outline) byTitle.set(squash(o.title), [...(byTitle.get(squash(o.title)) ?? []), o]);
  const blocks: Block[] = [];
  for (const [i, lines] of pages.entries()) {
    const page = i + 1;
    blocks.push({ kind: "pageBreak", page });
    const ocr = ocrText.get(page);
    if (ocr !== undefined) {
      if (ocr) blocks.push({ kind: "ocr", text: ocr, page });
      continue;
    }
    let para: PdfLine[] = [];
    const flush = () => {
      if (para.length) blocks.push({ kind: "paragraph", text: joinLines(para), page });
      para = [];
    };
    const widest = Math.max(...lines.map((l) => l.right - l.left), 1);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      // Lines whose cells line up in columns are a table (one row per line, the first the header).
      const table = tableAt(lines, i);
      if (table) {
        flush();
        const block = tableFromRows(table.rows);
        if (block) blocks.push({ ...block, page });
        i = table.end - 1;
        continue;
      }
      const marks = byTitle.get(squash(line.text));
      const mark = marks?.find((o) => o.page === undefined || o.page === page);
      const level = outline.length ? mark?.level : isLargeType(line, bodySize) ? headingSizes.indexOf(line.size) + 1 : undefined;
      if (level) {
        flush();
        blocks.push({ kind: "heading", level, text: line.text, page });
        if (mark && marks) marks.splice(marks.indexOf(mark), 1);
        continue;
      }
      const prev = para.at(-1);
      const runsOn =
        prev &&
        Math.abs(prev.size - line.size) <= 0.5 &&
        line.top - prev.top <= line.size * 2 &&
        prev.right - prev.left >= widest * 0.85 &&
        !STARTS_PARAGRAPH.test(line.text);
      if (!runsOn) flush();
      para.push(line);
    }
    flush();
  }
  return blocks;
}

function isLargeType(line: PdfLine, bodySize: number): boolean {
  return line.size >= bodySize * 1.15 && line.text.length <= 80;
}

/** The font size most of the text is set in. */
function modeSize(lines: PdfLine[]): number {
  const chars = new Map<number, number>();
  for (const l of lines) chars.set(l.size, (chars.get(l.size) ?? 0) + l.text.length);
  let best = 0;
  let bestCount = -1;
  for (const [size, count] of chars) {
    if (count > bestCount || (count === bestCount && size < best)) {
      best = size;
      bestCount = count;
    }
  }
  return best || 12;
}

/** Lines of one paragraph joined: Chinese runs on directly, Latin words get a space, a hyphen at a line end is mended. */
function joinLines(lines: PdfLine[]): string {
  let text = "";
  for (const { text: line } of lines) {
    if (!text) text = line;
    else if (/[a-z]-$/i.test(text) && /^[a-z]/.test(line)) text = text.slice(0, -1) + line;
    else if (cjk(text.at(-1)) || cjk(line[0])) text += line;
    else text += ` ${line}`;
  }
  return text;
}
