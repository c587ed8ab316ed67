import type { CardTemplateConfig } from "@agentfair/contracts";
import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns.ts";
import { ownedColumns } from "./owned.ts";
import { plugins } from "./tools.ts";

/** Card templates (doc 2 §3 Card template; dictionary: card name, group, template, data source), per owner and tenant. */
export const cardTemplates = pgTable(
  "card_templates",
  {
    id: id(),
    ...ownedColumns(),
    name: text("name").notNull(),
    group: text("group_name").notNull().default(""),
    config: jsonb("config").$type<CardTemplateConfig>().notNull(),
    /** The sample tool result the editor previews with. */
    sample: jsonb("sample"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("card_templates_owner").on(t.ownerId, t.updatedAt)],
);

/** A plugin's card: when the bound tool returns, the reply carries the card filled with its result. One card per plugin. */
export const cardBindings = pgTable(
  "card_bindings",
  {
    pluginId: text("plugin_id")
      .primaryKey()
      .references(() => plugins.id, { onDelete: "cascade" }),
    cardId: text("card_id")
      .notNull()
      .references(() => cardTemplates.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index("card_bindings_card").on(t.cardId)],
);
