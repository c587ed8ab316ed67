/**
 * A diagram's own configuration without its styles. Mermaid lets a diagram configure itself, in
 * `%%{init: {…}}%%` directives and in a YAML front matter's `config:`, and its strict security level
 * keeps `themeCSS` and fonts: a reply's diagram could put CSS of its own (a `background:url(…)` that
 * calls a server, a page-wide rule) into the page. Any key naming CSS or a font family goes, wherever
 * it is; the rest of a directive (a theme, a direction) stays. Mermaid's `secure` keys (markdown.tsx)
 * refuse the same keys once parsed; this keeps them from reaching it at all.
 */

// Mermaid 11's own patterns (src/diagram-api/regexes.ts): what it reads as a front matter and as a directive.
const FRONT_MATTER = /^([^\S\n\r]*)-{3}\s*[\n\r](.*?)[\n\r]\1-{3}\s*[\n\r]+/s;
const DIRECTIVE = /%{2}{\s*(?:(\w+)\s*:|(\w+))\s*(?:(\w+)|((?:(?!}%{2}).|\r?\n)*))?\s*(?:}%{2})?/gi;
// What mermaid drops from a text before it looks for directives (src/utils.ts, detectDirective).
const COMMENT_WITHOUT_DIRECTIVE =
  /[%]{2}(?![{]\s*(?:(?:\w+)(?=:):|(?:\w+))\s*(?:(?:\w+)|(?:(?:(?!}%{2}).|\r?\n)*))?\s*(?:}%{2})?)(?=[}][%]{2}).*\n/gi;

const STYLE_KEY = /css|fontfamily/i;

function withoutStyleKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutStyleKeys);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !STYLE_KEY.test(key))
        .map(([key, v]) => [key, withoutStyleKeys(v)]),
    );
  return value;
}

/** A directive's arguments read as mermaid reads them (single quotes as double), without the style keys. */
function directive(
  match: string,
  type: string | undefined,
  bareType: string | undefined,
  word: string | undefined,
  args: string | undefined,
) {
  if (args === undefined || word !== undefined) return match;
  try {
    const parsed = JSON.parse(args.trim().replace(/'/g, '"'));
    // Written back as JSON whose quotes mermaid's reading leaves as they are.
    return `%%{${type ?? bareType}: ${JSON.stringify(withoutStyleKeys(parsed)).replace(/'/g, "\\u0027")}}%%`;
  } catch {
    // Mermaid could not read it either: a blank, so that no new directive forms around it.
    return " ";
  }
}

/**
 * The front matter's top-level `title` and `displayMode` (each with the lines indented below it):
 * its `config` is dropped whole, YAML having too many ways to write a key for one to be found in it.
 */
function frontMatter(indent: string, body: string) {
  const kept: string[] = [];
  let keeping = false;
  for (const raw of body.split(/\r?\n|\r/)) {
    const line = indent && raw.startsWith(indent) ? raw.slice(indent.length) : raw;
    if (/^\S/.test(line)) keeping = /^(?:title|displayMode)\s*:/.test(line);
    if (keeping) kept.push(line);
  }
  return kept.length ? `---\n${kept.join("\n")}\n---\n` : "";
}

function once(code: string) {
  // As mermaid first does (src/preprocess.ts, cleanupText): its line ends, then quoted attributes.
  let text = code
    .replace(/\r\n?/g, "\n")
    .replace(/<(\w+)([^>]*)>/g, (_, tag: string, attrs: string) => `<${tag}${attrs.replace(/="([^"]*)"/g, "='$1'")}>`);
  const front = FRONT_MATTER.exec(text);
  if (front) text = frontMatter(front[1] ?? "", front[2] ?? "") + text.slice(front[0].length);
  return text.replace(COMMENT_WITHOUT_DIRECTIVE, "").replace(DIRECTIVE, directive);
}

/** The diagram's code with no CSS or font family in its directives and no `config` in its front matter. */
export function withoutDiagramStyles(code: string): string {
  let text = code;
  for (let round = 0; round < 5; round++) {
    const next = once(text);
    if (next === text) return text;
    text = next;
  }
  // Still changing: something built to slip through; mermaid does not get it.
  throw new Error("mermaid directives could not be cleaned");
}
