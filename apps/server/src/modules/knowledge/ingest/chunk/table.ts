import { IngestError, type ParsedDocument, type Segment } from "../types.ts";
import { numbered, type Table } from "./text.ts";

export type ColumnType = "int" | "float" | "date" | "bool" | "text";

/** Columns that only number the rows: they carry no knowledge and would match every query for "1". */
const INDEX_COLUMN = /^(id|_id|idx|index|no\.?|#|序号|行号|row)$/i;
const BOOL = /^(true|false|yes|no|y|n|是|否|对|错)$/i;
const INT = /^[-+]?\d{1,3}(,\d{3})+$|^[-+]?\d+$/;
const FLOAT = /^[-+]?(\d{1,3}(,\d{3})+|\d*)\.\d+([eE][-+]?\d+)?$|^[-+]?\d+[eE][-+]?\d+$/;
const DATE = /^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/** A column's type: the one every non-empty value fits (int < float, date, bool), else text. */
export function inferType(values: string[]): ColumnType {
  const filled = values.map((v) => v.trim()).filter(Boolean);
  if (filled.length === 0) return "text";
  if (filled.every((v) => INT.test(v))) return "int";
  if (filled.every((v) => INT.test(v) || FLOAT.test(v))) return "float";
  if (filled.every((v) => DATE.test(v))) return "date";
  if (filled.every((v) => BOOL.test(v))) return "bool";
  return "text";
}

/** A value written the one way its column's type reads: numbers without grouping, dates as YYYY-MM-DD[ HH:mm[:ss]], booleans as 是/否. */
export function normalizeValue(value: string, type: ColumnType): string {
  const v = value.trim();
  if (!v) return v;
  if (type === "int" || type === "float") return v.replace(/,/g, "");
  if (type === "bool") return /^(true|yes|y|是|对)$/i.test(v) ? "是" : "否";
  if (type === "date") {
    const m = DATE.exec(v)!;
    const date = `${m[1]}-${m[2].padStart(2, "0")}-${m[3].padStart(2, "0")}`;
    return m[4] ? `${date} ${m[4].padStart(2, "0")}:${m[5]}${m[6] ? `:${m[6]}` : ""}` : date;
  }
  return v;
}

/** Column names made unique ("价格", "价格" → "价格", "价格_2") and never empty ("列3"). */
export function uniqueNames(header: string[]): string[] {
  const seen = new Map<string, number>();
  return header.map((raw, i) => {
    const name = raw.trim() || `列${i + 1}`;
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return n === 1 ? name : `${name}_${n}`;
  });
}

export interface TableColumns {
  names: string[];
  types: ColumnType[];
  /** Indexes of the columns kept (index columns dropped). */
  kept: number[];
}

export function tableColumns(table: Table): TableColumns {
  const names = uniqueNames(table.header);
  const types = names.map((_, i) => inferType(table.rows.map((r) => r[i] ?? "")));
  const kept = names
    .map((_, i) => i)
    .filter((i) => !INDEX_COLUMN.test(table.header[i].trim()) && !(table.header[i].trim() === "" && isRowNumber(table, i)));
  return { names, types, kept };
}

/** An unnamed column holding 1, 2, 3… is a row number. */
function isRowNumber(table: Table, col: number): boolean {
  return (
    table.rows.length > 0 && table.rows.every((r, i) => (r[col] ?? "").trim() === String(i + 1) || (r[col] ?? "").trim() === String(i))
  );
}

/**
 * table: one chunk per data row, written as `列: 值` lines, so every chunk carries the header; index columns
 * dropped, duplicate names made unique, values normalised by the column's inferred type; rows with no value skipped.
 */
export function chunkTable(doc: ParsedDocument): Segment[] {
  const tables = doc.blocks.filter((b): b is Table => b.kind === "table");
  if (tables.length === 0) throw new IngestError("empty", "the file holds no table for the table method");
  const parts: Omit<Segment, "position" | "tokens">[] = [];
  for (const table of tables) {
    const { names, types, kept } = tableColumns(table);
    for (const row of table.rows) {
      if (!kept.some((i) => (row[i] ?? "").trim())) continue;
      const content = kept.map((i) => `${names[i]}: ${normalizeValue(row[i] ?? "", types[i])}`).join("\n");
      parts.push({ content, ...(table.name ? { title: table.name } : {}) });
    }
  }
  return numbered(parts);
}
