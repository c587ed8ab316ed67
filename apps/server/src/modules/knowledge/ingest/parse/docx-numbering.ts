import { DOMParser, XMLSerializer } from "@xmldom/xmldom";
import type JSZip from "jszip";

/**
 * Word's automatic numbering written into the text. mammoth only knows that a paragraph is a list item, so an
 * article numbered `第%1条`, an item `（%1）` counted in Chinese or a heading numbered `%1.%2` would come out as
 * `1.` or nothing. Here every numbered paragraph of `word/document.xml` gets its label, as Word shows it, as a
 * first run, and its numbering is switched off (`numId` 0, Word's "no numbering", which also overrides numbering
 * given by the paragraph's style), so every method reads the numbers a user sees.
 *
 * Counters follow Word: numbers of one list definition (abstractNum) continue across its `w:num`s, a `w:num` with a
 * `w:startOverride` restarts that level where it is first used, and a level restarts when a higher level advances.
 * Not modelled: `w:lvlRestart`, list styles (`w:numStyleLink`), numbering in headers, footers and notes.
 * Returns the rewritten file, or undefined when the document has no numbering to write.
 */
export async function writeListNumbers(zip: JSZip): Promise<Uint8Array | undefined> {
  const numberingXml = await zip.file("word/numbering.xml")?.async("string");
  const documentXml = await zip.file("word/document.xml")?.async("string");
  if (!numberingXml || !documentXml) return undefined;
  const lists = readNumbering(parse(numberingXml));
  const styles = readStyles(parse((await zip.file("word/styles.xml")?.async("string")) ?? "<w:styles/>"));
  const doc = parse(documentXml);
  const counters = new Map<string, (number | undefined)[]>();
  const numsSeen = new Set<string>();
  let changed = false;
  for (const p of elements(doc, "p")) {
    if (inChoice(p)) continue; // mammoth reads the Fallback copy of a text box; count each paragraph once
    const pPr = child(p, "pPr");
    const styleId = attr(child(pPr, "pStyle"));
    const style = styleId ? styles.get(styleId) : undefined;
    const own = child(pPr, "numPr");
    const numId = attr(child(own, "numId")) ?? style?.numId;
    const num = numId ? lists.nums.get(numId) : undefined;
    const levels = num && lists.abstracts.get(num.abstractId);
    if (!num || !levels) continue;
    // The level: the paragraph's, its style's, or the level linked to its style (numbered heading styles).
    const linked = levels.findIndex((l) => l?.styleId === styleId);
    const at = Math.max(0, Number(attr(child(own, "ilvl")) ?? style?.ilvl ?? linked));
    const level = levels[at];
    if (!level || level.format === "bullet") continue; // bullets stay lists
    const list = counters.get(num.abstractId) ?? [];
    counters.set(num.abstractId, list);
    if (!numsSeen.has(numId!)) {
      numsSeen.add(numId!);
      for (const [l, start] of num.startOverrides) list[l] = start - 1;
    }
    list[at] = list[at] === undefined ? level.start : list[at]! + 1;
    list.fill(undefined, at + 1);
    const label = level.text.replace(/%([1-9])/g, (_, n: string) => {
      const l = Number(n) - 1;
      const value = list[l] ?? levels[l]?.start ?? 1;
      return formatNumber(value, level.legal ? "decimal" : (levels[l]?.format ?? "decimal"));
    });
    setNumberingOff(doc, p, pPr);
    if (label) p.insertBefore(run(doc, p, label + (level.suffix === "nothing" ? "" : " ")), child(p, "pPr")!.nextSibling);
    changed = true;
  }
  if (!changed) return undefined;
  zip.file("word/document.xml", new XMLSerializer().serializeToString(doc));
  return zip.generateAsync({ type: "uint8array", compression: "STORE" });
}

const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";

interface Level {
  format: string;
  text: string;
  start: number;
  suffix: string;
  legal: boolean;
  /** A style linked to this level: paragraphs of the style are numbered at it. */
  styleId?: string;
}

