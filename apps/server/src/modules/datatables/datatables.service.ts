import {
  DATA_QUERY_MAX_ROWS,
  DATA_TABLE_IMPORT_MAX_ROWS,
  DATA_TABLE_MAX_ROWS,
  type DataField,
  type DataImportResult,
  type DataQueryResult,
  type DataRow,
  type DataTable,
  type DataTableInput,
  type Language,
} from "@agentfair/contracts";
import { parse as parseCsv } from "csv-parse/sync";
import { and, count, desc, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import ExcelJS from "exceljs";
import type { Tx } from "../../db/client.ts";
import { dataTables, tenants, users } from "../../db/schema/index.ts";
import type { Caller } from "../../platform/auth.ts";
import { AppError, badRequest, notFound } from "../../platform/errors.ts";
import { translate } from "../../platform/messages.ts";
import type { Platform } from "../../platform/platform.ts";
import { QueryReplica, ReplicaTimeout } from "./query-replica.ts";
import { bindNamed, DATA_SCHEMA, guardQuery, SqlGuardError, splitPlaceholders } from "./sql-guard.ts";
import { checkRow, outValue, SQL_TYPES, TYPE_LABELS, type ValueProblem } from "./values.ts";
import { containing } from "../../platform/sql.ts";

type TableRow = typeof dataTables.$inferSelect;

/** Whose data tables SQL reads: the rule's author, the asker of a report. */
export interface DataReader {
  userId: string;
  tenantId: string;
}

/**
 * The data tables a reader's SQL may use, and in which a table name must be unique. An
 * organisation's members share their tenant's tables; on the public platform (the default tenant)
 * users are strangers to each other, so each has only their own.
 */
const readableBy = (reader: DataReader) =>
  and(
    eq(dataTables.tenantId, reader.tenantId),
    or(
      eq(dataTables.ownerId, reader.userId),
      sql`not exists (select 1 from ${tenants} where ${tenants.id} = ${dataTables.tenantId} and ${tenants.isDefault})`,
    ),
  );

/** Work the planner may estimate for one query before it is refused. */
const MAX_QUERY_COST = 50_000;
const QUERY_TIMEOUT_MS = 5_000;
/** The PGlite query worker holds its copies (and some hundred MB) this long after its last query. */
const REPLICA_IDLE_MS = 10 * 60_000;

/** Identifiers are checked by the contract's pattern before they get here; quoting is the second fence. */
const ident = (name: string) => {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`unsafe identifier ${name}`);
  return `"${name}"`;
};
const physical = (t: Pick<TableRow, "physicalName">) => `${ident(DATA_SCHEMA)}.${ident(t.physicalName)}`;

function rowsOf(result: unknown): { rows: Record<string, unknown>[]; fields: { name: string; dataTypeID?: number }[] } {
  const r = result as { rows?: Record<string, unknown>[]; fields?: { name: string; dataTypeID?: number }[] };
  return { rows: r.rows ?? [], fields: r.fields ?? [] };
}

/**
 * Data tables of a tenant's users: their description in `data_tables`, their rows in a table of
 * their own in the `datatables` schema. The owner (or an administrator) changes a table; every
 * user of the tenant may read the tenant's tables through the read-only query guard.
 */
export class DatatablesService {
  /** Where a PGlite platform runs data-table SQL (PostgreSQL ends a query itself: statement_timeout). */
  private readonly replica?: QueryReplica;

  constructor(
    private readonly platform: Platform,
    options: { queryTimeoutMs?: number } = {},
  ) {
    this.queryTimeoutMs = options.queryTimeoutMs ?? QUERY_TIMEOUT_MS;
    if (platform.database.driver === "pglite")
      this.replica = new QueryReplica({
        schema: DATA_SCHEMA,
        timeoutMs: this.queryTimeoutMs,
        idleMs: REPLICA_IDLE_MS,
        heapMb: 1024,
        templateDir: platform.config.DATA_DIR,
      });
  }

  private readonly queryTimeoutMs: number;

  close() {
    return this.replica?.close();
  }

  private get db() {
    return this.platform.db;
  }

  // ---- access --------------------------------------------------------------------------------

