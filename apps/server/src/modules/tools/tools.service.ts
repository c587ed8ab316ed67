import { createHash } from "node:crypto";
import net from "node:net";
import {
  CALLABLE_NAME,
  type Plugin,
  type PluginInput,
  type PluginPage,
  type PluginTestResult,
  type PluginType,
  STATUS_FILTER,
  TYPE_FILTER,
  pluginInput as pluginInputSchema,
  type pluginPageRequest,
} from "@agentfair/contracts";
import { generateText } from "ai";
import type { z } from "zod";
import type { plugins, PluginDefinition } from "../../db/schema/tools.ts";
import type { Caller } from "../../platform/auth.ts";
import { insertWithinLimit } from "../../platform/count-limit.ts";
import { AppError, badRequest, notFound } from "../../platform/errors.ts";
import { BlockedAddressError, createSafeFetch, isBlockedAddress } from "../../platform/net.ts";
import type { Platform } from "../../platform/platform.ts";
import type { Sandboxes } from "../../platform/sandbox/index.ts";
import { openSecret, sealSecret } from "../../platform/secret.ts";
import type { Billing } from "../billing/billing.seam.ts";
import type { ModelsService } from "../models/models.service.ts";
import { chatModelOf } from "../models/provider.ts";
import { slugCallableName, uniqueCallableName } from "./callable-name.ts";
import { ImportError, parseCurl, parseOpenApi } from "./openapi-import.ts";
import { type McpClient, STDIO_PREFIX } from "./mcp-client.ts";
import { ParameterError, PluginRunner } from "./plugin-runner.ts";
import { type PluginRow, ToolsRepository } from "./tools.repository.ts";

const SECRET_PURPOSE = "plugins";
/** §9 industries: the groups offered before a user has entered their own. */
export const DEFAULT_GROUPS = ["证券", "人力资源", "基金", "营销", "政务", "金融", "通信", "保险", "银行", "医疗", "制造", "期货"];

/** The group of imported tools saved without a tag. */
const IMPORTED_GROUP = "默认分组";

/** Types a builder creates through the plugin form (workflows have their own issue; MCP tools come from a server). */
const FORM_TYPES: PluginType[] = ["HTTP", "JAVASCRIPT", "PYTHON3", "MCP"];

/**
 * What the plan card calls 插件 and limits (the member template's pluginsNum): the tools list's
 * 插件 filter, HTTP, JavaScript and Python plugins. Workflows and MCP tools are not counted.
 */
export const COUNTED_PLUGIN_TYPES: readonly PluginType[] = TYPE_FILTER[1];

export interface ToolsDeps {
  models?: () => ModelsService | undefined;
  mcp?: McpClient;
  /** The caller's plan limits (pluginsNum); without it no limit applies. */
  billing?: () => Pick<Billing, "planLimits"> | undefined;
}

/** Tools: the plugins builders make, test, publish and bind to agents. One access check for all. */
export class ToolsService {
  readonly repo: ToolsRepository;
  readonly runner: PluginRunner;

  constructor(
    private readonly platform: Platform,
    readonly sandboxes: Sandboxes,
    private readonly deps: ToolsDeps = {},
  ) {
    this.repo = new ToolsRepository(platform.db);
    const c = platform.config;
    this.runner = new PluginRunner(
      { timeoutMs: c.PLUGIN_TIMEOUT_MS, maxResponseBytes: c.PLUGIN_RESPONSE_MAX_BYTES, allowHosts: c.NET_ALLOW_HOSTS },
      sandboxes,
      deps.mcp,
    );
  }

  // ---- access --------------------------------------------------------------------------------

  /** The one access check: administrators see every plugin, others their own and the standard ones; the rest is not found. */
  private async readable(caller: Caller, id: string) {
    const found = await this.repo.byId(id);
    if (!found) throw notFound();
    const { plugin } = found;
    const mine = plugin.ownerId === caller.userId && plugin.tenantId === caller.tenantId;
    if (!caller.isAdmin && !mine && !plugin.standard) throw notFound();
    return found;
  }

  private canEdit(caller: Caller, row: PluginRow) {
    return (
      (caller.isAdmin || (row.ownerId === caller.userId && row.tenantId === caller.tenantId)) && !row.standard && row.pluginType !== "MCP"
    );
  }

