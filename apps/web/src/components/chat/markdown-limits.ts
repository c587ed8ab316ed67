/**
 * What the Markdown parser is given. Size and deep nesting are what cost it: a few thousand nested
 * `<div>`, `> ` or emphases overflow the stack, the nested list or quote markers of one line take
 * time in the square of their number (200: 0.2 s; 1 000: 2.5 s), every line inside such a nest
 * pays for each level again, and each emphasis that closes none walks back over its whole paragraph.
 * A text past these limits shows as its raw text (raw-text.tsx): no reply a person reads nests a
 * hundred levels deep. What slips past them and still fails to render shows so too (markdown.tsx's boundary).
 *
 * The counts are upper bounds, cheaper than the parse itself: a block the parser does not see (a
 * fence inside a list, say) is counted as text, never the other way round.
 */
export const MAX_MARKDOWN_LENGTH = 100_000;
/** Levels of nested HTML elements, of the blocks (quotes, lists) a line is in, of a paragraph's brackets. */
export const MAX_MARKDOWN_NESTING = 100;
/** Emphasis marks (`*`, `_`, `~`) of a paragraph that may open and are not closed yet. */
export const MAX_OPEN_EMPHASIS = 200;
/**
 * The sum, over the lines, of the square of the blocks a line may be in: the parser's work for the
 * nesting (100 000: about a quarter of a second at worst in the tests' jsdom). A thousand lines
 * each five levels deep cost 25 000.
 */
export const MARKDOWN_NESTING_BUDGET = 100_000;
/**
 * The characters emphasis marks walk back over to find their opening (all of their paragraph for
 * one that closes none): 10 000 000 is about a third of a second.
 */
export const EMPHASIS_WALK_BUDGET = 10_000_000;

/** HTML elements without content, or closed by the next of their kind (a `<p>` in a `<p>`): they open no level. */
const FLAT = new Set(
  "area base br col embed hr img input link meta source track wbr p li dt dd option optgroup tr td th thead tbody tfoot caption colgroup rb rt rtc rp".split(
    " ",
  ),
);

/** A line's block markers (`>`, `-`, `*`, `+`, `1.`, `1)`), the columns of blanks around them, its widest gap. */
function linePrefix(line: string) {
  let markers = 0;
  let blanks = 0;
  let gap = 0;
  let widest = 0;
  let opensBlock = false;
  let i = 0;
  for (;;) {
    const c = line[i];
    if (c === " " || c === "\t") {
      const width = c === "\t" ? 4 : 1;
      blanks += width;
      gap += width;
      widest = Math.max(widest, gap);
      i += 1;
      continue;
    }
    gap = 0;
    if (c === ">") markers += 1;
    else if ((c === "-" || c === "*" || c === "+") && /[ \t]/.test(line[i + 1] ?? "")) {
      markers += 1;
      opensBlock = true;
    } else {
      const ordered = /^(\d{1,9})[.)](?=[ \t]|$)/.exec(line.slice(i, i + 11));
      if (!ordered) break;
      markers += 1;
      // Only a list starting at 1 interrupts a paragraph: `2. ` may be the text of the one above.
      if (ordered[1] === "1") opensBlock = true;
      i += ordered[0].length;
      continue;
    }
    i += 1;
  }
  const rest = line.slice(i);
  // An item or heading with no wide gap before it starts a block (and a paragraph) of its own.
  return { markers, blanks, rest, newParagraph: widest <= 3 && (opensBlock || /^#{1,6}(?:[ \t]|$)/.test(rest)) };
}

const isSpace = (c: string | undefined) => c === undefined || /\s/.test(c);
const isPunctuation = (c: string | undefined) => c !== undefined && /[\p{P}\p{S}]/u.test(c);

/** The emphasis marks of a paragraph: those waiting to be closed, and how far the closing ones walked back. */
class Emphasis {
  /** Per mark, the runs that may open: where each is, how many of its marks are left. */
  private open: Record<string, { at: number; left: number }[]> = {};
  private offset = 0;
  /** Marks waiting to be closed: each run of n opens up to n levels (`***…` nests as deep as it is long). */
  private waiting = 0;
  /** The most marks waiting at once: how deep the paragraph's emphases may nest. */
  peak = 0;
  walked = 0;

  /** The marks of a line of the paragraph (code spans left out). */
  line(text: string) {
    for (const run of text.matchAll(/\*+|_+|~+/g)) {
      const mark = run[0][0] ?? "*";
      const at = run.index;
      const before = text[at - 1];
      const after = text[at + run[0].length];
      // CommonMark's flanking rules: whether a run may open, may close emphasis.
      const left = !isSpace(after) && (!isPunctuation(after) || isSpace(before) || isPunctuation(before));
      const right = !isSpace(before) && (!isPunctuation(before) || isSpace(after) || isPunctuation(after));
      const canOpen = mark === "_" ? left && (!right || isPunctuation(before)) : left;
      const canClose = mark === "_" ? right && (!left || isPunctuation(after)) : right;
      const position = this.offset + at;
      const stack = this.open[mark] ?? [];
      this.open[mark] = stack;
      let marks = run[0].length;
      if (canClose) {
        // Back to its opener, or over the whole paragraph when it has none.
        this.walked += position - (stack.at(-1)?.at ?? 0);
        for (let opener = stack.at(-1); opener && marks > 0; opener = stack.at(-1)) {
          const used = Math.min(opener.left, marks);
          opener.left -= used;
          marks -= used;
          this.waiting -= used;
          if (!opener.left) stack.pop();
        }
      }
      if (canOpen && marks > 0) {
        stack.push({ at: position, left: marks });
        this.waiting += marks;
        this.peak = Math.max(this.peak, this.waiting);
      }
    }
    this.offset += text.length + 1;
  }
}

/** A line without its code spans (on that line): their text is not Markdown. */
const withoutCodeSpans = (text: string) => text.replace(/(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)/g, " ");

/** Where an HTML block starts (it shows its lines as they are) and what ends it: a blank line, or its end mark. */
function htmlBlock(rest: string): RegExp | "blank" | null {
  if (/^<(?:script|pre|style|textarea)(?:\s|>|$)/i.test(rest)) return /<\/(?:script|pre|style|textarea)>/i;
  if (rest.startsWith("<!--")) return /-->/;
  if (rest.startsWith("<?")) return /\?>/;
  if (rest.startsWith("<![CDATA[")) return /\]\]>/;
  if (/^<![A-Za-z]/.test(rest)) return />/;
  if (/^<\/?[A-Za-z]/.test(rest)) return "blank";
  return null;
}

