import { z } from "zod";

/**
 * The rule engine library (doc 2 §2 "Rules editor dialog", §3 Rule and Rule parameter, §7 rule
 * calls, §8, §9). The spec leaves paths and payloads out; ours are under /aiagent_api/rule.
 */
export const RULE_DIALOG_WIDTH = 840;
/** Suffix "save as" appends to the name of the copy. */
export const RULE_COPY_SUFFIX = { zh: "-副本", en: " (copy)" } as const;
/** The rule key: what the model and other systems call the rule by. */
export const RULE_KEY = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
export const RULE_PARAM_NAME = /^[A-Za-z_\u4e00-\u9fff][A-Za-z0-9_\u4e00-\u9fff]{0,63}$/;
export const RULE_MAX_PARAMS = 50;
/** How many input1..N fields a project's field config may name. */
export const RULE_MAX_INPUTS = 10;

export const RULE_PARAM_TYPES = ["basic", "sql"] as const;
export const ruleParam = z.object({
  name: z.string().trim().max(64),
  type: z.enum(RULE_PARAM_TYPES).default("basic"),
  description: z.string().max(500).default(""),
  tableName: z.string().max(64).default(""),
  sql: z.string().max(5000).default(""),
});
export type RuleParam = z.infer<typeof ruleParam>;

/** The input1..N keys of a project's field config. */
export const RULE_INPUT_KEY = /^input([1-9]|10)$/;
const inputKey = RULE_INPUT_KEY;

export const rule = z
  .object({
    id: z.string(),
    projectId: z.string(),
    dirId: z.string().nullable(),
    name: z.string(),
    ruleKey: z.string(),
    description: z.string(),
    remark: z.string(),
    useData: z.number(),
    formKeys: z.array(z.string()),
    params: z.array(ruleParam),
    expression: z.string(),
    showExpression: z.string(),
    expressionCn: z.string(),
    aiRemark: z.string(),
    isPublic: z.boolean(),
    category: z.string(),
    creator: z.string(),
    updater: z.string(),
    createTime: z.string(),
    updateTime: z.string(),
    /** The remark changed since the expression was generated: save asks to generate first. */
    stale: z.boolean(),
    /** Editable by the caller (owner or administrator); public rules of others are read-only. */
    mine: z.boolean(),
  })
  .catchall(z.unknown());
export type Rule = z.infer<typeof rule>;

export const ruleSaveRequest = z
  .object({
    id: z.string().max(64).optional().nullable(),
    projectId: z.string().min(1).max(64),
    dirId: z.string().max(64).optional().nullable(),
    name: z.string().max(100).default(""),
    ruleKey: z.string().max(64).default(""),
    description: z.string().max(2000).default(""),
    remark: z.string().max(4000).default(""),
    useData: z.union([z.literal(0), z.literal(1)]).default(1),
    formKeys: z.array(z.string().max(64)).max(20).default([]),
    params: z.array(ruleParam).max(RULE_MAX_PARAMS).default([]),
    expression: z.string().max(10_000).default(""),
    aiRemark: z.string().max(4000).default(""),
    isPublic: z.boolean().default(false),
    category: z.string().max(64).default(""),
  })
  // input1..N of the project's field config (texts; anything else is dropped by the server).
  .catchall(z.unknown());
export type RuleSaveRequest = z.infer<typeof ruleSaveRequest>;

export const ruleStateRequest = z.object({
  id: z.string().min(1).max(64),
  useData: z.union([z.literal(0), z.literal(1)]).optional(),
  isPublic: z.boolean().optional(),
});

export const ruleFieldConfig = z.object({ key: z.string().regex(inputKey), label: z.string().trim().min(1).max(64) });
export const ruleProjectInput = z.object({
  name: z.string().trim().min(1).max(64),
  description: z.string().max(500).default(""),
  fieldConfig: z.array(ruleFieldConfig).max(RULE_MAX_INPUTS).default([]),
});
export const ruleProjectUpdate = ruleProjectInput.extend({ id: z.string().min(1).max(64) });
export const ruleDirInput = z.object({ projectId: z.string().min(1).max(64), name: z.string().trim().min(1).max(64) });
export const ruleDirUpdate = z.object({ id: z.string().min(1).max(64), name: z.string().trim().min(1).max(64) });

export const ruleTreeRule = z.object({
  id: z.string(),
  name: z.string(),
  ruleKey: z.string(),
  useData: z.number(),
  isPublic: z.boolean(),
  mine: z.boolean(),
});
export const ruleTreeDir = z.object({ id: z.string(), name: z.string(), rules: z.array(ruleTreeRule) });
/** The ruleTree: projects with ruleDirs with rules (also what an agent's `ruleTree` holds). */
export const ruleTreeProject = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  fieldConfig: z.array(ruleFieldConfig),
  mine: z.boolean(),
  ruleDirs: z.array(ruleTreeDir),
});
export type RuleTreeProject = z.infer<typeof ruleTreeProject>;

/**
 * POST /aiagent_api/rule/test. Two forms: `{expression, params: {name: value}}`, or the editor's
 * encoded form `{exp, params}` where exp is the expression and params the JSON of the values, each
 * passed through encodeURIComponent (so any text survives proxies that rewrite bodies).
 * `ruleParams` (optional) lets SQL fields be computed through the read-only guard.
 */
export const ruleTestRequest = z.object({
  expression: z.string().max(2_000_000).optional(),
  exp: z.string().max(2_000_000).optional(),
  params: z.union([z.record(z.string(), z.unknown()), z.string().max(1_000_000)]).optional(),
  ruleParams: z.array(ruleParam).max(RULE_MAX_PARAMS).optional(),
});
export const ruleTraceStep = z.object({ expression: z.string(), value: z.unknown() });
export const ruleTestResult = z.object({ value: z.unknown(), trace: z.array(ruleTraceStep) });

export const ruleFunction = z.object({ name: z.string(), description: z.string(), example: z.string() });
export type RuleFunction = z.infer<typeof ruleFunction>;

export const ruleAiExpressionRequest = z.object({
  projectId: z.string().max(64).optional(),
  remark: z.string().max(4000).default(""),
  params: z.array(ruleParam).max(RULE_MAX_PARAMS).default([]),
});
export const ruleAiExpressionResult = z.object({
  expression: z.string(),
  showExpression: z.string(),
  expressionCn: z.string(),
  aiRemark: z.string(),
});
export const ruleAiSqlRequest = z.object({
  projectId: z.string().max(64).default(""),
  /** The parameter content: what the SQL should compute. */
  question: z.string().max(2000).default(""),
  /** The parameter name. */
  name: z.string().max(64).default(""),
  tableNames: z.array(z.string().max(64)).max(10).default([]),
});
export const ruleAiSqlResult = z.object({ sql: z.string() });

/** A data source a rule may read (the form list by projectId): the tenant's data tables. */
export const ruleForm = z.object({
  name: z.string(),
  introduction: z.string(),
  fields: z.array(z.object({ name: z.string(), label: z.string(), type: z.string() })),
});