  /** Editing is for administrators and the creator; MCP and built-in plugins are never edited. */
  private async editable(caller: Caller, id: string) {
    const found = await this.readable(caller, id);
    const { plugin } = found;
    if (plugin.standard || plugin.pluginType === "MCP") throw badRequest("pluginNotModifiable");
    if (!this.canEdit(caller, plugin)) throw notFound();
    return found;
  }

  // ---- wire ------------------------------------------------------------------------------------

  toWire(row: PluginRow, createdBy: string, caller: Caller | null): Plugin {
    const d = row.definition;
    return {
      id: row.id,
      pluginName: row.pluginName,
      pluginDescription: row.pluginDescription,
      pluginIcon: row.pluginIcon,
      pluginIconBackground: row.pluginIconBackground,
      pluginType: row.pluginType as PluginType,
      pluginStatus: row.pluginStatus as Plugin["pluginStatus"],
      pluginCallableName: row.pluginCallableName,
      pluginTags: row.pluginTags,
      pluginKind: row.pluginKind as Plugin["pluginKind"],
      createdBy,
      standard: row.standard,
      editable: !!caller && this.canEdit(caller, row),
      lastModifiedDate: row.lastModifiedAt.toISOString(),
      parameters: d.parameters,
      headers: d.headers,
      body: d.body,
      pathVariables: d.pathVariables,
      url: d.url,
      method: d.method as Plugin["method"],
      contentType: d.contentType as Plugin["contentType"],
      rawBody: d.rawBody,
      code: d.code,
      netEnabled: d.netEnabled,
      netAllowHosts: d.netAllowHosts,
      auth: d.auth,
      hasAuthSecret: !!row.authSecretEnc,
      mcp: d.mcp,
      testSucceeded: !!row.testedHash && row.testedHash === hashOf(row),
    };
  }

  // ---- list, read --------------------------------------------------------------------------------

  async page(caller: Caller | null, req: z.infer<typeof pluginPageRequest>): Promise<PluginPage> {
    // Logged-out visitors see an empty list (§6).
    if (!caller) return { content: [], totalPages: 0, totalElements: 0 };
    const typeCodes = req.pluginTypes === undefined ? [] : Array.isArray(req.pluginTypes) ? req.pluginTypes : [req.pluginTypes];
    const types = typeCodes.filter((t) => t !== 0).flatMap((t) => TYPE_FILTER[t] ?? []);
    const all = caller.isAdmin && !req.createdByMe;
    const { list, total } = await this.repo.page(
      {
        ownerId: all ? null : caller.userId,
        withStandard: !req.createdByMe || !!req.includeStandard,
        name: req.pluginName || undefined,
        types: typeCodes.some((t) => t !== 0) ? types : undefined,
        status: req.pluginStatus ? STATUS_FILTER[req.pluginStatus] : undefined,
        from: dateOf(req.timeRangeStart, false),
        to: dateOf(req.timeRangeEnd, true),
      },
      req.pageNumber,
      req.pageSize,
    );
    return {
      content: list.map((r) => this.toWire(r.plugin, r.createdBy, caller)),
      totalElements: total,
      totalPages: Math.ceil(total / req.pageSize),
    };
  }

  async get(caller: Caller, id: string): Promise<Plugin> {
    const { plugin, createdBy } = await this.readable(caller, id);
    return this.toWire(plugin, createdBy, caller);
  }

  /** Groups to choose from: the §9 industries and the caller's own tags. */
  async groups(caller: Caller | null): Promise<string[]> {
    const own = caller ? await this.repo.tagsOf(caller.userId) : [];
    return [...new Set([...DEFAULT_GROUPS, ...own])];
  }

  // ---- create, update, delete ---------------------------------------------------------------------

  async create(caller: Caller, input: PluginInput): Promise<{ id: string }> {
    const values = await this.valuesOf(caller, input);
    const [row] = await this.insertCounted(caller, [values]);
    return { id: row.id };
  }

