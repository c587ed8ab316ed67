import { z } from "zod";
import { pluginStatus } from "./tools.ts";

/**
 * Workflows (doc 2 §3 "Workflow create", §5, §7 `POST /aiagent_api/workflow`, §8): a versioned graph that
 * is also a tool (a plugin row of pluginType WORKFLOW). Calls beyond `POST /workflow` and "list workflows"
 * are this platform's own (the spec shows no paths for them); all answer with the envelope code 200.
 *
 * Variable references are strings `{{nodeId.field}}` (or `{{nodeId.field.sub.0}}` into objects and lists);
 * a value that is exactly one reference keeps its type, a reference inside text is written as text.
 */

export const WORKFLOW_NAME_MAX = 100;
export const WORKFLOW_PAGE_SIZE = 20;
export const WORKFLOW_RUN_PAGE_SIZE = 20;
/** Limits of one graph (checked on save). */
export const WORKFLOW_MAX_NODES = 300;
export const WORKFLOW_MAX_EDGES = 1000;
/** The most branches of one iteration that run at once. */
export const ITERATION_PARALLELISM_MAX = 10;

/** §3: the create modal's fields (workflow type). Required fields are checked by the server with §5's messages. */
export const workflowInput = z.object({
  workflowName: z.string().trim().max(WORKFLOW_NAME_MAX).default(""),
  workflowDescription: z.string().trim().max(2000).default(""),
  workflowIcon: z.string().trim().max(200).default("1"),
  workflowIconBackground: z.string().trim().max(32).default("#e8f3ff"),
  /** The name the model calls it by; unique per owner among all of the owner's tools. */
  workflowCallableName: z.string().trim().max(64).default(""),
  /** The industry group (choose or enter). */
  workflowTags: z.array(z.string().trim().min(1).max(50)).max(10).default([]),
});
export type WorkflowInput = z.infer<typeof workflowInput>;

export const workflowCallableNameRequest = z.object({
  workflowName: z.string().max(WORKFLOW_NAME_MAX).default(""),
  workflowDescription: z.string().max(2000).default(""),
});

// ---------------------------------------------------------------------------------------------------------------
// Nodes

/** Every node type; after start, in the order the canvas's palette offers them. */
export const NODE_TYPES = [
  "start",
  "llm",
  "knowledge",
  "tool",
  "code",
  "http",
  "condition",
  "classifier",
  "extractor",
  "template",
  "assign",
  "aggregate",
  "list",
  "loop",
  "iteration",
  "subworkflow",
  "answer",
  "human",
  "agent",
  "end",
] as const;
export const nodeType = z.enum(NODE_TYPES);
export type NodeType = z.infer<typeof nodeType>;

export const VARIABLE_TYPES = ["string", "number", "boolean", "object", "array"] as const;
export const variableType = z.enum(VARIABLE_TYPES);
export type VariableType = z.infer<typeof variableType>;

/** A variable name usable in references: letters, digits and underscores, not starting with a digit. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const variableName = z.string().trim().regex(VARIABLE_NAME);
/** A template or a reference: any text with `{{nodeId.field}}` in it. */
const tpl = z.string().max(100_000);
const tplMap = z.record(variableName, tpl);

/** What a node does when it fails after its retries: fail the run, output `defaultOutput`, or follow its `fail` edge. */
export const ERROR_STRATEGIES = ["fail", "default", "branch"] as const;
export const errorStrategy = z.enum(ERROR_STRATEGIES);
/** The sourceHandle of a node's fail branch (errorStrategy "branch"); its output is `{error}`. */
export const FAIL_HANDLE = "fail";
/** The sourceHandle of a condition's else branch. */
export const ELSE_HANDLE = "else";

/** Settings every node may carry in its data beside its own fields. */
export const nodeCommon = z.object({
  /** Shown on the canvas and in traces. */
  title: z.string().max(100).optional(),
  /** Wall-clock limit of one try (ms); each type has a default. */
  timeoutMs: z.number().int().min(10).max(600_000).optional(),
  /** Retries after the first try, with exponential backoff from `retryBackoffMs`. */
  retries: z.number().int().min(0).max(10).optional(),
  retryBackoffMs: z.number().int().min(0).max(60_000).optional(),
  onError: errorStrategy.optional(),
  /** The output used when onError is "default". */
  defaultOutput: z.record(z.string(), z.unknown()).optional(),
});
export type NodeCommon = z.infer<typeof nodeCommon>;

export const startInput = z.object({
  name: variableName,
  type: variableType,
  required: z.boolean().optional(),
  description: z.string().max(500).optional(),
  /** Used when the run's inputs lack it. */
  default: z.unknown().optional(),
});