  /** The one access check: the owner in its tenant, or an administrator; others get not found. */
  private async owned(caller: Caller, id: string, tx: Tx = this.db): Promise<TableRow> {
    const [row] = await tx.select().from(dataTables).where(eq(dataTables.id, id));
    if (!row) throw notFound();
    if (!caller.isAdmin && !(row.ownerId === caller.userId && row.tenantId === caller.tenantId)) throw notFound();
    return row;
  }

  private async toWire(rows: TableRow[]): Promise<DataTable[]> {
    const names = new Map<string, string>();
    for (const r of rows) {
      if (names.has(r.ownerId)) continue;
      const [u] = await this.db.select({ username: users.username }).from(users).where(eq(users.id, r.ownerId));
      names.set(r.ownerId, u?.username ?? "");
    }
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      introduction: r.introduction,
      queryMode: r.queryMode as DataTable["queryMode"],
      fields: r.fields,
      rowCount: r.rowCount,
      createdBy: names.get(r.ownerId) ?? "",
      createdTime: r.createdAt.toISOString(),
      updatedTime: r.updatedAt.toISOString(),
    }));
  }

  // ---- tables --------------------------------------------------------------------------------

  async page(caller: Caller, req: { name?: string; pageNumber: number; pageSize: number }) {
    // The caller's own tables, an administrator's too: a list of others' tables offered tables their
    // SQL could not read (on the public platform each user's SQL reads only their own).
    const where: (SQL | undefined)[] = [eq(dataTables.tenantId, caller.tenantId), eq(dataTables.ownerId, caller.userId)];
    if (req.name) where.push(ilike(dataTables.name, containing(req.name)));
    const cond = and(...where);
    const list = await this.db
      .select()
      .from(dataTables)
      .where(cond)
      .orderBy(desc(dataTables.updatedAt), desc(dataTables.id))
      .limit(req.pageSize)
      .offset((req.pageNumber - 1) * req.pageSize);
    const [{ total }] = await this.db.select({ total: count() }).from(dataTables).where(cond);
    return { list: await this.toWire(list), total };
  }

  /** The data tables `reader`'s SQL may read (rules, reports). */
  async readableTables(reader: DataReader) {
    return this.db.select().from(dataTables).where(readableBy(reader)).orderBy(dataTables.name);
  }

  async get(caller: Caller, id: string) {
    return (await this.toWire([await this.owned(caller, id)]))[0];
  }

  private checkFields(fields: DataField[]) {
    const seen = new Set<string>();
    for (const f of fields) {
      if (f.name.startsWith("_")) throw badRequest("dataFieldReserved", { name: f.name });
      if (seen.has(f.name)) throw badRequest("dataFieldDuplicate", { name: f.name });
      seen.add(f.name);
    }
  }

  /** A name SQL resolves must be unique among the tables readable beside it. */
  private async nameFree(tx: Tx, owner: DataReader, name: string, exceptId?: string) {
    const [other] = await tx
      .select({ id: dataTables.id })
      .from(dataTables)
      .where(and(readableBy(owner), sql`lower(${dataTables.name}) = ${name.toLowerCase()}`));
    if (other && other.id !== exceptId) throw badRequest("dataTableNameTaken", { name });
  }

  async create(caller: Caller, input: DataTableInput) {
    this.checkFields(input.fields);
    const id = await this.db.transaction(async (tx) => {
      await this.nameFree(tx, caller, input.name);
      const physicalName = `t_${crypto.randomUUID().replace(/-/g, "")}`;
      const [row] = await tx
        .insert(dataTables)
        .values({ tenantId: caller.tenantId, ownerId: caller.userId, ...input, physicalName })
        .returning();
      await createPhysical(tx, row);
      return row.id;
    });
    return this.get(caller, id);
  }

  /** Changes the description and, through ALTER TABLE in the same transaction, the columns. */
  async update(caller: Caller, input: DataTableInput & { id: string }) {
    this.checkFields(input.fields);
    await this.db.transaction(async (tx) => {
      const row = await this.owned(caller, input.id, tx);
      await this.nameFree(tx, { userId: row.ownerId, tenantId: row.tenantId }, input.name, row.id);
      const before = new Map(row.fields.map((f) => [f.name, f]));
      const after = new Map(input.fields.map((f) => [f.name, f]));
      for (const f of row.fields)
        if (!after.has(f.name)) await tx.execute(sql.raw(`ALTER TABLE ${physical(row)} DROP COLUMN ${ident(f.name)}`));
      for (const f of input.fields) {
        const old = before.get(f.name);
        if (!old) await tx.execute(sql.raw(`ALTER TABLE ${physical(row)} ADD COLUMN ${ident(f.name)} ${SQL_TYPES[f.type]}`));
        else if (old.type !== f.type) {
          try {
            await tx.execute(
              sql.raw(
                `ALTER TABLE ${physical(row)} ALTER COLUMN ${ident(f.name)} TYPE ${SQL_TYPES[f.type]} USING ${ident(f.name)}::${SQL_TYPES[f.type]}`,
              ),
            );
          } catch {
            throw badRequest("dataTypeChangeFailed", { name: f.name });
          }
        }
      }
      await tx
        .update(dataTables)
        .set({
          name: input.name,
          introduction: input.introduction,
          queryMode: input.queryMode,
          fields: input.fields,
          updatedAt: new Date(),
          version: sql`${dataTables.version} + 1`,
        })
        .where(eq(dataTables.id, row.id));
    });
    return this.get(caller, input.id);
  }

  async remove(caller: Caller, id: string) {
    await this.db.transaction(async (tx) => {
      const row = await this.owned(caller, id, tx);
      await tx.execute(sql.raw(`DROP TABLE IF EXISTS ${physical(row)}`));
      await tx.delete(dataTables).where(eq(dataTables.id, row.id));
    });
  }

  // ---- rows ----------------------------------------------------------------------------------

  private selectList(fields: DataField[]) {
    const cols = fields.map((f) => {
      const c = ident(f.name);
      if (f.type === "date") return `to_char(${c}, 'YYYY-MM-DD') AS ${c}`;
      if (f.type === "datetime") return `to_char(${c} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS ${c}`;
      return c;
    });
    return [`"_id"`, ...cols].join(", ");
  }

  async rows(caller: Caller, id: string, pageNumber: number, pageSize: number) {
    const row = await this.owned(caller, id);
    this.replica?.warm();
    const result = await this.db.execute(
      sql.raw(
        `SELECT ${this.selectList(row.fields)} FROM ${physical(row)} ORDER BY "_id" DESC LIMIT ${Math.trunc(pageSize)} OFFSET ${Math.trunc((pageNumber - 1) * pageSize)}`,
      ),
    );
    const [{ total }] = rowsOf(await this.db.execute(sql.raw(`SELECT count(*)::int AS total FROM ${physical(row)}`))).rows as {
      total: number;
    }[];
    const { rows, fields } = rowsOf(result);
    const types = new Map(fields.map((f) => [f.name, f.dataTypeID]));
    const list: DataRow[] = rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, outValue(v, types.get(k))])));
    return { list, total: Number(total) };
  }

  private problemText(p: ValueProblem, lang: Language) {
    return translate(p.key, lang, { field: p.field, value: p.value, type: TYPE_LABELS[p.type][lang] });
  }

  private unknownFields(fields: DataField[], values: Record<string, unknown>) {
    const names = new Set(fields.map((f) => f.name));
    const unknown = Object.keys(values).find((k) => k !== "_id" && !names.has(k));
    if (unknown) throw badRequest("dataUnknownField", { field: unknown.slice(0, 64) });
  }

  /** Adds rows in one transaction; the row count is claimed first so the cap holds under concurrency. */
  private async insertRows(tx: Tx, row: TableRow, values: Record<string, string | number | boolean | null>[]) {
    if (!values.length) return;
    const claimed = await tx
      .update(dataTables)
      .set({ rowCount: sql`${dataTables.rowCount} + ${values.length}`, updatedAt: new Date(), version: sql`${dataTables.version} + 1` })
      .where(and(eq(dataTables.id, row.id), sql`${dataTables.rowCount} + ${values.length} <= ${DATA_TABLE_MAX_ROWS}`))
      .returning({ id: dataTables.id });
    if (!claimed.length) throw badRequest("dataTableFull", { max: DATA_TABLE_MAX_ROWS });
    for (let i = 0; i < values.length; i += 500) await insertPhysical(tx, row, values.slice(i, i + 500));
  }

  async addRow(caller: Caller, id: string, values: Record<string, unknown>, lang: Language) {
    const row = await this.owned(caller, id);
    this.unknownFields(row.fields, values);
    const checked = checkRow(row.fields, values);
    if (!checked.ok) throw new AppError("badRequest", 400, { detail: this.problemText(checked.problem, lang) });
    await this.db.transaction((tx) => this.insertRows(tx, row, [checked.row]));
  }

  async updateRow(caller: Caller, id: string, rowId: number, values: Record<string, unknown>, lang: Language) {
    const row = await this.owned(caller, id);
    this.unknownFields(row.fields, values);
    const checked = checkRow(row.fields, values, true);
    if (!checked.ok) throw new AppError("badRequest", 400, { detail: this.problemText(checked.problem, lang) });
    const entries = Object.entries(checked.row);
    if (!entries.length) return;
    const sets = sql.join(
      entries.map(([k, v]) => sql`${sql.raw(ident(k))} = ${v}`),
      sql`, `,
    );
    await this.db.transaction(async (tx) => {
      const result = await tx.execute(sql`UPDATE ${sql.raw(physical(row))} SET ${sets} WHERE "_id" = ${rowId} RETURNING "_id"`);
      if (!rowsOf(result).rows.length) throw notFound();
      await tx
        .update(dataTables)
        .set({ updatedAt: new Date(), version: sql`${dataTables.version} + 1` })
        .where(eq(dataTables.id, row.id));
    });
  }

  async deleteRow(caller: Caller, id: string, rowId: number) {
    const row = await this.owned(caller, id);
    await this.db.transaction(async (tx) => {
      const result = await tx.execute(sql`DELETE FROM ${sql.raw(physical(row))} WHERE "_id" = ${rowId} RETURNING "_id"`);
      if (!rowsOf(result).rows.length) throw notFound();
      await tx
        .update(dataTables)
        .set({ rowCount: sql`greatest(${dataTables.rowCount} - 1, 0)`, updatedAt: new Date(), version: sql`${dataTables.version} + 1` })
        .where(eq(dataTables.id, row.id));
    });
  }

  /**
   * Imports an xlsx or csv file: the first row names the columns (storage names or display names);
   * each later row is checked against the field types. Good rows are added, the rest reported.
   */
  async importFile(caller: Caller, id: string, file: { name: string; data: Buffer } | null, lang: Language): Promise<DataImportResult> {
    const row = await this.owned(caller, id);
    if (!file) throw badRequest("fileRequired");
    const lower = file.name.toLowerCase();
    let grid: unknown[][];
    if (lower.endsWith(".csv")) {
      try {
        grid = parseCsv(file.data.toString("utf8").replace(/^\uFEFF/, ""), {
          relax_column_count: true,
          skip_empty_lines: true,
        }) as unknown[][];
      } catch {
        throw badRequest("dataImportFormat");
      }
    } else if (lower.endsWith(".xlsx")) {
      grid = await readXlsx(file.data);
    } else throw badRequest("dataImportFormat");
    if (grid.length < 2) throw badRequest("dataImportEmpty");
    if (grid.length - 1 > DATA_TABLE_IMPORT_MAX_ROWS) throw badRequest("dataImportTooMany", { max: DATA_TABLE_IMPORT_MAX_ROWS });
    const header = grid[0].map((h) => String(h ?? "").trim());
    const columns = new Map<number, DataField>();
    header.forEach((h, i) => {
      const f = row.fields.find((x) => x.name === h.toLowerCase() || (x.label && x.label === h));
      if (f) columns.set(i, f);
    });
    if (!columns.size) throw badRequest("dataImportNoColumns");
    const good: Record<string, string | number | boolean | null>[] = [];
    const rejected: DataImportResult["rejected"] = [];
    grid.slice(1).forEach((cells, i) => {
      const values: Record<string, unknown> = {};
      for (const [index, f] of columns) values[f.name] = cells[index];
      const checked = checkRow(row.fields, values);
      if (checked.ok) good.push(checked.row);
      else rejected.push({ row: i + 2, reason: this.problemText(checked.problem, lang) });
    });
    await this.db.transaction((tx) => this.insertRows(tx, row, good));
    if (good.length) await this.analyze(row);
    return { imported: good.length, rejected };
  }

  /** Fresh planner statistics, so the query guard's cost estimate sees the real size. */
  private async analyze(row: TableRow) {
    try {
      await this.db.execute(sql.raw(`ANALYZE ${physical(row)}`));
    } catch (e) {
      this.platform.log.warn({ err: e }, "datatables: analyze failed");
    }
  }

  // ---- the read-only query guard ---------------------------------------------------------------

  /**
   * The guard alone: the query checked against these tables and written again (nothing runs).
   * `inputs`: the names a rule's SQL may read as `:name` or `#{name}` (none for a plain query);
   * they come back in the order of their $1..$n placeholders.
   */
  check(
    tables: Pick<TableRow, "name" | "physicalName">[],
    text: string,
    inputs?: readonly string[],
  ): { sql: string; names: string[]; physicalNames: string[] } {
    const byName = new Map(tables.map((t) => [t.name.toLowerCase(), t.physicalName]));
    const used = new Set<string>();
    const physicalOf = (name: string) => {
      const found = byName.get(name);
      if (found) used.add(found);
      return found;
    };
    try {
      const bound = inputs ? bindNamed(text) : { text, names: [] };
      const unknown = bound.names.find((n) => !inputs?.includes(n));
      if (unknown) throw new SqlGuardError("sqlInput", unknown);
      const checked = guardQuery(bound.text, physicalOf, bound.names.length);
      return { sql: checked, names: bound.names, physicalNames: [...used] };
    } catch (e) {
      if (e instanceof SqlGuardError) throw new AppError(e.reason, 400, { detail: e.detail.slice(0, 200) });
      throw e;
    }
  }

  /**
   * Runs one SELECT over the tables `reader` may read: checked and rewritten by the guard, estimated by
   * the planner (refused when too expensive), then run in a READ ONLY transaction with a statement
   * timeout, an empty search path and a row cap. `inputs`: a rule's values its SQL reads by name,
   * each sent as a bound parameter.
   */
  async query(reader: DataReader, text: string, inputs?: Record<string, unknown>): Promise<DataQueryResult> {
    const readable = await this.readableTables(reader);
    const checked = this.check(readable, text, inputs ? Object.keys(inputs) : undefined);
    const wrapped = `SELECT * FROM (${checked.sql}) AS "q" LIMIT ${DATA_QUERY_MAX_ROWS + 1}`;
    const values = checked.names.map((n) => parameterValue(n, inputs?.[n]));
    try {
      const result = this.replica
        ? await this.queryReplica(
            readable.filter((t) => checked.physicalNames.includes(t.physicalName)),
            wrapped,
            values,
          )
        : await this.queryHere(wrapped, values);
      const columns = result.fields.map((f) => f.name);
      const types = result.fields.map((f) => f.dataTypeID);
      const rows = result.rows.slice(0, DATA_QUERY_MAX_ROWS).map((r) => columns.map((c, i) => outValue(r[c], types[i])));
      return { columns, rows, truncated: result.rows.length > DATA_QUERY_MAX_ROWS };
    } catch (e) {
      if (e instanceof AppError) throw e;
      const pgCode = sqlState(e);
      if (pgCode === "57014" || e instanceof ReplicaTimeout) throw badRequest("sqlTimeout", { seconds: this.queryTimeoutMs / 1000 });
      const message = (errorMessage(e) ?? "").replace(/datatables\.t_[0-9a-f]{32}/g, "table").replace(/t_[0-9a-f]{32}/g, "table");
      throw badRequest("sqlFailed", { detail: message.slice(0, 200) });
    }
  }

  /** On PostgreSQL: a READ ONLY transaction whose statement_timeout ends the query. */
  private queryHere(text: string, values: (string | null)[]) {
    const { parts, indexes } = splitPlaceholders(text);
    const statement = (prefix: string) =>
      sql.join([sql.raw(prefix + parts[0]), ...indexes.flatMap((n, k) => [sql`${values[n - 1]}`, sql.raw(parts[k + 1])])]);
    return this.db.transaction(async (tx) => {
      await tx.execute(sql.raw("SET TRANSACTION READ ONLY"));
      await tx.execute(sql.raw(`SET LOCAL statement_timeout = ${this.queryTimeoutMs}`));
      await tx.execute(sql.raw(`SET LOCAL search_path TO ''`));
      const plan = rowsOf(await tx.execute(statement("EXPLAIN (FORMAT JSON) "))).rows[0];
      if (planCost(plan) > MAX_QUERY_COST) throw badRequest("sqlTooExpensive");
      return rowsOf(await tx.execute(statement("")));
    });
  }

  /** On PGlite: in the query worker, on its copies of `tables` (refreshed when their version moved). */
  private async queryReplica(tables: TableRow[], text: string, values: (string | null)[]) {
    const answer = await (this.replica as QueryReplica).run(
      tables.map((t) => ({
        name: physical(t),
        version: t.version,
        ddl: physicalDdl(t),
        rows: async () => {
          const [r] = rowsOf(
            await this.db.execute(sql.raw(`SELECT coalesce(json_agg(t), '[]')::text AS "rows" FROM ${physical(t)} t`)),
          ).rows;
          return String(r.rows);
        },
      })),
      { sql: text, values, maxCost: MAX_QUERY_COST },
    );
    if (!answer.ok) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
    if ("tooExpensive" in answer.result) throw badRequest("sqlTooExpensive");
    return answer.result;
  }
}