  /** A checked plugin row of the caller's (the form's rules, a free callable name, the credential sealed). */
  private async valuesOf(caller: Caller, input: PluginInput): Promise<typeof plugins.$inferInsert> {
    const type = this.validate(caller, input);
    if (await this.repo.callableNameTaken(caller.userId, input.pluginCallableName)) throw badRequest("callableNameTaken");
    return {
      tenantId: caller.tenantId,
      ownerId: caller.userId,
      ...this.identityOf(input),
      pluginType: type,
      definition: definitionOf(input),
      authSecretEnc: input.authSecret ? sealSecret(this.platform.secret, SECRET_PURPOSE, input.authSecret) : null,
    };
  }

  /**
   * Inserts the caller's new plugins together, or none: those the plan counts (COUNTED_PLUGIN_TYPES) must
   * fit in its pluginsNum with the ones the caller owns, counted under the caller's lock so parallel
   * creates cannot pass it together.
   */
  private async insertCounted(caller: Caller, rows: (typeof plugins.$inferInsert)[]) {
    const adding = rows.filter((r) => COUNTED_PLUGIN_TYPES.includes(r.pluginType as PluginType)).length;
    const limit = adding ? ((await this.deps.billing?.()?.planLimits(caller))?.plugins ?? null) : null;
    return insertWithinLimit(this.platform.db, `plugins:${caller.userId}`, limit, {
      adding,
      count: (tx) => this.repo.countOwn(tx, caller.userId, COUNTED_PLUGIN_TYPES),
      refuse: (max) => badRequest("pluginLimitReached", { count: max }),
      insert: (tx) => this.repo.insertMany(tx, rows),
    }).catch(nameTaken);
  }

  async update(caller: Caller, id: string, input: PluginInput): Promise<Plugin> {
    const { plugin } = await this.editable(caller, id);
    const type = this.validate(caller, { ...input, pluginType: plugin.pluginType as PluginType });
    if (await this.repo.callableNameTaken(plugin.ownerId, input.pluginCallableName, id)) throw badRequest("callableNameTaken");
    const definition = definitionOf(input);
    const authSecretEnc = input.authSecret ? sealSecret(this.platform.secret, SECRET_PURPOSE, input.authSecret) : plugin.authSecretEnc;
    const next = { ...plugin, definition, authSecretEnc, pluginType: type };
    // A changed definition is unpublished again until it passes a new test: hirers never run untested edits.
    const changed = hashOf(next) !== hashOf(plugin);
    const row = await this.repo
      .update(id, {
        ...this.identityOf(input),
        definition,
        authSecretEnc,
        pluginStatus: changed ? "C00_Unreleased" : plugin.pluginStatus,
        lastModifiedAt: new Date(),
      })
      .catch(nameTaken);
    const { createdBy } = await this.readable(caller, id);
    return this.toWire(row, createdBy, caller);
  }

  async remove(caller: Caller, id: string) {
    const { plugin } = await this.readable(caller, id);
    if (plugin.standard) throw badRequest("pluginNotModifiable");
    if (!(caller.isAdmin || (plugin.ownerId === caller.userId && plugin.tenantId === caller.tenantId))) throw notFound();
    await this.repo.remove(id);
  }

  /**
   * Creates several plugins at once (OpenAPI import, MCP server tools): callable names made unique.
   * All or none: every one is checked first, and together they must fit in the plan's plugin limit.
   */
  async createMany(caller: Caller, inputs: PluginInput[], opts: { release: boolean; tag: string; type?: PluginType }) {
    const rows: (typeof plugins.$inferInsert)[] = [];
    const taken = new Set<string>();
    for (const input of inputs) {
      const base = CALLABLE_NAME.test(input.pluginCallableName)
        ? input.pluginCallableName
        : slugCallableName(input.pluginName || input.pluginDescription);
      const name = await uniqueCallableName(
        base,
        async (n) => taken.has(n.toLowerCase()) || (await this.repo.callableNameTaken(caller.userId, n)),
      );
      taken.add(name.toLowerCase());
      const filled: PluginInput = {
        ...input,
        pluginType: opts.type ?? input.pluginType ?? "HTTP",
        pluginCallableName: name,
        pluginName: input.pluginName || name,
        pluginDescription: input.pluginDescription || input.pluginName || name,
        pluginIcon: input.pluginIcon || "1",
        pluginTags: opts.tag ? [opts.tag] : input.pluginTags.length ? input.pluginTags : [IMPORTED_GROUP],
      };
      rows.push(await this.valuesOf(caller, filled));
    }
    if (!rows.length) return [];
    return (await this.insertCounted(caller, rows)).map((r) => r.id);
  }