export const CONDITION_OPERATORS = [
  "equals",
  "notEquals",
  "contains",
  "notContains",
  "startsWith",
  "endsWith",
  "isEmpty",
  "isNotEmpty",
  "gt",
  "gte",
  "lt",
  "lte",
] as const;
export const conditionOperator = z.enum(CONDITION_OPERATORS);
export const condition = z.object({
  /** A reference, e.g. `{{code1.score}}`. */
  variable: tpl,
  operator: conditionOperator,
  /** A literal or a template; ignored by isEmpty and isNotEmpty. */
  value: tpl.default(""),
});
export type Condition = z.infer<typeof condition>;
export const conditionCase = z.object({
  /** The sourceHandle of the edge taken when this case holds (cases are tried in order; none holds: "else"). */
  id: z.string().min(1).max(64),
  logic: z.enum(["and", "or"]).default("and"),
  conditions: z.array(condition).min(1).max(50),
});

const keyValue = z.object({ name: z.string().max(200), value: tpl });

export const nodeData = {
  /** Inputs of the run; referenced as `{{start.name}}` (the start node's id). */
  start: nodeCommon.extend({ inputs: z.array(startInput).max(100).default([]) }),
  /** The run's outputs. */
  end: nodeCommon.extend({ outputs: tplMap.default({}) }),
  /** Text written into the chat (and the run's `answer`); output `{text}`. */
  answer: nodeCommon.extend({ text: tpl.default("") }),
  /** Output `{text, json?, usage}`; `json` when jsonOutput asks the model for a JSON object. */
  llm: nodeCommon.extend({
    /** A model id of the models module; empty: the caller's default chat model. */
    modelId: z.string().max(64).default(""),
    systemPrompt: tpl.default(""),
    prompt: tpl.default(""),
    temperature: z.number().min(0).max(2).optional(),
    jsonOutput: z.boolean().default(false),
  }),
  /** Output `{result: [{title, content, score}], text}`. */
  knowledge: nodeCommon.extend({
    knowledgeIds: z.array(z.string().max(64)).max(20).default([]),
    query: tpl.default(""),
    topK: z.number().int().min(1).max(50).default(5),
  }),
  /** Any plugin or MCP tool of the registry the owner may use; output `{result}`. */
  tool: nodeCommon.extend({ pluginId: z.string().max(64).default(""), params: z.record(z.string(), tpl).default({}) }),
  /**
   * `code` defines `main(params)`; its returned object is the output. `outputs` declares the fields later
   * nodes may reference (checked on save); a draft without it may reference any field.
   */
  code: nodeCommon.extend({
    language: z.enum(["javascript", "python"]).default("javascript"),
    code: z.string().max(100_000).default(""),
    params: tplMap.default({}),
    outputs: z
      .array(z.object({ name: variableName, type: variableType }))
      .max(50)
      .optional(),
  }),
  /** Through the platform's safe fetch; output `{status, body, json, headers}`. */
  http: nodeCommon.extend({
    method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]).default("GET"),
    url: tpl.default(""),
    headers: z.array(keyValue).max(50).default([]),
    query: z.array(keyValue).max(50).default([]),
    bodyType: z.enum(["none", "json", "form", "raw"]).default("none"),
    body: tpl.default(""),
  }),
  /** if / else-if / else: the edge whose sourceHandle is the first case that holds, else "else". Output `{case}`. */
  condition: nodeCommon.extend({ cases: z.array(conditionCase).max(50).default([]) }),
  /** The model picks a class; the edge whose sourceHandle is that class id is taken. Output `{classId, className}`. */
  classifier: nodeCommon.extend({
    modelId: z.string().max(64).default(""),
    query: tpl.default(""),
    classes: z
      .array(z.object({ id: z.string().min(1).max(64), name: z.string().max(500) }))
      .max(50)
      .default([]),
    instruction: tpl.default(""),
  }),
  /** The model fills the parameters from the query; output is one field per parameter. */
  extractor: nodeCommon.extend({
    modelId: z.string().max(64).default(""),
    query: tpl.default(""),
    parameters: z
      .array(
        z.object({
          name: variableName,
          type: variableType,
          description: z.string().max(500).default(""),
          required: z.boolean().default(false),
        }),
      )
      .max(50)
      .default([]),
    instruction: tpl.default(""),
  }),
  /** Output `{output}`: the template with its references filled in. */
  template: nodeCommon.extend({ template: tpl.default("") }),
  /** Output: one field per assignment (a reference keeps its type; `type` converts). */
  assign: nodeCommon.extend({
    assignments: z
      .array(z.object({ name: variableName, type: variableType, value: tpl }))
      .max(100)
      .default([]),
  }),
  /** Joins branches: output `{output}` = the first reference that has a value ("first") or all values ("array"). */
  aggregate: nodeCommon.extend({ variables: z.array(tpl).max(200).default([]), mode: z.enum(["first", "array"]).default("first") }),
  /** Output `{result}` (and `{result}` is a number for "length"). */
  list: nodeCommon.extend({
    input: tpl.default(""),
    operation: z.enum(["filter", "sort", "slice", "first", "last", "length", "unique", "reverse", "join"]).default("first"),
    /** filter: a condition on each item (`variable` is a path in the item, e.g. "score" or "" for the item itself). */
    filter: condition.optional(),
    /** sort: a path in the item; slice: start and end. */
    key: z.string().max(200).default(""),
    order: z.enum(["asc", "desc"]).default("asc"),
    start: z.number().int().default(0),
    end: z.number().int().optional(),
    separator: z.string().max(100).default(","),
  }),
  /**
   * Repeats its body (the nodes whose `parentId` is this node) until a break condition holds or maxIterations.
   * Inside the body `{{loopId.index}}` and `{{loopId.last}}` (the previous pass's output) are available.
   * Output `{results, count}`: `output` of each pass.
   */
  loop: nodeCommon.extend({
    maxIterations: z.number().int().min(1).max(1000).default(10),
    breakConditions: z.array(condition).max(20).default([]),
    logic: z.enum(["and", "or"]).default("and"),
    output: tpl.default(""),
  }),
  /**
   * Runs its body once per item of `items`, at most `parallelism` at once; inside `{{iterId.item}}` and
   * `{{iterId.index}}`. Output `{results}` in item order.
   */
  iteration: nodeCommon.extend({
    items: tpl.default(""),
    parallelism: z.number().int().min(1).max(ITERATION_PARALLELISM_MAX).default(1),
    output: tpl.default(""),
  }),
  /** Runs another workflow of the owner (its released version) to its end; output: its outputs. */
  /**
   * Output: the sub-workflow's outputs. `outputs` names them (its released end nodes' outputs, taken by the
   * editor when the workflow is picked) so later nodes can pick them.
   */
  subworkflow: nodeCommon.extend({
    workflowId: z.string().max(64).default(""),
    inputs: z.record(z.string(), tpl).default({}),
    outputs: z.array(z.string().max(64)).max(100).default([]),
  }),
  /** Pauses the run (status PAUSED) until a user answers; output: the answered fields. */
  human: nodeCommon.extend({
    prompt: tpl.default(""),
    fields: z
      .array(
        z.object({ name: variableName, type: variableType, label: z.string().max(200).default(""), required: z.boolean().default(true) }),
      )
      .max(50)
      .default([]),
  }),
  /** Asks another agent the caller may use (its released version); output `{text}`. */
  agent: nodeCommon.extend({ agentId: z.string().max(64).default(""), query: tpl.default("") }),
} satisfies Record<NodeType, z.ZodTypeAny>;
export type NodeDataOf<T extends NodeType> = z.infer<(typeof nodeData)[T]>;