/** The physical table of a data table: `_id` and one column per field (also used by the demo seed). */
export async function createPhysical(tx: Tx, row: Pick<TableRow, "physicalName" | "fields">) {
  await tx.execute(sql.raw(physicalDdl(row)));
}

function physicalDdl(row: Pick<TableRow, "physicalName" | "fields">) {
  const columns = row.fields.map((f) => `${ident(f.name)} ${SQL_TYPES[f.type]}`);
  return `CREATE TABLE ${physical(row)} ("_id" bigserial PRIMARY KEY${columns.map((c) => `, ${c}`).join("")})`;
}

/** Adds checked rows to a physical table (the demo seed's way in; the service counts and caps them). */
export async function insertPhysical(
  tx: Tx,
  row: Pick<TableRow, "physicalName" | "fields">,
  values: Record<string, string | number | boolean | null>[],
) {
  const names = row.fields.map((f) => f.name);
  const tuples = values.map(
    (v) =>
      sql`(${sql.join(
        names.map((n) => sql`${v[n] ?? null}`),
        sql`, `,
      )})`,
  );
  await tx.execute(
    sql`INSERT INTO ${sql.raw(physical(row))} (${sql.raw(names.map(ident).join(", "))}) VALUES ${sql.join(tuples, sql`, `)}`,
  );
}

