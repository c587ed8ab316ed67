import { astMapper, type QNameAliased, parse, type Statement, toSql } from "pgsql-ast-parser";

/** The schema the data tables' rows live in: never named by users, only by the rewritten query. */
export const DATA_SCHEMA = "datatables";

export type GuardReason =
  | "sqlSyntax"
  | "sqlOneSelect"
  | "sqlTable"
  | "sqlFunction"
  | "sqlRecursive"
  | "sqlCast"
  | "sqlParameter"
  | "sqlInput"
  | "sqlTooLong"
  | "sqlReplace";

export class SqlGuardError extends Error {
  constructor(
    readonly reason: GuardReason,
    readonly detail = "",
  ) {
    super(`${reason}${detail ? `: ${detail}` : ""}`);
  }
}

/**
 * Functions a query may call: computations over values only. Anything that reads files, sleeps,
 * reaches other databases, changes settings, locks or reads the server's state is left out.
 */
const ALLOWED_FUNCTIONS = new Set([
  // aggregates and windows
  "count",
  "sum",
  "avg",
  "min",
  "max",
  "string_agg",
  "array_agg",
  "bool_and",
  "bool_or",
  "every",
  "stddev",
  "stddev_pop",
  "stddev_samp",
  "variance",
  "var_pop",
  "var_samp",
  "row_number",
  "rank",
  "dense_rank",
  "percent_rank",
  "cume_dist",
  "ntile",
  "lag",
  "lead",
  "first_value",
  "last_value",
  // numbers
  "abs",
  "round",
  "ceil",
  "ceiling",
  "floor",
  "trunc",
  "mod",
  "power",
  "sqrt",
  "sign",
  "exp",
  "ln",
  "log",
  "greatest",
  "least",
  "coalesce",
  "nullif",
  // texts (none that can build a huge text from a small input, such as repeat or lpad)
  "lower",
  "upper",
  "length",
  "char_length",
  "substring",
  "substr",
  "trim",
  "btrim",
  "ltrim",
  "rtrim",
  "replace",
  "concat",
  "concat_ws",
  "left",
  "right",
  "strpos",
  "position",
  "split_part",
  "starts_with",
  "initcap",
  "md5",
  // dates
  "now",
  "date_trunc",
  "date_part",
  "to_char",
  "to_date",
  "to_number",
  "age",
  "make_date",
  "extract",
]);

/** Types a value may be cast to (casts to reg* types would read the catalogues). */
const ALLOWED_CASTS = new Set([
  "text",
  "varchar",
  "character varying",
  "char",
  "character",
  "int",
  "int2",
  "int4",
  "int8",
  "integer",
  "smallint",
  "bigint",
  "numeric",
  "decimal",
  "real",
  "float",
  "float4",
  "float8",
  "double precision",
  "date",
  "time",
  "timestamp",
  "timestamptz",
  "timestamp with time zone",
  "timestamp without time zone",
  "interval",
  "boolean",
  "bool",
]);

export const SQL_MAX_LENGTH = 20_000;

/**
 * Checks a query and writes it again for the database: exactly one SELECT (CTEs allowed when every
 * part is a SELECT, no recursion), tables only among the caller's data tables (by their logical
 * names, rewritten to the physical ones), functions from the allow-list, casts to plain types only.
 * What runs is the SQL printed from the checked tree, never the text the user sent.
 */
