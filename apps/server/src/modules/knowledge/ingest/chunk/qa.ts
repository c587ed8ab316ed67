import type { Block, ParsedDocument, Segment } from "../types.ts";
import { sections } from "./sections.ts";
import { blockText, numbered, type Table } from "./text.ts";

type Pair = { question: string; answer: string };

const QUESTION_HEADER = /^(问题?|提问|问句|question|q)$/i;
const ANSWER_HEADER = /^(答案?|回答|答复|解答|answer|a)$/i;
const QA_LINE = /^\s*(?:问|问题|Q|Question)\s*[:：.、]\s*(.*)$/i;
const ANSWER_LINE = /^\s*(?:答|答案|A|Answer)\s*[:：.、]\s*(.*)$/i;

/**
 * qa: question/answer pairs. Tables (xlsx, csv, tables in documents): the columns named question/answer (问题/答案),
 * else the first two columns; a first row that is not named so is a pair too. Text: "问：/答：" (Q:/A:) lines, or
 * one pair per line split at the first tab (else the first comma); a document's tables and text both count.
 * Documents with headings: each heading is a question and the text under it the answer.
 */
export function chunkQa(doc: ParsedDocument): Segment[] {
  const tables = doc.blocks.filter((b): b is Table => b.kind === "table");
  const textBlocks = doc.blocks.filter((b) => b.kind === "paragraph" || b.kind === "ocr");
  let pairs: Pair[];
  if (doc.blocks.some((b) => b.kind === "heading")) pairs = headingPairs(doc.blocks);
  else pairs = [...tables.flatMap(tablePairs), ...textPairs(textBlocks.map(blockText).join("\n"))];
  return numbered(pairs.map(({ question, answer }) => ({ content: `${question}\n${answer}`, question, answer })));
}

function tablePairs(table: Table): Pair[] {
  let q = table.header.findIndex((h) => QUESTION_HEADER.test(h.trim()));
  let a = table.header.findIndex((h) => ANSWER_HEADER.test(h.trim()));
  const named = q >= 0 && a >= 0;
  if (!named) {
    q = 0;
    a = 1;
  }
  const rows = named ? table.rows : [table.header, ...table.rows];
  return rows.map((r) => ({ question: (r[q] ?? "").trim(), answer: (r[a] ?? "").trim() })).filter((p) => p.question && p.answer);
}

function headingPairs(blocks: Block[]): Pair[] {
  return sections(blocks)
    .filter((s) => s.path.length)
    .map((s) => ({ question: s.path.at(-1)!.trim(), answer: s.blocks.map(blockText).join("\n").trim() }))
    .filter((p) => p.question && p.answer);
}

function textPairs(text: string): Pair[] {
  const lines = text.split("\n").filter((l) => l.trim());
  if (lines.some((l) => QA_LINE.test(l))) {
    const pairs: Pair[] = [];
    let pair: Pair | undefined;
    let inAnswer = false;
    for (const line of lines) {
      const q = QA_LINE.exec(line);
      const a = ANSWER_LINE.exec(line);
      if (q) {
        pair = { question: q[1].trim(), answer: "" };
        pairs.push(pair);
        inAnswer = false;
      } else if (a && pair) {
        pair.answer = a[1].trim();
        inAnswer = true;
      } else if (pair) {
        if (inAnswer) pair.answer += `\n${line.trim()}`;
        else pair.question += line.trim();
      }
    }
    return pairs.filter((p) => p.question && p.answer);
  }
  const tabs = lines.filter((l) => l.includes("\t")).length;
  const separator = tabs >= lines.length / 2 ? "\t" : ",";
  const pairs: Pair[] = [];
  for (const line of lines) {
    const at = line.indexOf(separator);
    if (at > 0) pairs.push({ question: line.slice(0, at).trim(), answer: line.slice(at + 1).trim() });
    else if (pairs.length) pairs[pairs.length - 1].answer += `\n${line.trim()}`;
  }
  return pairs.filter((p) => p.question && p.answer);
}