function readNumbering(doc: Document) {
  const abstracts = new Map<string, Level[]>();
  for (const a of elements(doc, "abstractNum")) {
    const levels: Level[] = [];
    for (const lvl of elements(a, "lvl")) {
      levels[Number(attr(lvl, "ilvl") ?? 0)] = {
        format: attr(child(lvl, "numFmt")) ?? "decimal",
        text: attr(child(lvl, "lvlText")) ?? "",
        start: Number(attr(child(lvl, "start")) ?? 1),
        suffix: attr(child(lvl, "suff")) ?? "tab",
        legal: child(lvl, "isLgl") !== undefined && attr(child(lvl, "isLgl")) !== "0",
        styleId: attr(child(lvl, "pStyle")),
      };
    }
    abstracts.set(attr(a, "abstractNumId") ?? "", levels);
  }
  const nums = new Map<string, { abstractId: string; startOverrides: [number, number][] }>();
  for (const n of elements(doc, "num")) {
    const startOverrides = elements(n, "lvlOverride").flatMap((o): [number, number][] => {
      const start = attr(child(o, "startOverride"));
      return start === undefined ? [] : [[Number(attr(o, "ilvl") ?? 0), Number(start)]];
    });
    nums.set(attr(n, "numId") ?? "", { abstractId: attr(child(n, "abstractNumId")) ?? "", startOverrides });
  }
  return { abstracts, nums };
}

/** Numbering given by paragraph styles (a numbered heading style), through their `basedOn` chains. */
function readStyles(doc: Document) {
  const raw = new Map<string, Element>();
  for (const s of elements(doc, "style")) if (attr(s, "type") === "paragraph") raw.set(attr(s, "styleId") ?? "", s);
  const styles = new Map<string, { numId?: string; ilvl?: string }>();
  for (const id of raw.keys()) {
    let numId: string | undefined;
    let ilvl: string | undefined;
    let s = raw.get(id);
    for (let depth = 0; s && depth < 10 && numId === undefined; depth++) {
      const numPr = child(child(s, "pPr"), "numPr");
      numId = attr(child(numPr, "numId"));
      ilvl ??= attr(child(numPr, "ilvl"));
      s = raw.get(attr(child(s, "basedOn")) ?? "");
    }
    if (numId !== undefined) styles.set(id, { numId, ilvl });
  }
  return styles;
}

/** `numId` 0 with level 0: no numbering, whatever the style says (mammoth then reads a plain paragraph). */
function setNumberingOff(doc: Document, p: Element, pPr: Element | undefined) {
  const props = pPr ?? p.insertBefore(doc.createElementNS(W, name(p, "pPr")), p.firstChild);
  const old = child(props, "numPr");
  if (old) props.removeChild(old);
  const numPr = doc.createElementNS(W, name(p, "numPr"));
  for (const [tag, value] of [
    ["ilvl", "0"],
    ["numId", "0"],
  ]) {
    const e = doc.createElementNS(W, name(p, tag));
    e.setAttributeNS(W, name(p, "val"), value);
    numPr.appendChild(e);
  }
  // The schema puts numPr right after pStyle (keepNext and the like may come between; mammoth does not mind).
  const style = child(props, "pStyle");
  props.insertBefore(numPr, style ? style.nextSibling : props.firstChild);
}

/** Inside `mc:Choice`, the newer-Word copy of content that `mc:Fallback` repeats. */
function inChoice(p: Element): boolean {
  for (let e = p.parentNode; e; e = e.parentNode) if ((e as Element).localName === "Choice") return true;
  return false;
}

function run(doc: Document, p: Element, text: string): Element {
  const r = doc.createElementNS(W, name(p, "r"));
  const t = doc.createElementNS(W, name(p, "t"));
  t.setAttributeNS("http://www.w3.org/XML/1998/namespace", "xml:space", "preserve");
  t.appendChild(doc.createTextNode(text));
  r.appendChild(t);
  return r;
}

const CHINESE_DIGITS = "零一二三四五六七八九";
const CHINESE_UNITS = ["", "十", "百", "千"];
const HEAVENLY_STEMS = "甲乙丙丁戊己庚辛壬癸";

