import { z } from "zod";

/** Tools (doc 2 §3, §7 "Tools", §9): plugins of several types, under /aiagent_api/. */
export const PLUGIN_TYPES = ["PYTHON3", "HTTP", "JAVASCRIPT", "MCP", "WORKFLOW"] as const;
export const pluginType = z.enum(PLUGIN_TYPES);
export type PluginType = z.infer<typeof pluginType>;

export const PLUGIN_STATUSES = ["C00_Unreleased", "C90_Released"] as const;
export const pluginStatus = z.enum(PLUGIN_STATUSES);
export type PluginStatus = z.infer<typeof pluginStatus>;

/** §9 plugin kinds: backend service, docker service, client. */
export const PLUGIN_KINDS = ["BACKEND", "DOCKER", "CLIENT"] as const;
export const pluginKind = z.enum(PLUGIN_KINDS);

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"] as const;
export const httpMethod = z.enum(HTTP_METHODS);
/** Body content types of an HTTP plugin. */
export const CONTENT_TYPES = ["json", "form", "multipart", "raw"] as const;
export const contentType = z.enum(CONTENT_TYPES);

/** §9 type filter: 0 all, 1 plugins (PYTHON3, HTTP, JAVASCRIPT), 2 workflows, 3 MCP. */
export const TYPE_FILTER: Record<number, PluginType[]> = {
  1: ["PYTHON3", "HTTP", "JAVASCRIPT"],
  2: ["WORKFLOW"],
  3: ["MCP"],
};
/** §9 status filter: 1 unpublished, 2 published. */
export const STATUS_FILTER: Record<number, PluginStatus> = { 1: "C00_Unreleased", 2: "C90_Released" };
export const PLUGIN_PAGE_SIZE = 20;

/** A callable name the model can use: letters, digits and underscores, starting with a letter. */
export const CALLABLE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
export const PLUGIN_CODE_MAX = 100_000;

/** Parameter row (§3): also used for headers, body fields and path variables. */
export const parameterRow = z.object({
  name: z.string().trim().min(1).max(128),
  fixedValue: z.string().max(10_000).default(""),
  description: z.string().max(1000).default(""),
  required: z.boolean().default(false),
  /** Allowed values; the model chooses one of them. */
  options: z.array(z.string().max(500)).max(100).default([]),
  type: z.enum(["text-input", "number"]).default("text-input"),
});
export type ParameterRow = z.infer<typeof parameterRow>;
const rows = z.array(parameterRow).max(100).default([]);

/** How an HTTP plugin authenticates; the secret is write-only (stored encrypted). */
export const pluginAuth = z.object({
  type: z.enum(["none", "apiKey", "bearer"]).default("none"),
  /** apiKey: where the key goes and under which name. */
  in: z.enum(["header", "query"]).default("header"),
  name: z.string().max(128).default(""),
});
export type PluginAuth = z.infer<typeof pluginAuth>;

/** MCP tool: the server and the tool's name on it. */
export const mcpSettings = z.object({
  serverUrl: z.string().max(2000).default(""),
  toolName: z.string().max(200).default(""),
  /** JSON schema of the tool's input as the server listed it. */
  inputSchema: z.record(z.string(), z.unknown()).optional(),
});

/** The fields a builder edits (create and update). Required fields are checked by the server with §5's messages. */
export const pluginInput = z.object({
  pluginName: z.string().trim().max(100).default(""),
  pluginDescription: z.string().trim().max(2000).default(""),
  pluginIcon: z.string().trim().max(200).default(""),
  pluginIconBackground: z.string().trim().max(32).default("#e8f3ff"),
  pluginType: pluginType.optional(),
  pluginCallableName: z.string().trim().max(64).default(""),
  /** The industry group (choose or enter). */
  pluginTags: z.array(z.string().trim().min(1).max(50)).max(10).default([]),
  pluginKind: pluginKind.default("BACKEND"),
  parameters: rows,
  headers: rows,
  body: rows,
  pathVariables: rows,
  url: z.string().trim().max(2000).default(""),
  method: httpMethod.default("GET"),
  contentType: contentType.default("json"),
  /** A raw body template (contentType raw); `{{name}}` is replaced by the parameter's value. */
  rawBody: z.string().max(100_000).default(""),
  /** JAVASCRIPT and PYTHON3: source defining `main(params)`. */
  code: z.string().max(PLUGIN_CODE_MAX).default(""),
  /** JAVASCRIPT: the code may call `fetch` (through the platform's safe fetch) to these hosts only. */
  netEnabled: z.boolean().default(false),
  netAllowHosts: z.array(z.string().trim().min(1).max(253)).max(20).default([]),
  auth: pluginAuth.default({ type: "none", in: "header", name: "" }),
  /** Write-only: a new API key or bearer token; empty keeps the stored one. */
  authSecret: z.string().max(4000).optional(),
  mcp: mcpSettings.optional(),
});
export type PluginInput = z.infer<typeof pluginInput>;

