import type { HumanInputRequest, WorkflowGraph } from "@agentfair/contracts";
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns.ts";
import { plugins } from "./tools.ts";

/**
 * Workflows: the graph of a plugin row of pluginType WORKFLOW (its name, icon, callable name and
 * status live on that row, so the tools list, bindings and the tool registry see it as any tool).
 */
export const workflows = pgTable("workflows", {
  id: text("id")
    .primaryKey()
    .references(() => plugins.id, { onDelete: "cascade" }),
  draft: jsonb("draft").$type<WorkflowGraph>().notNull(),
  releasedVersion: integer("released_version"),
  draftUpdatedAt: timestamp("draft_updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Released versions: immutable graphs that agents and callers run. */
export const workflowVersions = pgTable(
  "workflow_versions",
  {
    workflowId: text("workflow_id")
      .notNull()
      .references(() => workflows.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    graph: jsonb("graph").$type<WorkflowGraph>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workflowId, t.version] })],
);

/**
 * One run. It holds the graph it runs (a resumed draft run takes the current draft), and a lease:
 * the process executing it renews `leaseUntil`; a RUNNING run whose lease lapsed belongs to a dead
 * process and is taken over by the next sweep.
 */
export const workflowRuns = pgTable(
  "workflow_runs",
  {
    id: id(),
    workflowId: text("workflow_id")
      .notNull()
      .references(() => workflows.id, { onDelete: "cascade" }),
    tenantId: text("tenant_id").notNull(),
    ownerId: text("owner_id").notNull(),
    /** Who started it (the owner, or an agent's caller through the tool registry). */
    startedBy: text("started_by").notNull(),
    version: text("version").notNull(),
    graph: jsonb("graph").$type<WorkflowGraph>().notNull(),
    status: text("status").notNull(),
    inputs: jsonb("inputs").$type<Record<string, unknown>>().notNull(),
    outputs: jsonb("outputs").$type<Record<string, unknown>>(),
    error: text("error"),
    failedNodeId: text("failed_node_id"),
    waiting: jsonb("waiting").$type<HumanInputRequest>(),
    tokens: integer("tokens").notNull().default(0),
    /** Nesting through sub-workflow nodes (limited). */
    depth: integer("depth").notNull().default(0),
    leaseOwner: text("lease_owner"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("workflow_runs_workflow").on(t.workflowId, t.startedAt), index("workflow_runs_status").on(t.status, t.leaseUntil)],
);

/** Every node's start, output, error and timing, written as it happens: the run's checkpoints. */
export const workflowNodeRuns = pgTable(
  "workflow_node_runs",
  {
    runId: text("run_id")
      .notNull()
      .references(() => workflowRuns.id, { onDelete: "cascade" }),
    /** Scope and node id: "code1", or "loop1[2]/code1" inside a loop's pass. */
    key: text("key").notNull(),
    nodeId: text("node_id").notNull(),
    scope: text("scope").notNull().default(""),
    type: text("type").notNull(),
    title: text("title").notNull().default(""),
    status: text("status").notNull(),
    input: jsonb("input"),
    output: jsonb("output"),
    /** The branch taken (a condition case, a class, "fail"); null: every plain edge. */
    handle: text("handle"),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    tokens: integer("tokens").notNull().default(0),
    seq: integer("seq").notNull().default(0),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.runId, t.key] })],
);