/** A counter in one of Word's number formats; formats not listed here are written in decimal. */
export function formatNumber(n: number, format: string): string {
  switch (format) {
    case "chineseCounting":
    case "chineseCountingThousand":
    case "japaneseCounting":
      return chinese(n);
    case "ideographTraditional":
      return n >= 1 && n <= 10 ? HEAVENLY_STEMS[n - 1] : String(n);
    case "upperLetter":
      return letters(n).toUpperCase();
    case "lowerLetter":
      return letters(n);
    case "upperRoman":
      return roman(n);
    case "lowerRoman":
      return roman(n).toLowerCase();
    case "decimalEnclosedCircle":
    case "decimalEnclosedCircleChinese":
      return n >= 1 && n <= 20 ? String.fromCodePoint(0x2460 + n - 1) : String(n);
    case "decimalEnclosedParen":
      return n >= 1 && n <= 20 ? String.fromCodePoint(0x2474 + n - 1) : String(n);
    case "decimalFullWidth":
      return String(n).replace(/\d/g, (d) => String.fromCodePoint(0xff10 + Number(d)));
    case "decimalZero":
      return String(n).padStart(2, "0");
    case "none":
      return "";
    default:
      return String(n);
  }
}

/** 一 … 十, 十一, 二十, 一百零一, 一千零一十, 一万零五: the counting Word's chineseCounting writes. */
function chinese(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n >= 100_000_000) return String(n);
  if (n === 0) return "零";
  const below = (m: number): string => {
    let s = "";
    let zero = false;
    for (let pos = 3; pos >= 0; pos--) {
      const d = Math.floor(m / 10 ** pos) % 10;
      if (d === 0) {
        zero = s !== "";
        continue;
      }
      if (zero) s += "零";
      zero = false;
      s += CHINESE_DIGITS[d] + CHINESE_UNITS[pos];
    }
    return s;
  };
  const high = Math.floor(n / 10_000);
  const low = n % 10_000;
  const rest = low && low < 1000 ? `零${below(low)}` : below(low); // 一万零五
  const s = high ? `${below(high)}万${rest}` : below(low);
  return s.startsWith("一十") ? s.slice(1) : s; // 十一, not 一十一
}

/** A, B, … Z, AA, BB: Word repeats the letter past Z. */
function letters(n: number): string {
  if (n < 1) return String(n);
  return String.fromCharCode(97 + ((n - 1) % 26)).repeat(Math.floor((n - 1) / 26) + 1);
}

function roman(n: number): string {
  if (n < 1 || n >= 4000) return String(n);
  let s = "";
  for (const [v, r] of [
    [1000, "M"],
    [900, "CM"],
    [500, "D"],
    [400, "CD"],
    [100, "C"],
    [90, "XC"],
    [50, "L"],
    [40, "XL"],
    [10, "X"],
    [9, "IX"],
    [5, "V"],
    [4, "IV"],
    [1, "I"],
  ] as const)
    for (; n >= v; n -= v) s += r;
  return s;
}

function parse(xml: string): Document {
  return new DOMParser().parseFromString(xml, "text/xml") as unknown as Document;
}

function elements(root: Document | Element, local: string): Element[] {
  return Array.from(root.getElementsByTagNameNS(W, local));
}

function child(e: Element | undefined, local: string): Element | undefined {
  if (!e) return undefined;
  for (let c = e.firstChild; c; c = c.nextSibling)
    if (c.nodeType === 1 && (c as Element).localName === local && (c as Element).namespaceURI === W) return c as Element;
  return undefined;
}

/** A `w:` attribute (`w:val` by default). */
function attr(e: Element | undefined, local = "val"): string | undefined {
  return e?.hasAttributeNS(W, local) ? e.getAttributeNS(W, local)! : undefined;
}

/** A `w:` name with the prefix the document uses (almost always `w`). */
function name(p: Element, local: string): string {
  return p.prefix ? `${p.prefix}:${local}` : local;
}