export function guardQuery(text: string, physicalOf: (name: string) => string | undefined, parameters = 0): string {
  if (text.length > SQL_MAX_LENGTH) throw new SqlGuardError("sqlTooLong");
  let statements: Statement[];
  try {
    statements = parse(text);
  } catch (e) {
    throw new SqlGuardError(
      "sqlSyntax",
      String((e as Error).message)
        .split("\n")[0]
        .slice(0, 200),
    );
  }
  if (statements.length !== 1) throw new SqlGuardError("sqlOneSelect");
  const [statement] = statements;
  if (statement.type === "with recursive") throw new SqlGuardError("sqlRecursive");
  if (!isSelect(statement)) throw new SqlGuardError("sqlOneSelect");

  const cteNames = new Set<string>();
  const fail = (reason: GuardReason, detail = ""): never => {
    throw new SqlGuardError(reason, detail);
  };
  const mapper = astMapper((m) => ({
    insert: () => fail("sqlOneSelect"),
    update: () => fail("sqlOneSelect"),
    delete: () => fail("sqlOneSelect"),
    withRecursive: () => fail("sqlRecursive"),
    with: (w) => {
      for (const b of w.bind) {
        if (!isSelect(b.statement)) fail("sqlOneSelect");
        const alias = b.alias.name.toLowerCase();
        if (alias.startsWith("pg_")) fail("sqlTable", alias);
        cteNames.add(alias);
      }
      return m.super().with(w);
    },
    // Only the placeholders `bindNamed` wrote ($1..$n of the named inputs) are allowed.
    parameter: (p) => {
      const n = Number(p.name.slice(1));
      return Number.isInteger(n) && n >= 1 && n <= parameters ? p : fail("sqlParameter", p.name);
    },
    fromCall: (f) => fail("sqlFunction", f.function.name),
    tableRef: (t: QNameAliased) => {
      const name = t.name.toLowerCase();
      if (t.schema) fail("sqlTable", `${t.schema}.${t.name}`);
      if (cteNames.has(name) && !name.startsWith("pg_")) return t;
      const physical = physicalOf(name);
      if (!physical) fail("sqlTable", t.name);
      return { ...t, schema: DATA_SCHEMA, name: physical as string, alias: t.alias ?? name };
    },
    call: (c) => {
      const name = c.function.name.toLowerCase();
      if (c.function.schema || !ALLOWED_FUNCTIONS.has(name)) fail("sqlFunction", c.function.schema ? `${c.function.schema}.${name}` : name);
      // A replacement longer than what it replaces multiplies a text's length, and nested calls
      // multiply again (eleven of them made 4^11 characters a row, which PGlite cannot stop).
      if (name === "replace") {
        const [, from, to] = c.args as { type: string; value?: unknown }[];
        const literal = (e?: { type: string; value?: unknown }) => (e?.type === "string" ? String(e.value) : null);
        const a = literal(from);
        const b = literal(to);
        if (a === null || b === null || b.length > a.length) fail("sqlReplace");
      }
      return m.super().call(c);
    },
    cast: (c) => {
      const type = c.to as { name?: string; schema?: string; kind?: string; arrayOf?: unknown };
      const name = (type.name ?? "").toLowerCase();
      if (type.kind === "array" || type.schema || !ALLOWED_CASTS.has(name)) fail("sqlCast", name || "array");
      return m.super().cast(c);
    },
    dataType: (d) => {
      const type = d as { name?: string; schema?: string; kind?: string };
      const name = (type.name ?? "").toLowerCase();
      if (type.kind === "array" || type.schema || !ALLOWED_CASTS.has(name)) fail("sqlCast", name || "array");
      return d;
    },
  }));
  // The CTE names must be known before a reference to them is met: collect them first.
  collectCtes(statement, cteNames);
  const checked = mapper.statement(statement);
  if (!checked) throw new SqlGuardError("sqlOneSelect");
  const sel = checked as { for?: unknown };
  if (sel.for) throw new SqlGuardError("sqlOneSelect");
  return toSql.statement(checked);
}

function isSelect(s: Statement) {
  return s.type === "select" || s.type === "union" || s.type === "union all" || s.type === "with" || s.type === "values";
}

function collectCtes(s: unknown, out: Set<string>) {
  if (!s || typeof s !== "object") return;
  if (Array.isArray(s)) {
    for (const x of s) collectCtes(x, out);
    return;
  }
  const node = s as { type?: string; bind?: { alias: { name: string } }[] };
  if (node.type === "with" && Array.isArray(node.bind)) for (const b of node.bind) out.add(b.alias.name.toLowerCase());
  for (const v of Object.values(node)) if (v && typeof v === "object") collectCtes(v, out);
}

