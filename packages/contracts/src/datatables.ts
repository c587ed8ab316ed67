import { z } from "zod";

/**
 * Data tables (doc 2 §3 dictionary: database name, introduction, query mode, storage field name,
 * data type, necessity). The paths are ours (the spec leaves them out), under /aiagent_api/datatable.
 */
export const DATA_TYPES = ["text", "number", "integer", "date", "datetime", "boolean"] as const;
export const dataType = z.enum(DATA_TYPES);
export type DataType = z.infer<typeof dataType>;

/** How an agent or a rule reads the table: by SQL through the read-only guard, or by exact field match. */
export const QUERY_MODES = ["sql", "exact"] as const;
export const queryMode = z.enum(QUERY_MODES);

/** Table and field names are SQL identifiers: lower-case letters, digits, underscore. */
export const DATA_TABLE_NAME = /^[a-z][a-z0-9_]{0,62}$/;
export const DATA_TABLE_MAX_FIELDS = 50;
export const DATA_TABLE_MAX_ROWS = 50_000;
export const DATA_TABLE_IMPORT_MAX_ROWS = 10_000;
export const DATA_TABLE_PAGE_SIZE = 20;
/** Rows a query returns at most (the rest is cut and `truncated` is set). */
export const DATA_QUERY_MAX_ROWS = 1000;

export const dataField = z.object({
  /** Storage field name: the column name in SQL. */
  name: z.string().trim().regex(DATA_TABLE_NAME, "lower-case letters, digits and underscores, starting with a letter"),
  /** Display name. */
  label: z.string().trim().max(64).default(""),
  type: dataType,
  required: z.boolean().default(false),
});
export type DataField = z.infer<typeof dataField>;

export const dataTableInput = z.object({
  name: z.string().trim().regex(DATA_TABLE_NAME, "lower-case letters, digits and underscores, starting with a letter"),
  introduction: z.string().max(2000).default(""),
  queryMode: queryMode.default("sql"),
  fields: z.array(dataField).min(1).max(DATA_TABLE_MAX_FIELDS),
});
export type DataTableInput = z.infer<typeof dataTableInput>;
export const dataTableUpdate = dataTableInput.extend({ id: z.string().min(1).max(64) });

export const dataTable = z.object({
  id: z.string(),
  name: z.string(),
  introduction: z.string(),
  queryMode,
  fields: z.array(dataField),
  rowCount: z.number(),
  createdBy: z.string(),
  createdTime: z.string(),
  updatedTime: z.string(),
});
export type DataTable = z.infer<typeof dataTable>;

export const dataTablePageRequest = z.object({
  name: z.string().max(100).optional(),
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(DATA_TABLE_PAGE_SIZE),
});
export const dataTablePage = z.object({ list: z.array(dataTable), total: z.number() });

/** A row: `_id` plus one value per field (dates as YYYY-MM-DD, date-times as ISO text). */
export const dataRow = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));
export type DataRow = z.infer<typeof dataRow>;
export const dataRowValues = z.record(z.string(), z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]));
export const dataRowsPageRequest = z.object({
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(DATA_TABLE_PAGE_SIZE),
});
export const dataRowsPage = z.object({ list: z.array(dataRow), total: z.number() });

export const importRejection = z.object({ row: z.number(), reason: z.string() });
export const dataImportResult = z.object({ imported: z.number(), rejected: z.array(importRejection) });
export type DataImportResult = z.infer<typeof dataImportResult>;

/** POST /aiagent_api/datatable/query: one read-only SELECT over the caller's tenant's data tables. */
export const dataQueryRequest = z.object({ sql: z.string().min(1).max(20_000) });
export const dataQueryResult = z.object({
  columns: z.array(z.string()),
  rows: z.array(z.array(z.union([z.string(), z.number(), z.boolean(), z.null()]))),
  truncated: z.boolean().optional(),
});
export type DataQueryResult = z.infer<typeof dataQueryResult>;
