import { type HTMLElement, type Node, NodeType, parse } from "node-html-parser";
import type { Block, ParsedDocument } from "../types.ts";
import { decodeText } from "./limits.ts";
import { tableFromRows } from "./table.ts";

/** The src of a picture whose alt text is the picture's text read by OCR (set by the docx reader). */
export const OCR_IMAGE_SRC = "ocr:";

const SKIP = new Set(["script", "style", "noscript", "template", "head", "svg", "nav", "iframe", "object"]);
const BLOCK = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "header",
  "footer",
  "aside",
  "blockquote",
  "pre",
  "li",
  "dd",
  "dt",
  "figcaption",
  "caption",
  "address",
  "ul",
  "ol",
  "dl",
  "body",
  "html",
  "form",
  "fieldset",
]);

export function parseHtml(data: Uint8Array): ParsedDocument {
  return { format: "html", ...blocksFromHtml(decodeText(data)), ocrPages: [] };
}

/** HTML (a web page, or mammoth's rendering of a docx) as blocks: h1–h6 headings, paragraphs, tables with their header. */
export function blocksFromHtml(html: string): { blocks: Block[]; pages: number } {
  const root = parse(html, { comment: false, blockTextElements: { pre: true } });
  const blocks: Block[] = [];
  let inline = "";
  const flush = () => {
    const text = inline
      .replace(/[ \t\u00a0]+/g, " ")
      .replace(/ *\n */g, "\n")
      .trim();
    if (text) blocks.push({ kind: "paragraph", text });
    inline = "";
  };
  const walk = (node: Node) => {
    if (node.nodeType === NodeType.TEXT_NODE) {
      inline += node.text.replace(/\s+/g, " ");
      return;
    }
    if (node.nodeType !== NodeType.ELEMENT_NODE) return;
    const el = node as HTMLElement;
    const tag = el.rawTagName?.toLowerCase() ?? "";
    if (SKIP.has(tag)) return;
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) {
      flush();
      const text = el.text.replace(/\s+/g, " ").trim();
      if (text) blocks.push({ kind: "heading", level: Number(heading[1]), text });
      return;
    }
    if (tag === "table") {
      flush();
      const table = tableFromHtml(el);
      if (table) blocks.push(table);
      return;
    }
    if (tag === "img" && el.getAttribute("src") === OCR_IMAGE_SRC) {
      flush();
      const text = (el.getAttribute("alt") ?? "").trim();
      if (text) blocks.push({ kind: "ocr", text });
      return;
    }
    if (tag === "br") {
      inline += "\n";
      return;
    }
    if (tag === "pre") {
      flush();
      const text = el.text.trim();
      if (text) blocks.push({ kind: "paragraph", text });
      return;
    }
    const isBlock = BLOCK.has(tag) || tag === "";
    if (isBlock) flush();
    // Word's numbered lists (and <ol>) carry their numbers only as list markup: write them, so steps keep their order.
    const list = el.parentNode;
    if (tag === "li" && list?.rawTagName?.toLowerCase() === "ol") inline += `${listNumber(list, el)}. `;
    for (const child of el.childNodes) walk(child);
    if (isBlock) flush();
  };
  walk(root);
  flush();
  return { blocks, pages: 1 };
}

/** An item's number in its ordered list (from the list's `start`). */
function listNumber(list: HTMLElement, li: HTMLElement): number {
  const items = list.childNodes.filter(
    (c) => c.nodeType === NodeType.ELEMENT_NODE && (c as HTMLElement).rawTagName?.toLowerCase() === "li",
  );
  return (Number(list.getAttribute("start")) || 1) + items.indexOf(li);
}

function tableFromHtml(table: HTMLElement): Block | undefined {
  const rows: string[][] = [];
  let headerRows = 0;
  /** By column: a cell of a row above that spans down (rowspan, Word's vertically merged cells) and the rows it still covers. */
  const spans: { text: string; rows: number }[] = [];
  for (const tr of table.querySelectorAll("tr")) {
    // Rows of a nested table belong to that table's cell text, not to this table.
    if (tr.closest("table") !== table) continue;
    const cells = tr.childNodes.filter(
      (c): c is HTMLElement => c.nodeType === NodeType.ELEMENT_NODE && /^t[dh]$/i.test((c as HTMLElement).rawTagName),
    );
    const row: string[] = [];
    // A covered position repeats the merged cell's text (as exceljs gives a merged range's value to each of its
    // cells), so the cells after it stay under their own column.
    const takeSpanned = () => {
      for (let span = spans[row.length]; span?.rows; span = spans[row.length]) {
        span.rows--;
        row.push(span.text);
      }
    };
    for (const cell of cells) {
      takeSpanned();
      const text = cell.text.replace(/\s+/g, " ").trim();
      const colspan = Math.min(Number(cell.getAttribute("colspan") ?? 1) || 1, 50);
      const rowspan = Math.min(Number(cell.getAttribute("rowspan") ?? 1) || 1, 1000);
      for (let i = 0; i < colspan; i++) {
        spans[row.length] = { text, rows: rowspan - 1 };
        row.push(text);
      }
    }
    takeSpanned();
    if (rows.length === headerRows && cells.length && cells.every((c) => c.rawTagName.toLowerCase() === "th")) headerRows++;
    rows.push(row);
  }
  return tableFromRows(rows);
}
