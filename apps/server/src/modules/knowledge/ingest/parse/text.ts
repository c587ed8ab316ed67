import type { Block, ParsedDocument } from "../types.ts";
import { decodeText } from "./limits.ts";
import { tableFromRows } from "./table.ts";

/** Plain text: paragraphs are separated by blank lines; lines inside a paragraph are kept. */
export function parseText(data: Uint8Array): ParsedDocument {
  const blocks: Block[] = [];
  for (const para of decodeText(data).split(/\n[ \t\u3000]*\n/)) {
    const text = para.replace(/[ \t]+$/gm, "").replace(/^\n+|\n+$/g, "");
    if (text.trim()) blocks.push({ kind: "paragraph", text });
  }
  return { format: "txt", blocks, pages: 1, ocrPages: [] };
}

/** Markdown: ATX and setext headings, pipe tables with their header, fenced code kept whole, paragraphs between blank lines. */
export function parseMarkdown(data: Uint8Array): ParsedDocument {
  const lines = decodeText(data).split("\n");
  const blocks: Block[] = [];
  let para: string[] = [];
  const flush = () => {
    const text = para.join("\n").trim();
    if (text) blocks.push({ kind: "paragraph", text });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const atx = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (atx) {
      flush();
      if (atx[2]) blocks.push({ kind: "heading", level: atx[1].length, text: atx[2] });
      continue;
    }
    if (/^ {0,3}(```|~~~)/.test(line)) {
      flush();
      const fence = line.trim().slice(0, 3);
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith(fence); i++) code.push(lines[i]);
      if (code.join("").trim()) blocks.push({ kind: "paragraph", text: code.join("\n") });
      continue;
    }
    if (para.length === 1 && /^ {0,3}(=+|-+)\s*$/.test(line) && !/^\s*[-*+]\s/.test(para[0])) {
      const text = para[0].trim();
      para = [];
      blocks.push({ kind: "heading", level: line.trim().startsWith("=") ? 1 : 2, text });
      continue;
    }
    if (/^\s*\|.*\|\s*$/.test(line) && /^\s*\|?\s*:?-{2,}/.test(lines[i + 1] ?? "")) {
      flush();
      const rows = [cells(line)];
      for (i += 2; i < lines.length && /^\s*\|.*\|\s*$/.test(lines[i]); i++) rows.push(cells(lines[i]));
      i--;
      const table = tableFromRows(rows);
      if (table) blocks.push(table);
      continue;
    }
    if (!line.trim()) flush();
    else para.push(line.replace(/\s+$/, ""));
  }
  flush();
  return { format: "md", blocks, pages: 1, ocrPages: [] };
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, "")
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, "|"));
}
