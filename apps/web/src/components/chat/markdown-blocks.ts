/**
 * A reply's Markdown cut into its top-level blocks, each parsed on its own (markdown.tsx): a
 * streamed piece changes only the last block, so only that one is parsed and rendered again, not
 * the whole reply (60 KB took a quarter of a second in Chromium, on every piece).
 *
 * A cut is made only where CommonMark itself ends every open block: at a blank line followed by a
 * line at the left margin that continues nothing. Not before a list item (it may continue the list
 * above), not inside a fenced code block or an HTML block that blank lines do not end, not while an
 * HTML element is open (rehype-raw builds one tree of the HTML of the whole text), and nowhere when
 * the text defines a link reference or footnote (`[x]: …`, `[^1]: …`), whose uses may be in any block.
 * The blocks joined are the text, each keeps the blank lines after it: a block once followed by
 * another never changes as the text grows. Short blocks go together up to `least` characters: each
 * parse has its own cost (about a quarter of a millisecond), which a thousand one-line paragraphs
 * would pay a thousand times.
 */
export function markdownBlocks(text: string, least = LEAST_BLOCK): string[] {
  if (DEFINITION.test(text)) return [text];
  const blocks: string[] = [];
  let start = 0;
  let fence: { char: string; length: number } | null = null;
  let html: RegExp | null = null;
  let elements = 0;
  let blank = false;
  for (let at = 0; at < text.length; ) {
    const end = text.indexOf("\n", at);
    const next = end < 0 ? text.length : end + 1;
    const line = text.slice(at, end < 0 ? text.length : end);
    if (fence) {
      const close = /^ {0,3}(`{3,}|~{3,})[ \t]*\r?$/.exec(line);
      if (close?.[1] && close[1][0] === fence.char && close[1].length >= fence.length) fence = null;
      at = next;
      continue;
    }
    if (html) {
      if (html.test(line)) html = null;
      at = next;
      continue;
    }
    if (!line.trim()) {
      blank = true;
      at = next;
      continue;
    }
    if (blank && elements === 0 && at - start >= Math.max(1, least) && /^[^\s]/.test(line) && !LIST_ITEM.test(line)) {
      blocks.push(text.slice(start, at));
      start = at;
    }
    blank = false;
    const opening = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    // A backtick fence's info string has no backtick (else it is code in the line).
    if (opening?.[1] && !(opening[1][0] === "`" && opening[2]?.includes("`"))) {
      fence = { char: opening[1][0] ?? "`", length: opening[1].length };
    } else {
      const block = htmlBlockEnd(line.trimStart());
      if (block && !block.test(line)) html = block;
    }
    elements = Math.max(0, elements + openedElements(line));
    at = next;
  }
  if (start < text.length || !blocks.length) blocks.push(text.slice(start));
  return blocks;
}

/** Characters a block has at least (its last block aside): one parse of a table or a few paragraphs. */
export const LEAST_BLOCK = 1000;

/** A link reference or footnote definition: `[label]: destination` at up to three spaces in (also inside quotes and lists). */
const DEFINITION = /^[ \t>]*(?:[-*+]|\d{1,9}[.)])?[ \t]*\[[^\]\n]+\]:/m;
/** A line starting a list item: it may continue the list before the blank line. */
const LIST_ITEM = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]|\r?$)/;

/** HTML blocks that a blank line does not end, and what ends each (CommonMark's kinds 1 to 5). */
function htmlBlockEnd(rest: string): RegExp | null {
  if (/^<(?:script|pre|style|textarea)(?:\s|>|$)/i.test(rest)) return /<\/(?:script|pre|style|textarea)>/i;
  if (rest.startsWith("<!--")) return /-->/;
  if (rest.startsWith("<?")) return /\?>/;
  if (rest.startsWith("<![CDATA[")) return /\]\]>/;
  if (/^<![A-Za-z]/.test(rest)) return />/;
  return null;
}

/** Elements without content, or closed by the next of their kind: they leave nothing open. */
const VOID = new Set("area base br col embed hr img input link meta source track wbr p li dt dd tr td th option".split(" "));

/** HTML elements a line opens, less those it closes (code spans left out: their text is not HTML). */
function openedElements(line: string): number {
  if (!line.includes("<")) return 0;
  let n = 0;
  const text = line.replace(/(`+)[^`]*?\1/g, " ");
  for (const [, closing, name, selfClosing] of text.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9-]*)(?:\s[^<>]*?)?(\/?)>/g)) {
    if (VOID.has(name?.toLowerCase() ?? "") || selfClosing) continue;
    n += closing ? -1 : 1;
  }
  return n;
}
