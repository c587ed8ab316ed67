import { parse } from "csv-parse/sync";
import { IngestError, type ParsedDocument } from "../types.ts";
import { decodeText, MAX_CELLS } from "./limits.ts";
import { tableFromRows } from "./table.ts";

/** A CSV (comma, semicolon or tab separated; encodings as `decodeText` reads them) as one table whose first row is the header. */
export function parseCsv(data: Uint8Array): ParsedDocument {
  const text = decodeText(data);
  let rows: string[][];
  try {
    rows = parse(text, { delimiter: sniffDelimiter(text), relax_column_count: true, relax_quotes: true, skip_empty_lines: true });
  } catch (e) {
    throw new IngestError("unreadable", `the CSV file could not be read: ${(e as Error).message}`);
  }
  if (rows.reduce((n, r) => n + r.length, 0) > MAX_CELLS) throw new IngestError("tooLarge", "the CSV file has too many cells");
  const table = tableFromRows(rows);
  return { format: "csv", blocks: table ? [table] : [], pages: 1, ocrPages: [] };
}

/** The separator that splits the first lines most consistently. */
export function sniffDelimiter(text: string): string {
  const lines = text.split("\n", 5).filter((l) => l.trim());
  let best = ",";
  let bestScore = 0;
  for (const d of [",", "\t", ";", "|"]) {
    const counts = lines.map((l) => l.split(d).length - 1);
    const min = Math.min(...counts);
    const score = min > 0 && counts.every((c) => c === counts[0]) ? min + 100 : min;
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}