  private identityOf(input: PluginInput) {
    return {
      pluginName: input.pluginName,
      pluginDescription: input.pluginDescription,
      pluginIcon: input.pluginIcon,
      pluginIconBackground: input.pluginIconBackground,
      pluginCallableName: input.pluginCallableName,
      pluginTags: [...new Set(input.pluginTags)],
      pluginKind: input.pluginKind,
    };
  }

  /** §5's form rules, in the form's order, with its messages; then what running needs. */
  private validate(caller: Caller, input: PluginInput): PluginType {
    if (!input.pluginTags.length) throw badRequest("pluginGroupRequired");
    if (!input.pluginName) throw badRequest("pluginNameRequired");
    if (!input.pluginDescription) throw badRequest("pluginDescriptionRequired");
    if (!input.pluginCallableName) throw badRequest("callableNameRequired");
    if (!CALLABLE_NAME.test(input.pluginCallableName)) throw badRequest("callableNameInvalid");
    if (!input.pluginType) throw badRequest("pluginTypeRequired");
    if (!input.pluginIcon) throw badRequest("pluginIconRequired");
    const type = input.pluginType;
    if (!FORM_TYPES.includes(type)) throw badRequest("pluginTypeNotSupported");
    if (type === "HTTP") checkUrl(input.url, this.platform.config.NET_ALLOW_HOSTS);
    if ((type === "JAVASCRIPT" || type === "PYTHON3") && !/\bmain\b/.test(input.code)) throw badRequest("pluginCodeRequired");
    // Hosts only (a name or address, with an optional port): what the code's fetch compares to.
    if (input.netAllowHosts.some((h) => !/^([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(:\d{1,5})?$/i.test(h)))
      throw badRequest("urlInvalid");
    if (type === "MCP") {
      if (!input.mcp?.serverUrl || !input.mcp.toolName) throw badRequest("urlInvalid");
      this.checkMcpServer(caller, input.mcp.serverUrl);
    }
    return type;
  }

  /** MCP servers: URLs follow the HTTP rules; stdio servers are for administrators, from their list only. */
  private checkMcpServer(caller: Caller, serverUrl: string) {
    if (serverUrl.startsWith(STDIO_PREFIX)) {
      if (!caller.isAdmin || !this.deps.mcp?.stdioCommand(serverUrl)) throw badRequest("mcpStdioNotAllowed");
      return;
    }
    checkUrl(serverUrl, this.platform.config.NET_ALLOW_HOSTS);
  }

  /** Connects to an MCP server and makes one MCP plugin per tool it lists. */
  async addMcpServer(caller: Caller, input: { serverUrl: string; pluginTags: string[]; pluginIcon: string; pluginIconBackground: string }) {
    const serverUrl = input.serverUrl.trim();
    if (!serverUrl) throw badRequest("urlInvalid");
    this.checkMcpServer(caller, serverUrl);
    const mcp = this.deps.mcp;
    if (!mcp) throw badRequest("pluginTypeNotSupported");
    let listed: Awaited<ReturnType<McpClient["listTools"]>>;
    try {
      listed = await mcp.listTools(serverUrl);
    } catch (err) {
      throw importFailure(err, "mcpConnectFailed");
    }
    const inputs: PluginInput[] = listed.map((tool) => ({
      ...pluginInputDefaults,
      pluginName: tool.name.slice(0, 100),
      pluginDescription: (tool.description || tool.name).slice(0, 2000),
      pluginIcon: input.pluginIcon || "1",
      pluginIconBackground: input.pluginIconBackground || "#e8f3ff",
      pluginType: "MCP",
      pluginCallableName: slugCallableName(tool.name.replace(/([a-z0-9])([A-Z])/g, "$1_$2")),
      pluginTags: input.pluginTags,
      mcp: { serverUrl, toolName: tool.name, inputSchema: tool.inputSchema },
    }));
    return this.createMany(caller, inputs, { release: false, tag: input.pluginTags[0] ?? "", type: "MCP" });
  }

  // ---- import ---------------------------------------------------------------------------------------

  /** OpenAPI (URL or pasted JSON/YAML) → one plugin per operation, for review before saving. */
  async parseOpenApi(source: string, baseUrl: string): Promise<PluginInput[]> {
    if (!source.trim()) throw badRequest("openApiRequired");
    if (!baseUrl.trim()) throw badRequest("baseUrlRequired");
    checkUrl(baseUrl.trim(), this.platform.config.NET_ALLOW_HOSTS);
    if (/^https?:\/\//i.test(source.trim())) checkUrl(source.trim(), this.platform.config.NET_ALLOW_HOSTS);
    try {
      return await parseOpenApi(source, baseUrl, createSafeFetch({ allowHosts: this.platform.config.NET_ALLOW_HOSTS }));
    } catch (err) {
      throw importFailure(err, "openApiInvalid");
    }
  }

  parseCurl(command: string): PluginInput[] {
    if (!command.trim()) throw badRequest("openApiRequired");
    try {
      const plugin = parseCurl(command);
      checkUrl(plugin.url, this.platform.config.NET_ALLOW_HOSTS);
      return [plugin];
    } catch (err) {
      throw importFailure(err, "curlInvalid");
    }
  }

  /** Saves reviewed imports (unpublished: each needs its own test before publishing). */
  async saveImported(caller: Caller, inputs: PluginInput[], tag: string) {
    return this.createMany(caller, inputs, { release: false, tag, type: "HTTP" });
  }

  // ---- callable names ------------------------------------------------------------------------------

  /** A callable name from the name and description: a model's suggestion when one is usable, else the pinyin slug; unique per owner. */
  async callableName(caller: Caller, pluginName: string, pluginDescription: string): Promise<string> {
    const text = pluginName.trim() || pluginDescription.trim();
    if (!text) throw badRequest("callableNameSourceRequired");
    const base = (await this.suggestByModel(caller, pluginName, pluginDescription)) ?? slugCallableName(text);
    return uniqueCallableName(base, (n) => this.repo.callableNameTaken(caller.userId, n));
  }

  private async suggestByModel(caller: Caller, name: string, description: string): Promise<string | null> {
    const model = await this.deps
      .models?.()
      ?.usable(caller.tenantId, "LLM")
      .catch(() => null);
    if (!model) return null;
    try {
      const { text } = await generateText({
        model: chatModelOf(model),
        prompt: `Give one snake_case English function name (letters, digits, underscores; at most 40 characters) for this tool. Answer with the name only.\nName: ${name.slice(0, 100)}\nDescription: ${description.slice(0, 500)}`,
        maxOutputTokens: 20,
        maxRetries: 0,
        abortSignal: AbortSignal.timeout(5000),
      });
      // The name alone (quotes and a full stop aside), or nothing: an answer in words is not one,
      // and its first word ("give", from a model that echoes the prompt) would be a poor name.
      const candidate = text
        .trim()
        .replace(/^[`'"]+|[`'".]+$/g, "")
        .toLowerCase();
      return CALLABLE_NAME.test(candidate) && candidate.length <= 40 ? candidate : null;
    } catch {
      return null;
    }
  }

  // ---- test and publish ------------------------------------------------------------------------------

  /** A test run of the current definition; a passed one unlocks publishing it. */
  async test(caller: Caller, id: string, params: Record<string, unknown>): Promise<PluginTestResult> {
    const { plugin } = await this.readable(caller, id);
    const result = await this.execute(plugin, params);
    if (result.ok && this.canEdit(caller, plugin)) await this.repo.markTested(id, hashOf(plugin));
    return result;
  }

  async publish(caller: Caller, id: string): Promise<Plugin> {
    const { plugin, createdBy } = await this.readable(caller, id);
    if (plugin.standard) throw badRequest("pluginNotModifiable");
    if (!(caller.isAdmin || (plugin.ownerId === caller.userId && plugin.tenantId === caller.tenantId))) throw notFound();
    if (plugin.testedHash !== hashOf(plugin)) throw new AppError("debugBeforeRelease", 400);
    const row = await this.repo.update(id, { pluginStatus: "C90_Released" });
    return this.toWire(row, createdBy, caller);
  }

  /** One call of a plugin with its owner's stored credentials (callers never see them). */
  async execute(plugin: PluginRow, args: Record<string, unknown>, signal?: AbortSignal): Promise<PluginTestResult> {
    const secret = plugin.authSecretEnc ? openSecret(this.platform.secret, SECRET_PURPOSE, plugin.authSecretEnc) : undefined;
    try {
      return await this.runner.run(plugin.pluginType, plugin.definition, args, {
        tenantId: plugin.tenantId,
        ownerId: plugin.ownerId,
        secret,
        signal,
      });
    } catch (err) {
      if (err instanceof ParameterError)
        return { ok: false, result: null, status: 0, durationMs: 0, error: err.message, request: null, logs: [] };
      throw err;
    }
  }
}

/** The definition a test vouches for: type, everything that runs, and the credential. */
export function hashOf(row: Pick<PluginRow, "pluginType" | "definition" | "authSecretEnc">) {
  return createHash("sha256")
    .update(canonical([row.pluginType, row.definition, row.authSecretEnc ?? ""]))
    .digest("hex");
}

/** JSON with object keys sorted: jsonb gives keys back in its own order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value ?? null);
}

export function definitionOf(input: PluginInput): PluginDefinition {
  return {
    parameters: input.parameters,
    headers: input.headers,
    body: input.body,
    pathVariables: input.pathVariables,
    url: input.url,
    method: input.method,
    contentType: input.contentType,
    rawBody: input.rawBody,
    code: input.code,
    netEnabled: input.netEnabled,
    netAllowHosts: [...new Set(input.netAllowHosts.map((h) => h.toLowerCase()))],
    auth: input.auth,
    mcp: input.mcp ? { serverUrl: input.mcp.serverUrl, toolName: input.mcp.toolName, inputSchema: input.mcp.inputSchema } : null,
  };
}

/**
 * A URL a plugin may call: http(s), with a host, and not a literal private, loopback or link-local
 * address (names are checked again at every connect by the safe fetch, after DNS).
 */
export function checkUrl(raw: string, allowHosts: string[]) {
  let url: URL;
  try {
    url = new URL(raw.replace(/\{[\w.-]+\}/g, "x"));
  } catch {
    throw badRequest("urlInvalid");
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) throw badRequest("urlInvalid");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const allowed = allowHosts.includes(url.hostname) || allowHosts.includes(url.host);
  if (!allowed && ((net.isIP(host) && isBlockedAddress(host)) || /^localhost$|\.localhost$/i.test(host)))
    throw new AppError("urlRefused", 400, { detail: url.hostname });
}

/** Two saves of one callable name at once: the unique index decides, and the loser hears why. */
function nameTaken(err: unknown): never {
  const codes = [(err as { code?: string })?.code, (err as { cause?: { code?: string } })?.cause?.code];
  if (codes.includes("23505")) throw badRequest("callableNameTaken");
  throw err;
}

const pluginInputDefaults = pluginInputSchema.parse({});

function importFailure(err: unknown, key: "openApiInvalid" | "curlInvalid" | "mcpConnectFailed") {
  if (err instanceof AppError) return err;
  const blocked = err instanceof BlockedAddressError ? err : (err as { cause?: unknown })?.cause;
  if (blocked instanceof BlockedAddressError) return new AppError("urlRefused", 400, { detail: blocked.target });
  if (/blocked address/.test((err as Error)?.message ?? "")) return new AppError("urlRefused", 400, { detail: (err as Error).message });
  if (err instanceof ImportError) return new AppError(key, 400, { detail: err.message });
  return new AppError(key, 400, { detail: ((err as Error)?.message ?? String(err)).slice(0, 300) });
}

function dateOf(value: string | undefined, endOfDay: boolean): Date | undefined {
  if (!value) return undefined;
  const plainDay = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const d = new Date(plainDay ? `${value}T${endOfDay ? "23:59:59.999" : "00:00:00"}+08:00` : value);
  return Number.isNaN(d.getTime()) ? undefined : d;
}
