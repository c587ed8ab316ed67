import { DOMParser } from "@xmldom/xmldom";
import type { Block, ParsedDocument } from "../types.ts";
import { checkSignal } from "./limits.ts";
import { isOcrPicture, OCR_TEXT_PER_PICTURE, recognize } from "./ocr.ts";
import { tableFromRows } from "./table.ts";
import { type OfficeZip, zipText } from "./zip.ts";

const A = "http://schemas.openxmlformats.org/drawingml/2006/main";
const P = "http://schemas.openxmlformats.org/presentationml/2006/main";
const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/**
 * A presentation read from its slide XML in show order: per slide its title (heading), text boxes and tables.
 * A slide that is mostly pictures (a scanned page, a screenshot of text) has its PNG and JPEG pictures read by
 * OCR where they stand; a picture used on several slides is read once.
 */
export async function parsePptx({ zip }: OfficeZip, signal?: AbortSignal): Promise<ParsedDocument> {
  const blocks: Block[] = [];
  const slides = await slidePaths(zip);
  const read = new Map<string, Promise<string>>();
  const ocrPages: number[] = [];
  for (const [i, path] of slides.entries()) {
    blocks.push({ kind: "slide", index: i + 1 });
    const xml = await zipText(zip, path);
    if (!xml) continue;
    const slide = slideBlocks(xml);
    const text = slide.blocks.reduce((n, b) => n + ("text" in b ? b.text.length : 0), 0);
    if (slide.pictures.length && text < slide.pictures.length * OCR_TEXT_PER_PICTURE) {
      const targets = await pictureTargets(zip, path);
      // From the last picture back, so earlier insertion points stay valid.
      for (const pic of [...slide.pictures].reverse()) {
        const media = targets.get(pic.rid);
        const file = media && zip.file(media);
        if (!file) continue;
        checkSignal(signal);
        if (!read.has(media)) {
          read.set(
            media,
            file.async("uint8array").then((bytes) => (isOcrPicture(bytes) ? recognize(bytes) : "")),
          );
        }
        const ocr = await read.get(media)!;
        if (ocr) slide.blocks.splice(pic.at, 0, { kind: "ocr", text: ocr, page: i + 1 });
      }
      if (slide.blocks.some((b) => b.kind === "ocr")) ocrPages.push(i + 1);
    }
    blocks.push(...slide.blocks);
  }
  return { format: "pptx", blocks, pages: slides.length, ocrPages };
}

/** The targets of a slide's relationships (rId → zip path of the picture). */
async function pictureTargets(zip: OfficeZip["zip"], slidePath: string): Promise<Map<string, string>> {
  const dir = slidePath.slice(0, slidePath.lastIndexOf("/"));
  const rels = await zipText(zip, `${dir}/_rels/${slidePath.slice(dir.length + 1)}.rels`);
  const out = new Map<string, string>();
  if (!rels) return out;
  for (const rel of elements(xmlDoc(rels).documentElement, "*", "Relationship")) {
    const target = rel.getAttribute("Target") ?? "";
    if (rel.getAttribute("TargetMode") === "External" || !target) continue;
    const parts = (target.startsWith("/") ? target.slice(1) : `${dir}/${target}`).split("/");
    const resolved: string[] = [];
    for (const part of parts) {
      if (part === "..") resolved.pop();
      else if (part && part !== ".") resolved.push(part);
    }
    out.set(rel.getAttribute("Id") ?? "", resolved.join("/"));
  }
  return out;
}