/** Whether a text is small and shallow enough to be parsed as Markdown (else it shows as plain text). */
export function fitsMarkdown(text: string): boolean {
  if (text.length > MAX_MARKDOWN_LENGTH) return false;
  let cost = 0;
  // Upper bounds of the blocks open after the line before, and of those a line without markers
  // of its own may continue lazily (a paragraph's next line stays in all its quotes and lists).
  let open = 0;
  let lazy = 0;
  let brackets = 0;
  let emphasis = new Emphasis();
  let walked = 0;
  let elements = 0;
  // A fenced code block at the left margin (its lines are not Markdown), an HTML block, the line before.
  let fence: string | null = null;
  let html: RegExp | "blank" | null = null;
  let previous = "";
  const endParagraph = () => {
    walked += emphasis.walked;
    emphasis = new Emphasis();
    brackets = 0;
  };
  for (const line of text.split("\n")) {
    if (fence) {
      if (line.trimStart().startsWith(fence)) fence = null;
      continue;
    }
    const { markers, blanks, rest, newParagraph } = linePrefix(line);
    if (!rest.trim()) {
      // A blank line ends paragraphs (and HTML blocks of tags), not lists: each open one is checked again.
      lazy = 0;
      cost += open * open;
      endParagraph();
      if (html === "blank") html = null;
      previous = "";
      continue;
    }
    // The blocks a line is in: one per marker, at most one per two columns of indentation (a
    // list item's content is indented at least that far), or those of the paragraph it continues.
    const own = markers + Math.floor(blanks / 2);
    const depth = Math.max(markers ? own : Math.min(own, open), lazy);
    if (depth > MAX_MARKDOWN_NESTING) return false;
    open = depth;
    lazy = depth;
    cost += depth * depth;
    if (cost > MARKDOWN_NESTING_BUDGET) return false;

    // A fence the parser surely sees as one: at the margin, outside HTML, not a link definition's address.
    const opening = /^(`{3,})[^`]*$|^(~{3,})/.exec(rest);
    if (opening && !markers && !blanks && !html && !/\]:\s*$/.test(previous)) {
      fence = opening[1] ?? opening[2] ?? "```";
      endParagraph();
      continue;
    }
    if (html === null) html = htmlBlock(rest);
    if (html instanceof RegExp && html.test(rest)) html = null;
    previous = line;

    if (newParagraph) endParagraph();
    const markdown = withoutCodeSpans(rest);
    for (const c of markdown) {
      if (c === "[") brackets += 1;
      else if (c === "]") brackets = Math.max(0, brackets - 1);
      if (brackets > MAX_MARKDOWN_NESTING) return false;
    }
    emphasis.line(markdown);
    if (emphasis.peak > MAX_OPEN_EMPHASIS || walked + emphasis.walked > EMPHASIS_WALK_BUDGET) return false;
    // HTML elements, opened and closed anywhere in the text (parse5 builds one tree of them).
    for (const [, closing, name, selfClosing] of markdown.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9-]*)(?:\s[^<>]*?)?(\/?)>/g)) {
      if (closing) elements = Math.max(0, elements - 1);
      else if (!selfClosing && !FLAT.has(name?.toLowerCase() ?? "")) elements += 1;
      if (elements > MAX_MARKDOWN_NESTING) return false;
    }
  }
  return true;
}
