import type { DataField } from "@agentfair/contracts";
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns.ts";
import { ownedColumns } from "./owned.ts";

/**
 * Data tables: the description of each table. Its rows live in a table of its own in the
 * `datatables` schema (`datatables.t_<id>`), created and altered by the module.
 */
export const dataTables = pgTable(
  "data_tables",
  {
    id: id(),
    ...ownedColumns(),
    /**
     * The name SQL uses, mapped to the physical table by the query guard: unique among the tables
     * readable beside it (its owner's; in an organisation, the tenant's: checked by the module).
     */
    name: text("name").notNull(),
    introduction: text("introduction").notNull().default(""),
    queryMode: text("query_mode").notNull().default("sql"),
    fields: jsonb("fields").$type<DataField[]>().notNull(),
    physicalName: text("physical_name").notNull().unique(),
    rowCount: integer("row_count").notNull().default(0),
    /** Counts every change of the columns or the rows: a copy of the rows made at one version is still the table. */
    version: integer("version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("data_tables_owner_name").on(t.tenantId, t.ownerId, sql`lower(${t.name})`), index("data_tables_owner").on(t.ownerId)],
);
