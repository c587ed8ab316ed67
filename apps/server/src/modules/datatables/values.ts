import type { DataField, DataType } from "@agentfair/contracts";

/** Why a value was refused: the service turns it into the caller's language. */
export type ValueProblem = { key: "dataValueRequired" | "dataValueInvalid"; field: string; value: string; type: DataType };

export const TYPE_LABELS: Record<DataType, { zh: string; en: string }> = {
  text: { zh: "文本", en: "text" },
  number: { zh: "数字", en: "number" },
  integer: { zh: "整数", en: "integer" },
  date: { zh: "日期", en: "date" },
  datetime: { zh: "日期时间", en: "date-time" },
  boolean: { zh: "布尔值", en: "boolean" },
};

/** The column type each data type is stored as. */
export const SQL_TYPES: Record<DataType, string> = {
  text: "text",
  number: "double precision",
  integer: "bigint",
  date: "date",
  datetime: "timestamptz",
  boolean: "boolean",
};

const pad = (n: number) => String(n).padStart(2, "0");

function dateOf(y: number, m: number, d: number) {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return undefined;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/** One value read from a form, an API call or a spreadsheet cell, as the column stores it; undefined when invalid. */
export function coerce(type: DataType, raw: unknown): string | number | boolean | null | undefined {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === "string" && raw.trim() === "") return null;
  switch (type) {
    case "text":
      return typeof raw === "object" && !(raw instanceof Date)
        ? undefined
        : raw instanceof Date
          ? raw.toISOString()
          : String(raw).slice(0, 10_000);
    case "number": {
      const n = typeof raw === "number" ? raw : typeof raw === "string" ? Number(raw.trim().replace(/,/g, "")) : Number.NaN;
      return Number.isFinite(n) ? n : undefined;
    }
    case "integer": {
      const n = typeof raw === "number" ? raw : typeof raw === "string" && /^[+-]?\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
      return Number.isSafeInteger(n) ? n : undefined;
    }
    case "date": {
      if (raw instanceof Date) return Number.isNaN(raw.getTime()) ? undefined : raw.toISOString().slice(0, 10);
      const m = String(raw)
        .trim()
        .match(/^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/);
      return m ? dateOf(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
    }
    case "datetime": {
      if (raw instanceof Date) return Number.isNaN(raw.getTime()) ? undefined : raw.toISOString();
      const s = String(raw).trim();
      const m = s.match(/^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/);
      if (!m || !dateOf(Number(m[1]), Number(m[2]), Number(m[3]))) return undefined;
      const [h, mi, se] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
      if (h > 23 || mi > 59 || se > 59) return undefined;
      const local = `${m[1]}-${pad(Number(m[2]))}-${pad(Number(m[3]))}T${pad(h)}:${pad(mi)}:${pad(se)}${m[8] ? (m[8] === "Z" ? "Z" : m[8].length === 5 ? `${m[8].slice(0, 3)}:${m[8].slice(3)}` : m[8]) : "+08:00"}`;
      const d = new Date(local);
      return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
    }
    case "boolean": {
      if (typeof raw === "boolean") return raw;
      const s = String(raw).trim().toLowerCase();
      if (["true", "1", "yes", "y", "是", "真"].includes(s)) return true;
      if (["false", "0", "no", "n", "否", "假"].includes(s)) return false;
      return undefined;
    }
  }
}

/** Checks a whole row against the fields; returns the stored values or the first problem. */
export function checkRow(
  fields: DataField[],
  values: Record<string, unknown>,
  partial = false,
): { ok: true; row: Record<string, string | number | boolean | null> } | { ok: false; problem: ValueProblem } {
  const row: Record<string, string | number | boolean | null> = {};
  for (const f of fields) {
    if (partial && !Object.hasOwn(values, f.name)) continue;
    const raw = Object.hasOwn(values, f.name) ? values[f.name] : undefined;
    const v = coerce(f.type, raw);
    const label = f.label || f.name;
    if (v === undefined)
      return { ok: false, problem: { key: "dataValueInvalid", field: label, value: String(raw).slice(0, 40), type: f.type } };
    if (v === null && f.required) return { ok: false, problem: { key: "dataValueRequired", field: label, value: "", type: f.type } };
    row[f.name] = v;
  }
  return { ok: true, row };
}

/** A value read back from the database as JSON can carry it. */
export function outValue(v: unknown, dataTypeId?: number): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "bigint") return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  // PostgreSQL sends bigint and numeric as text (PGlite as numbers): numbers on the wire either way.
  if (typeof v === "string" && (dataTypeId === 20 || dataTypeId === 1700)) {
    const n = Number(v);
    return Number.isFinite(n) && (dataTypeId === 1700 || Number.isSafeInteger(n)) ? n : v;
  }
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "string") return v;
  if (v instanceof Date) {
    if (dataTypeId === 1082) {
      const local = v.getHours() === 0 && v.getMinutes() === 0 && v.getSeconds() === 0;
      return local ? `${v.getFullYear()}-${pad(v.getMonth() + 1)}-${pad(v.getDate())}` : v.toISOString().slice(0, 10);
    }
    return v.toISOString();
  }
  if (v instanceof Uint8Array) return `\\x${Buffer.from(v).toString("hex")}`;
  return JSON.stringify(v);
}
