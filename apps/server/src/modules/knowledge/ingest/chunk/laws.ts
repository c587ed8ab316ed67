import type { NormalizedOptions } from "../options.ts";
import { countTokens } from "../tokens.ts";
import type { ParsedDocument, Segment } from "../types.ts";
import { pack, splitText } from "./pack.ts";
import { blockText, chineseNumber, numbered } from "./text.ts";

const NUM = "[一二三四五六七八九十百千零〇两\\d]+";
/** 编, 章, 节 headings: a short line of their own ("第一章　总　则"), never a sentence. */
const LEVELS: { name: string; level: number; re: RegExp }[] = [
  { name: "编", level: 1, re: new RegExp(`^第(${NUM})编(?:[\\s\\u3000]*(\\S.{0,38}))?$`) },
  { name: "分编", level: 2, re: new RegExp(`^第(${NUM})分编(?:[\\s\\u3000]*(\\S.{0,38}))?$`) },
  { name: "章", level: 3, re: new RegExp(`^第(${NUM})章(?:[\\s\\u3000]*(\\S.{0,38}))?$`) },
  { name: "节", level: 4, re: new RegExp(`^第(${NUM})节(?:[\\s\\u3000]*(\\S.{0,38}))?$`) },
];
/** An article starts a line: "第十条　…" or "第十条之一…". */
const ARTICLE = new RegExp(`^第(${NUM})条(之[一二三四五六七八九十]+)?(?=[\\s\\u3000]|$|\\S)`);
const TOC = /^目[\s\u3000]*录$/;
/** The space after an article's number ("第十条　", "第十条之一　"), written as one ordinary space. */
const ARTICLE_SPACE = /^(第\S+?条(?:之[一二三四五六七八九十]+)?)[\s\u3000]+/;
/** A line ending a sentence, clause or item; any other line ends mid-sentence. */
const SENTENCE_END = /[。；：！？.;:!?”’」』）)]$/;

interface Article {
  path: string[];
  lines: string[];
  label: string;
}

/** A structure heading line's level, or undefined (sentences and cross-references never are headings). */
function headingLevel(line: string): number | undefined {
  if (/[。；，,;]/.test(line)) return undefined;
  return LEVELS.find((l) => l.re.test(line))?.level;
}

/** The text's lines with the 目录 dropped: from "目录" up to the first heading or article that the body repeats. */
export function dropLawToc(lines: string[]): string[] {
  const at = lines.findIndex((l) => TOC.test(l));
  if (at < 0) return lines;
  const squash = (l: string) => l.replace(/[\s\u3000.．…·]+\d*$/g, "").replace(/[\s\u3000]+/g, "");
  const entries = new Set<string>();
  for (let i = at + 1; i < lines.length; i++) {
    const key = squash(lines[i]);
    if (entries.has(key) || ARTICLE.test(lines[i])) return [...lines.slice(0, at), ...lines.slice(i)];
    entries.add(key);
  }
  return lines;
}

/**
 * laws: the 目录 dropped; 编/章/节 headings form the path; one chunk per 条 (article) starting with its path
 * (`第一章 总则\n第一条 …`), items （一）(二) staying in their article. An article over the budget is split at its
 * items, then sentences; each further part starts with the path and "第N条（续）". Text before the first article
 * (a preamble) is its own chunk (packed to the budget when long); the law's name (a heading that is not 编/章/节, or a lone first line) leads every title
 * instead. A line starting "第十条…" is an article only if its number follows the previous article's (or a
 * space follows it), and never when it directly continues a line ending mid-sentence, so a wrapped
 * cross-reference ("…依照\n第十条规定的…") stays text.
 */
