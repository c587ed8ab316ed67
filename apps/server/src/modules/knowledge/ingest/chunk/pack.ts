import { countTokens } from "../tokens.ts";

/** A piece of text that packing never cuts inside (unless it alone exceeds the budget). */
export interface Unit {
  text: string;
  /** What joins it to the unit before it in the same chunk: "" inside a paragraph, "\n" between blocks. */
  sep: string;
  /** A heading: never left alone at the end of a chunk. */
  heading?: boolean;
  /** For a table row: the table's header line, repeated when a chunk starts inside the table. */
  tableHeader?: string;
  tokens?: number;
}

const tokensOf = (u: Unit) => {
  u.tokens ??= countTokens(u.text);
  return u.tokens;
};

/**
 * Splits a text at the delimiters (the first one that occurs, recursively), keeping each delimiter at the end of
 * the piece before it, until every piece fits the budget; a piece with no delimiter left is cut by characters.
 */
export function splitText(text: string, budget: number, delimiters: string[]): string[] {
  if (countTokens(text) <= budget) return [text];
  for (const [i, d] of delimiters.entries()) {
    if (!text.includes(d)) continue;
    const pieces = text
      .split(d)
      .map((p, j, all) => (j < all.length - 1 ? p + d : p))
      .filter((p) => p.length);
    if (pieces.length < 2) continue;
    return pieces.flatMap((p) => splitText(p, budget, delimiters.slice(i)));
  }
  return cutByTokens(text, budget);
}

/** Cuts a text without delimiters into pieces of at most `budget` tokens, at character boundaries. */
function cutByTokens(text: string, budget: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest) {
    const total = countTokens(rest);
    if (total <= budget) {
      out.push(rest);
      break;
    }
    let end = Math.max(1, Math.floor((rest.length * budget) / total));
    while (end > 1 && countTokens(rest.slice(0, end)) > budget) end = Math.floor(end * 0.9);
    // Never split a surrogate pair.
    if (/[\uD800-\uDBFF]/.test(rest[end - 1] ?? "")) end++;
    out.push(rest.slice(0, end));
    rest = rest.slice(end);
  }
  return out;
}

/** Splits each unit that exceeds the budget into sentence-sized units. */
export function fitUnits(units: Unit[], budget: number, delimiters: string[]): Unit[] {
  return units.flatMap((u) => {
    if (tokensOf(u) <= budget) return [u];
    return splitText(u.text, budget, delimiters).map((text, i) => ({ ...u, text, sep: i === 0 ? u.sep : "", tokens: undefined }));
  });
}

const join = (units: Unit[]) => units.map((u, i) => (i === 0 ? u.text : u.sep + u.text)).join("");
const size = (units: Unit[]) => units.reduce((n, u) => n + tokensOf(u) + 1, 0);

/**
 * Greedy packing of units into chunks of at most `budget` tokens. Each new chunk starts with up to `overlap`
 * tokens of whole units from the end of the one before; a chunk never ends with a heading (it moves on to the
 * next chunk); a chunk that holds rows of a table holds the table's header line before them.
 */
export function pack(input: Unit[], budget: number, overlap: number, delimiters: string[]): string[] {
  const units = fitUnits(input, budget, delimiters);
  const chunks: string[] = [];
  let current: Unit[] = [];
  /** Units of `current` that are new (the others are overlap from the chunk before). */
  let fresh = 0;
  const close = () => {
    const carry: Unit[] = [];
    while (fresh - carry.length > 1 && current.at(-1)?.heading) carry.unshift(current.pop()!);
    fresh -= carry.length;
    if (!current.slice(current.length - fresh).some((u) => !u.heading)) {
      current.push(...carry.splice(0));
    }
    chunks.push(join(current));
    const tail: Unit[] = [];
    for (let i = current.length - 1; i > 0 && overlap > 0; i--) {
      if (current[i].heading || current[i].tableHeader) break;
      if (size([...tail, current[i]]) > overlap) {
        // A line too long to repeat whole: repeat its last sentences.
        if (tail.length === 0) tail.push(...lastSentences(current[i], overlap, delimiters));
        break;
      }
      tail.unshift(current[i]);
    }
    current = [...tail, ...carry];
    fresh = carry.length;
  };
  for (const unit of units) {
    const header = (): Unit[] =>
      unit.tableHeader && unit.text !== unit.tableHeader && !current.some((u) => u.text === unit.tableHeader)
        ? [{ text: unit.tableHeader, sep: "\n", heading: true }]
        : [];
    let adding = [...header(), unit];
    if (fresh > 0 && size(current) + size(adding) > budget) {
      close();
      adding = [...header(), unit];
    }
    // Overlap gives way to new text when both do not fit.
    while (current.length > fresh && size(current) + size(adding) > budget) current.shift();
    current.push(...adding);
    fresh += adding.length;
  }
  if (fresh > 0) chunks.push(join(current));
  return chunks.map((c) => c.trim()).filter(Boolean);
}

/** The trailing sentences of a unit that fit in `budget` tokens, as one unit (none when even the last one is too long). */
function lastSentences(unit: Unit, budget: number, delimiters: string[]): Unit[] {
  const marks = delimiters.filter((d) => d.trim());
  if (marks.length === 0) return [];
  const escaped = marks.map((d) => d.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  const sentences = unit.text.split(new RegExp(`(?<=${escaped})`)).filter((s) => s.length);
  let text = "";
  for (let i = sentences.length - 1; i > 0; i--) {
    const next = sentences[i] + text;
    if (countTokens(next) + 1 > budget) break;
    text = next;
  }
  return text.trim() ? [{ text: text.trim(), sep: unit.sep }] : [];
}
