import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns.ts";
import { ownedColumns } from "./owned.ts";
import { users } from "./users.ts";

export interface RuleParamRow {
  name: string;
  type: "basic" | "sql";
  description: string;
  tableName: string;
  sql: string;
}
export interface RuleFieldConfig {
  key: string;
  label: string;
}

/** Rule projects: the top of the rule tree; their field config names the rules' input1..N. */
export const ruleProjects = pgTable(
  "rule_projects",
  {
    id: id(),
    ...ownedColumns(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    fieldConfig: jsonb("field_config").$type<RuleFieldConfig[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [index("rule_projects_owner").on(t.ownerId)],
);

export const ruleDirs = pgTable(
  "rule_dirs",
  {
    id: id(),
    projectId: text("project_id")
      .notNull()
      .references(() => ruleProjects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("rule_dirs_project").on(t.projectId)],
);

/** Rules (doc 2 §3 Rule): an expression in the formula language over named parameters. */
export const rules = pgTable(
  "rules",
  {
    id: id(),
    projectId: text("project_id")
      .notNull()
      .references(() => ruleProjects.id, { onDelete: "cascade" }),
    dirId: text("dir_id").references(() => ruleDirs.id, { onDelete: "cascade" }),
    ...ownedColumns(),
    name: text("name").notNull(),
    ruleKey: text("rule_key").notNull(),
    description: text("description").notNull().default(""),
    remark: text("remark").notNull().default(""),
    /** 1 enabled, 0 disabled. */
    useData: integer("use_data").notNull().default(1),
    formKeys: jsonb("form_keys").$type<string[]>().notNull().default([]),
    params: jsonb("params").$type<RuleParamRow[]>().notNull().default([]),
    expression: text("expression").notNull().default(""),
    showExpression: text("show_expression").notNull().default(""),
    expressionCn: text("expression_cn").notNull().default(""),
    /** The remark the current expression was generated from; a different remark means the expression is stale. */
    aiRemark: text("ai_remark").notNull().default(""),
    isPublic: boolean("is_public").notNull().default(false),
    category: text("category").notNull().default(""),
    /** input1..N, named by the project's field config. */
    inputs: jsonb("inputs").$type<Record<string, string>>().notNull().default({}),
    updatedBy: text("updated_by").references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("rules_project_key").on(t.projectId, sql`lower(${t.ruleKey})`),
    index("rules_dir").on(t.dirId),
    index("rules_tenant").on(t.tenantId),
  ],
);

/**
 * A rule the model proposed from the chat (chatOption.enableFastConfigRuleOnChat), waiting for the
 * user's confirmation in a later message of the same session; the confirmation saves it.
 */
export interface RuleProposalPayload {
  name: string;
  ruleKey: string;
  remark: string;
  params: RuleParamRow[];
  expression: string;
  aiRemark: string;
}
export const ruleProposals = pgTable(
  "rule_proposals",
  {
    id: id(),
    ...ownedColumns({ ownerOnDelete: "cascade" }),
    sessionId: text("session_id").notNull(),
    payload: jsonb("payload").$type<RuleProposalPayload>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("rule_proposals_owner").on(t.ownerId, t.sessionId)],
);