export const graphNode = z.object({
  id: z.string().trim().min(1).max(64),
  type: nodeType,
  /** Checked against `nodeData[type]` by the server (messages name the node). */
  data: z.record(z.string(), z.unknown()).default({}),
  position: z.object({ x: z.number(), y: z.number() }).optional(),
  /** A loop's or iteration's body node: the id of that loop (xyflow's sub-flow). */
  parentId: z.string().max(64).optional(),
});
export type GraphNode = z.infer<typeof graphNode>;

export const graphEdge = z.object({
  id: z.string().max(128).optional(),
  source: z.string().min(1).max(64),
  target: z.string().min(1).max(64),
  /** A condition case id, "else", a classifier class id, or "fail". */
  sourceHandle: z.string().max(64).nullish(),
});
export type GraphEdge = z.infer<typeof graphEdge>;

export const workflowGraph = z.object({
  nodes: z.array(graphNode).max(WORKFLOW_MAX_NODES),
  edges: z.array(graphEdge).max(WORKFLOW_MAX_EDGES),
});
export type WorkflowGraph = z.infer<typeof workflowGraph>;

// ---------------------------------------------------------------------------------------------------------------
// Workflows

export const workflow = z.object({
  id: z.string(),
  workflowName: z.string(),
  workflowDescription: z.string(),
  workflowIcon: z.string(),
  workflowIconBackground: z.string(),
  workflowCallableName: z.string(),
  workflowTags: z.array(z.string()),
  /** C90_Released once a version was released. */
  pluginStatus,
  draft: workflowGraph,
  /** The latest released version, null before the first release. */
  released: workflowGraph.nullable(),
  releasedVersion: z.number().int().nullable(),
  /** The draft differs from the released version. */
  draftChanged: z.boolean(),
  createdBy: z.string(),
  lastModifiedDate: z.string(),
});
export type Workflow = z.infer<typeof workflow>;