async function slidePaths(zip: OfficeZip["zip"]): Promise<string[]> {
  const pres = await zipText(zip, "ppt/presentation.xml");
  const rels = await zipText(zip, "ppt/_rels/presentation.xml.rels");
  if (pres && rels) {
    const targets = new Map<string, string>();
    for (const rel of elements(xmlDoc(rels).documentElement, "*", "Relationship")) {
      targets.set(rel.getAttribute("Id") ?? "", rel.getAttribute("Target") ?? "");
    }
    const ordered = elements(xmlDoc(pres).documentElement, P, "sldId")
      .map((s) => targets.get(s.getAttributeNS(R, "id") ?? "") ?? "")
      .filter(Boolean)
      .map((t) => (t.startsWith("/") ? t.slice(1) : `ppt/${t}`).replace(/\/[^/]+\/\.\.\//g, "/"))
      .filter((p) => zip.file(p));
    if (ordered.length) return ordered;
  }
  // No (readable) slide list: the slide files in number order.
  return Object.keys(zip.files)
    .filter((p) => /^ppt\/slides\/slide\d+\.xml$/.test(p))
    .sort((a, b) => Number(/\d+/.exec(a.slice(11))?.[0]) - Number(/\d+/.exec(b.slice(11))?.[0]));
}

/** A slide's blocks, and its pictures: the relationship id of each and where in the blocks it stands. */
function slideBlocks(xml: string): { blocks: Block[]; pictures: { rid: string; at: number }[] } {
  const blocks: Block[] = [];
  const pictures: { rid: string; at: number }[] = [];
  const tree = elements(xmlDoc(xml).documentElement, P, "spTree")[0];
  if (!tree) return { blocks, pictures };
  const visit = (el: Element) => {
    const name = el.localName;
    if (name === "sp") {
      const type = elements(el, P, "ph")[0]?.getAttribute("type") ?? "";
      const paragraphs = elements(el, A, "p")
        .map((p) =>
          elements(p, A, "t")
            .map((t) => t.textContent ?? "")
            .join("")
            .trim(),
        )
        .filter(Boolean);
      if (paragraphs.length === 0) return;
      if (type === "title" || type === "ctrTitle") blocks.push({ kind: "heading", level: 1, text: paragraphs.join(" ") });
      else if (type !== "sldNum" && type !== "dt" && type !== "ftr") blocks.push({ kind: "paragraph", text: paragraphs.join("\n") });
    } else if (name === "graphicFrame") {
      const tbl = elements(el, A, "tbl")[0];
      if (!tbl) return;
      const rows: string[][] = [];
      for (const tr of elements(tbl, A, "tr")) {
        const row: string[] = [];
        for (const tc of elements(tr, A, "tc")) {
          // A cell covered by a merge (hMerge: the one to its left spans it; vMerge: the one above) repeats the
          // merged text, as a merged range does in xlsx, instead of leaving its column empty.
          const merged =
            tc.getAttribute("hMerge") === "1" ? row.at(-1) : tc.getAttribute("vMerge") === "1" ? rows.at(-1)?.[row.length] : undefined;
          row.push(merged ?? cellText(tc));
        }
        rows.push(row);
      }
      const table = tableFromRows(rows);
      if (table) blocks.push(table);
    } else if (name === "grpSp") {
      for (const child of children(el)) visit(child);
    } else if (name === "pic") {
      const rid = elements(el, A, "blip")[0]?.getAttributeNS(R, "embed");
      if (rid) pictures.push({ rid, at: blocks.length });
    }
  };
  for (const child of children(tree)) visit(child);
  return { blocks, pictures };
}

function cellText(tc: Element): string {
  return elements(tc, A, "p")
    .map((p) =>
      elements(p, A, "t")
        .map((t) => t.textContent ?? "")
        .join(""),
    )
    .join(" ")
    .trim();
}

function xmlDoc(xml: string) {
  return new DOMParser().parseFromString(xml, "text/xml");
}

function elements(el: Element | null | undefined, ns: string, local: string): Element[] {
  if (!el) return [];
  return Array.from(ns === "*" ? el.getElementsByTagNameNS("*", local) : el.getElementsByTagNameNS(ns, local));
}

function children(el: Element): Element[] {
  return Array.from(el.childNodes as unknown as ArrayLike<Element>).filter((n) => n.nodeType === 1);
}
