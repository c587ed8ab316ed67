import type { Widget } from "@agentfair/contracts";
import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns.ts";
import { ownedColumns } from "./owned.ts";
import { plugins } from "./tools.ts";

/** Designer forms and pages (doc 2 §3 Widget): one tree of widgets per design, owned by one user. */
export const designs = pgTable(
  "designs",
  {
    id: id(),
    ...ownedColumns({ ownerOnDelete: "cascade" }),
    name: text("name").notNull(),
    widgetList: jsonb("widget_list").$type<Widget[]>().notNull().default([]),
    sampleResult: text("sample_result").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("designs_owner").on(t.ownerId, t.updatedAt)],
);

/** A tool's result design: when the bound plugin returns, the reply renders this design fed by its result. One design per plugin. */
export const designBindings = pgTable(
  "design_bindings",
  {
    pluginId: text("plugin_id")
      .primaryKey()
      .references(() => plugins.id, { onDelete: "cascade" }),
    designId: text("design_id")
      .notNull()
      .references(() => designs.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index("design_bindings_design").on(t.designId)],
);
