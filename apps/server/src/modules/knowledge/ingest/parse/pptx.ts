import { DOMParser } from "@xmldom/xmldom";
import type { Block, ParsedDocument } from "../types.ts";
import { tableFromRows } from "./table.ts";
import { type OfficeZip, zipText } from "./zip.ts";

const A = "http://schemas.openxmlformats.org/drawingml/2006/main";
const P = "http://schemas.openxmlformats.org/presentationml/2006/main";
const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/** A presentation read from its slide XML in show order: per slide its title (heading), text boxes and tables. */
export async function parsePptx({ zip }: OfficeZip): Promise<ParsedDocument> {
  const blocks: Block[] = [];
  const slides = await slidePaths(zip);
  for (const [i, path] of slides.entries()) {
    blocks.push({ kind: "slide", index: i + 1 });
    const xml = await zipText(zip, path);
    if (xml) blocks.push(...slideBlocks(xml));
  }
  return { format: "pptx", blocks, pages: slides.length, ocrPages: [] };
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

function slideBlocks(xml: string): Block[] {
  const blocks: Block[] = [];
  const tree = elements(xmlDoc(xml).documentElement, P, "spTree")[0];
  if (!tree) return blocks;
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
      const rows = elements(tbl, A, "tr").map((tr) =>
        elements(tr, A, "tc").map((tc) =>
          elements(tc, A, "p")
            .map((p) =>
              elements(p, A, "t")
                .map((t) => t.textContent ?? "")
                .join(""),
            )
            .join(" ")
            .trim(),
        ),
      );
      const table = tableFromRows(rows);
      if (table) blocks.push(table);
    } else if (name === "grpSp") {
      for (const child of children(el)) visit(child);
    }
  };
  for (const child of children(tree)) visit(child);
  return blocks;
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