export const plugin = z.object({
  id: z.string(),
  pluginName: z.string(),
  pluginDescription: z.string(),
  pluginIcon: z.string(),
  pluginIconBackground: z.string(),
  pluginType,
  pluginStatus,
  pluginCallableName: z.string(),
  pluginTags: z.array(z.string()),
  pluginKind,
  createdBy: z.string(),
  standard: z.boolean(),
  /** The caller may edit it (administrator or creator, and neither MCP nor standard). */
  editable: z.boolean(),
  lastModifiedDate: z.string(),
  parameters: z.array(parameterRow),
  headers: z.array(parameterRow),
  body: z.array(parameterRow),
  pathVariables: z.array(parameterRow),
  url: z.string(),
  method: httpMethod,
  contentType,
  rawBody: z.string(),
  code: z.string(),
  netEnabled: z.boolean(),
  netAllowHosts: z.array(z.string()),
  auth: pluginAuth,
  hasAuthSecret: z.boolean(),
  mcp: mcpSettings.nullable(),
  /** A successful test of the current definition: publishing is allowed. */
  testSucceeded: z.boolean(),
});
export type Plugin = z.infer<typeof plugin>;

export const pluginPageRequest = z.object({
  pluginName: z.string().trim().max(100).optional(),
  pageNumber: z.coerce.number().int().min(0).max(100_000).default(0),
  pageSize: z.coerce.number().int().min(1).max(100).default(PLUGIN_PAGE_SIZE),
  /** 0 all, 1 plugins, 2 workflows, 3 MCP (a number or a list of them). */
  pluginTypes: z.union([z.coerce.number().int(), z.array(z.coerce.number().int())]).optional(),
  /** 0 all, 1 unpublished, 2 published. */
  pluginStatus: z.coerce.number().int().optional(),
  timeRangeStart: z.string().max(40).optional(),
  timeRangeEnd: z.string().max(40).optional(),
  createdByMe: z.boolean().optional(),
  /** Beyond the spec: with createdByMe, the standard (built-in) tools too (what an agent may bind). */
  includeStandard: z.boolean().optional(),
});
export const pluginPage = z.object({ content: z.array(plugin), totalPages: z.number(), totalElements: z.number() });
export type PluginPage = z.infer<typeof pluginPage>;

export const callableNameRequest = z.object({
  pluginName: z.string().max(100).default(""),
  pluginDescription: z.string().max(2000).default(""),
});

export const pluginTestRequest = z.object({ params: z.record(z.string(), z.unknown()).default({}) });
export const pluginTestResult = z.object({
  ok: z.boolean(),
  result: z.unknown(),
  /** HTTP status of an HTTP plugin's answer (0 for code and MCP plugins). */
  status: z.number(),
  durationMs: z.number(),
  error: z.string().nullable(),
  /** What was sent (HTTP plugins: method and URL, secrets masked). */
  request: z.object({ method: z.string(), url: z.string() }).nullable(),
  logs: z.array(z.string()),
});
export type PluginTestResult = z.infer<typeof pluginTestResult>;

/** Import source (§3). */
export const openApiParseRequest = z.object({
  openApiSchemaOrUrl: z.string().max(2_000_000).default(""),
  baseUrl: z.string().max(2000).default(""),
});
export const openApiSaveRequest = z.object({
  release: z.boolean().default(false),
  plugins: z.array(pluginInput).min(1).max(200),
  tag: z.string().trim().max(50).default(""),
});
export const curlImportRequest = z.object({ curl: z.string().max(100_000).default("") });
export const openApiParseResult = z.object({ plugins: z.array(pluginInput) });
export const mcpServerRequest = z.object({
  /** An http(s) URL, or `stdio:NAME` for a command an administrator listed (administrators only). */
  serverUrl: z.string().trim().max(2000).default(""),
  pluginTags: z.array(z.string().trim().min(1).max(50)).max(10).default(["MCP"]),
  pluginIcon: z.string().trim().max(200).default("1"),
  pluginIconBackground: z.string().trim().max(32).default("#e8f3ff"),
});