/** A rule input as a query parameter: its text (the database casts it where it is compared), or null. */
function parameterValue(name: string, v: unknown): string | null {
  if (v === null || v === undefined || v === "") return null;
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (v instanceof Date) return v.toISOString();
  throw new AppError("sqlInputValue", 400, { detail: name });
}

function planCost(row: Record<string, unknown> | undefined): number {
  if (!row) return 0;
  let plan = Object.values(row)[0];
  if (typeof plan === "string") plan = JSON.parse(plan);
  const top = (plan as { Plan?: { "Total Cost"?: number } }[])?.[0]?.Plan?.["Total Cost"];
  return typeof top === "number" ? top : 0;
}

function sqlState(e: unknown) {
  let x: unknown = e;
  for (let i = 0; i < 4 && x; i++) {
    const code = (x as { code?: unknown }).code;
    if (typeof code === "string") return code;
    x = (x as { cause?: unknown }).cause;
  }
  return undefined;
}
function errorMessage(e: unknown) {
  let x: unknown = e;
  let last: string | undefined;
  for (let i = 0; i < 4 && x; i++) {
    if (typeof (x as { code?: unknown }).code === "string") return (x as Error).message;
    last = (x as Error).message;
    x = (x as { cause?: unknown }).cause;
  }
  return last;
}

async function readXlsx(data: Buffer): Promise<unknown[][]> {
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(data as unknown as ArrayBuffer);
  } catch {
    throw badRequest("dataImportFormat");
  }
  const sheet = book.worksheets[0];
  if (!sheet) return [];
  const grid: unknown[][] = [];
  sheet.eachRow({ includeEmpty: false }, (r) => {
    if (grid.length > DATA_TABLE_IMPORT_MAX_ROWS + 1) return;
    const cells: unknown[] = [];
    r.eachCell({ includeEmpty: true }, (cell, col) => {
      const v = cell.value as unknown;
      cells[col - 1] =
        v && typeof v === "object" && !(v instanceof Date)
          ? ((v as { result?: unknown; text?: unknown; richText?: { text: string }[] }).result ??
            (v as { text?: unknown }).text ??
            (v as { richText?: { text: string }[] }).richText?.map((x) => x.text).join("") ??
            null)
          : v;
    });
    grid.push(cells);
  });
  return grid;
}
