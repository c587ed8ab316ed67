import type { NormalizedCleaning } from "./options.ts";
import type { Block, ParsedDocument } from "./types.ts";

const URL = /\b(?:https?|ftp):\/\/[^\s<>"'，。；、）」》]+|\bwww\.[a-z0-9-]+(?:\.[a-z0-9-]+)+[^\s<>"'，。；、）」》]*/gi;
const EMAIL = /\b[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+\b/gi;

/** The user's cleaning rules applied to every text of the document (before chunking, so budgets see the result). */
export function cleanDocument(doc: ParsedDocument, rules: NormalizedCleaning): ParsedDocument {
  if (!rules.collapseWhitespace && !rules.dropUrls && !rules.dropEmails && rules.replace.length === 0) return doc;
  const blocks: Block[] = [];
  for (const block of doc.blocks) {
    if (block.kind === "table") {
      blocks.push({
        ...block,
        header: block.header.map((h) => cleanText(h, rules)),
        rows: block.rows.map((r) => r.map((c) => cleanText(c, rules))),
      });
    } else if (block.kind === "heading" || block.kind === "paragraph" || block.kind === "ocr") {
      const text = cleanText(block.text, rules);
      if (text) blocks.push({ ...block, text });
    } else blocks.push(block);
  }
  return { ...doc, blocks };
}

export function cleanText(text: string, rules: NormalizedCleaning): string {
  let out = text;
  // Order: e-mails before URLs (a URL pattern would eat "www.x.com" inside an address).
  if (rules.dropEmails) out = out.replace(EMAIL, "");
  if (rules.dropUrls) out = out.replace(URL, "");
  for (const { pattern, replacement } of rules.replace) out = pattern.matcher(out).replaceAll(replacement);
  if (rules.collapseWhitespace) {
    out = out
      .replace(/[ \t\u00a0\u3000\f\v]+/g, " ")
      .replace(/ *\n */g, "\n")
      .replace(/\n{3,}/g, "\n\n");
  }
  return out.trim();
}