/** `:name` or `#{name}`: a rule input the SQL reads, bound as a query parameter (never spliced in). */
const NAMED = /^(?::([A-Za-z_\u4e00-\u9fff][A-Za-z0-9_\u4e00-\u9fff]*)|#\{\s*([A-Za-z_\u4e00-\u9fff][A-Za-z0-9_\u4e00-\u9fff]*)\s*\})/;

/**
 * Replaces named inputs outside literals, quoted names and comments with $1..$n (one per distinct
 * name, in order of first use). A positional `$n` written by the user is refused: only the inputs
 * the caller names may be bound.
 */
export function bindNamed(text: string): { text: string; names: string[] } {
  const names: string[] = [];
  let out = "";
  let i = 0;
  const copyUntil = (end: number) => {
    out += text.slice(i, end);
    i = end;
  };
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === "'" || c === '"') {
      // E'..' strings escape with a backslash; others only by doubling the quote.
      const backslash = c === "'" && /[eE]/.test(text[i - 1] ?? "") && !/[A-Za-z0-9_]/.test(text[i - 2] ?? "");
      let j = i + 1;
      while (j < text.length) {
        if (backslash && text[j] === "\\") j += 2;
        else if (text[j] === c && text[j + 1] === c) j += 2;
        else if (text[j] === c) break;
        else j++;
      }
      copyUntil(Math.min(j + 1, text.length));
    } else if (c === "-" && next === "-") {
      const end = text.indexOf("\n", i);
      copyUntil(end < 0 ? text.length : end);
    } else if (c === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      copyUntil(end < 0 ? text.length : end + 2);
    } else if (c === "$" && /[0-9]/.test(next ?? "") && !/[A-Za-z0-9_]/.test(text[i - 1] ?? "")) {
      throw new SqlGuardError("sqlParameter", text.slice(i, i + 4));
    } else if (c === "$" && !/[A-Za-z0-9_]/.test(text[i - 1] ?? "")) {
      // A dollar-quoted text: $tag$ ... $tag$.
      const tag = text.slice(i).match(/^\$[A-Za-z_]*\$/)?.[0];
      if (!tag) copyUntil(i + 1);
      else {
        const end = text.indexOf(tag, i + tag.length);
        copyUntil(end < 0 ? text.length : end + tag.length);
      }
    } else if (c === ":" && next === ":") {
      copyUntil(i + 2);
    } else if ((c === ":" || (c === "#" && next === "{")) && !/[A-Za-z0-9_]/.test(text[i - 1] ?? "")) {
      const m = text.slice(i).match(NAMED);
      if (!m) copyUntil(i + 1);
      else {
        const name = m[1] ?? m[2];
        if (!names.includes(name)) names.push(name);
        out += `$${names.indexOf(name) + 1}`;
        i += m[0].length;
      }
    } else copyUntil(i + 1);
  }
  return { text: out, names };
}

/**
 * Cuts checked SQL (as `toSql` prints it) at its $n placeholders: the texts between them and the
 * placeholder numbers, so each value is sent as a bound parameter.
 */
export function splitPlaceholders(text: string): { parts: string[]; indexes: number[] } {
  const parts: string[] = [];
  const indexes: number[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < text.length && !(text[j] === c && text[j + 1] !== c)) j += text[j] === c ? 2 : 1;
      i = j + 1;
      continue;
    }
    const m = c === "$" ? text.slice(i).match(/^\$(\d+)/) : null;
    if (m) {
      parts.push(text.slice(start, i));
      indexes.push(Number(m[1]));
      i += m[0].length;
      start = i;
      continue;
    }
    i++;
  }
  parts.push(text.slice(start));
  return { parts, indexes };
}