export const workflowSummary = workflow.omit({ draft: true, released: true });
export type WorkflowSummary = z.infer<typeof workflowSummary>;

export const workflowPageRequest = z.object({
  workflowName: z.string().trim().max(WORKFLOW_NAME_MAX).optional(),
  pageNumber: z.coerce.number().int().min(0).max(100_000).default(0),
  pageSize: z.coerce.number().int().min(1).max(100).default(WORKFLOW_PAGE_SIZE),
});
export const workflowPage = z.object({
  content: z.array(workflowSummary),
  totalPages: z.number(),
  totalElements: z.number(),
});

export const releaseResult = z.object({ version: z.number().int() });

// ---------------------------------------------------------------------------------------------------------------
// Runs

export const RUN_STATUSES = ["RUNNING", "PAUSED", "SUCCEEDED", "FAILED"] as const;
export const runStatus = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof runStatus>;

/** PAUSED: a human-input node waiting for its answer; SKIPPED: on a branch not taken. */
export const NODE_RUN_STATUSES = ["RUNNING", "PAUSED", "SUCCEEDED", "FAILED", "SKIPPED"] as const;
export const nodeRunStatus = z.enum(NODE_RUN_STATUSES);
export type NodeRunStatus = z.infer<typeof nodeRunStatus>;

export const runRequest = z.object({
  inputs: z.record(z.string(), z.unknown()).default({}),
  /** Run the draft (the editor's test run) instead of the released version; the owner only. Default: draft. */
  version: z.enum(["draft", "released"]).default("draft"),
});
export const runStarted = z.object({ runId: z.string() });

export const nodeRun = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  /** "" at the top level; inside a loop or iteration, e.g. "loop1[2]" (nested: "loop1[2]/iter1[0]"). */
  scope: z.string(),
  status: nodeRunStatus,
  input: z.unknown().nullable(),
  output: z.unknown().nullable(),
  error: z.string().nullable(),
  attempts: z.number().int(),
  tokens: z.number().int(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().nullable(),
});
export type NodeRun = z.infer<typeof nodeRun>;

/** What a paused run waits for. */
export const humanInputRequest = z.object({
  nodeId: z.string(),
  scope: z.string(),
  prompt: z.string(),
  fields: nodeData.human.shape.fields,
});
export type HumanInputRequest = z.infer<typeof humanInputRequest>;

export const workflowRun = z.object({
  id: z.string(),
  workflowId: z.string(),
  workflowName: z.string(),
  status: runStatus,
  /** "draft" or the released version number. */
  version: z.string(),
  inputs: z.record(z.string(), z.unknown()),
  outputs: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
  /** The node a FAILED run stopped at (resume starts there). */
  failedNodeId: z.string().nullable(),
  waiting: humanInputRequest.nullable(),
  tokens: z.number().int(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().nullable(),
  nodes: z.array(nodeRun),
});
export type WorkflowRun = z.infer<typeof workflowRun>;

export const workflowRunSummary = workflowRun.omit({ nodes: true });
export type WorkflowRunSummary = z.infer<typeof workflowRunSummary>;
export const runPageRequest = z.object({
  pageNumber: z.coerce.number().int().min(0).max(100_000).default(0),
  pageSize: z.coerce.number().int().min(1).max(100).default(WORKFLOW_RUN_PAGE_SIZE),
});
export const runPage = z.object({ content: z.array(workflowRunSummary), totalPages: z.number(), totalElements: z.number() });

export const humanInputAnswer = z.object({
  nodeId: z.string().min(1).max(64),
  /** The paused node's scope (as in `waiting.scope`); "" at the top level. */
  scope: z.string().max(500).default(""),
  values: z.record(z.string(), z.unknown()).default({}),
});

// ---------------------------------------------------------------------------------------------------------------
// Run events: `GET /aiagent_api/workflow/runs/{runId}/events` (server-sent events, `data:` lines of JSON).
// The stream starts with a `snapshot` of the run, then sends changes; it ends after a terminal `run` event
// (SUCCEEDED or FAILED) or a PAUSED one. Closing it does not stop the run.

export const workflowEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("snapshot"), run: workflowRun }),
  z.object({ type: z.literal("node"), node: nodeRun }),
  /** A piece of an answer node's text as it is produced (this process's runs; the node event brings the whole). */
  z.object({ type: z.literal("delta"), nodeId: z.string(), scope: z.string(), text: z.string() }),
  z.object({
    type: z.literal("run"),
    status: runStatus,
    outputs: z.record(z.string(), z.unknown()).nullable(),
    error: z.string().nullable(),
    waiting: humanInputRequest.nullable(),
  }),
]);
export type WorkflowEvent = z.infer<typeof workflowEvent>;