export function chunkLaws(doc: ParsedDocument, opts: NormalizedOptions): Segment[] {
  // Heading blocks (a markdown "# …", a docx title style) that are not 编/章/节 name the law, not a chunk of it.
  const titles = new Set<string>();
  const raw = doc.blocks.flatMap((b) => {
    const text = blockText(b);
    if (b.kind === "heading") {
      const line = text.replace(/\s+/g, " ").trim();
      if (!headingLevel(line) && !ARTICLE.test(line)) titles.add(line);
    }
    return text.split("\n");
  });
  const lines = dropLawToc(raw.map((l) => l.trim()).filter(Boolean));
  const path: { level: number; text: string }[] = [];
  const preamble: string[] = [];
  const articles: Article[] = [];
  const lawTitle: string[] = [];
  let last = 0;
  /** The line before ends mid-sentence ("…依照"): a "第十条规定…" right after it is that sentence wrapped. */
  let open = false;
  for (const line of lines) {
    if (titles.has(line)) {
      // Before the first article it is the law's name; later (附件, 附录) a line of the article it follows.
      if (!articles.length) lawTitle.push(line);
      else articles[articles.length - 1].lines.push(line);
      open = false;
      continue;
    }
    const level = headingLevel(line);
    if (level) {
      while (path.length && path[path.length - 1].level >= level) path.pop();
      path.push({ level, text: headingText(line) });
      open = false;
      continue;
    }
    const m = ARTICLE.exec(line);
    const n = m ? chineseNumber(m[1]) : Number.NaN;
    const spaced = m !== null && /^[\s\u3000]?$/.test(line[m[0].length] ?? "");
    // Only inside an article: before the first one, the line above may be the law's name ("示例条例\n第一条为了…").
    const wrapped = !spaced && open && articles.length > 0;
    const startsArticle = m && !wrapped && (n === last + 1 || (m[2] && n === last) || (n > last && spaced));
    if (startsArticle) {
      last = n;
      articles.push({ path: path.map((p) => p.text), lines: [line.replace(ARTICLE_SPACE, "$1 ")], label: m[0] });
    } else if (articles.length) articles[articles.length - 1].lines.push(line);
    else preamble.push(line);
    open = !SENTENCE_END.test(line);
  }
  // A plain-text law's first line is its name when nothing but that line comes before the first article.
  if (!lawTitle.length && preamble.length === 1 && articles.length && isNameLine(preamble[0])) lawTitle.push(preamble.shift()!);
  const name = lawTitle.join(" ");
  const parts: Omit<Segment, "position" | "tokens">[] = [];
  // A preamble (序言) is packed to the budget like any text: long ones exist, and so does a text whose articles
  // were not found (numbered by Word's list numbering, which is no text).
  const units = preamble.map((text) => ({ text, sep: "\n" }));
  for (const content of pack(units, opts.chunkSize, 0, ["。", "；", "，", " "])) parts.push({ content, ...(name ? { title: name } : {}) });
  // Only the name and no article (a heading over running text): the name leads the text instead of standing alone.
  if (name && !articles.length && !preamble.length) parts.push({ content: name });
  for (const article of articles) {
    // The law's name goes into the title (weighted by keyword search), the content keeps `第一章 总则\n第一条 …`.
    const title = [name, ...article.path].filter(Boolean).join(" > ");
    const prefix = article.path.length ? `${article.path.join("\n")}\n` : "";
    const body = article.lines.join("\n");
    if (countTokens(prefix + body) <= opts.chunkSize) {
      parts.push({ content: prefix + body, ...(title ? { title } : {}) });
      continue;
    }
    // Only an overlong article is split: at its items first, then at sentences.
    const room = Math.max(opts.chunkSize - countTokens(`${prefix}${article.label}（续）\n`), 16);
    const pieces = article.lines.flatMap((l) =>
      splitText(l, room, ["。", "；", "，", " "]).map((text, i) => ({ text, sep: i ? "" : "\n" })),
    );
    const groups: (typeof pieces)[] = [[]];
    let used = 0;
    for (const piece of pieces) {
      const t = countTokens(piece.text);
      if (groups[groups.length - 1].length && used + t > room) {
        groups.push([]);
        used = 0;
      }
      groups[groups.length - 1].push(piece);
      used += t;
    }
    for (const [i, group] of groups.entries()) {
      const text = group.map((p, j) => (j ? p.sep + p.text : p.text)).join("");
      parts.push({ content: i === 0 ? prefix + text : `${prefix}${article.label}（续）\n${text}`, ...(title ? { title } : {}) });
    }
  }
  return numbered(parts);
}

/** A short line without sentence punctuation: a law's name ("中华人民共和国民法典"), not a preamble sentence. */
function isNameLine(line: string) {
  return line.length <= 60 && !/[。；，,;：:]/.test(line);
}

/** "第一章　总　则" → "第一章 总则": one space after the number, none inside the (spaced-out) title. */
function headingText(line: string): string {
  const [, label, title] = /^(第\S+?[编章节])[\s\u3000]*(.*)$/.exec(line) ?? [line, line, ""];
  const tidy = title.replace(/([\u4e00-\u9fa5])[\s\u3000]+(?=[\u4e00-\u9fa5])/g, "$1").trim();
  return tidy ? `${label} ${tidy}` : label;
}
