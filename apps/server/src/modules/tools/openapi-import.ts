import SwaggerParser from "@apidevtools/swagger-parser";
import type { ParameterRow, PluginInput } from "@agentfair/contracts";
import { pluginInput } from "@agentfair/contracts";
import YAML from "yaml";
import { slugCallableName } from "./callable-name.ts";

/** The import failed for a reason the user can act on (shown in the message). */
export class ImportError extends Error {}

const METHODS = ["get", "post", "put", "patch", "delete", "head"] as const;
const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;
/** The document and its external `$ref`s together: a pasted document of 30,000 refs to 5 MB answers was 150 GB. */
const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
const MAX_OPERATIONS = 200;

// biome-ignore lint/suspicious/noExplicitAny: a parsed document of any OpenAPI version is walked field by field
type Obj = Record<string, any>;

/**
 * OpenAPI 3.0 / 3.1 and Swagger 2 documents, from a URL or pasted JSON or YAML, into one HTTP
 * plugin per operation. `$ref`s anywhere are dereferenced by swagger-parser; external ones are
 * read only through the given (safe) fetch: the file resolver is off, so `file:` and local paths
 * never resolve, and private addresses are refused like any user URL.
 */
export async function parseOpenApi(source: string, baseUrl: string, safeFetch: typeof fetch): Promise<PluginInput[]> {
  const text = source.trim();
  const fromUrl = /^https?:\/\//i.test(text) && !/\s/.test(text);
  const budget: ReadBudget = { left: MAX_IMPORT_BYTES, failure: null };
  const raw = fromUrl ? await readUrl(text, safeFetch, budget) : text;
  let doc: Obj;
  try {
    doc = YAML.parse(raw, { maxAliasCount: 100 }) as Obj;
  } catch (err) {
    throw new ImportError(`not JSON or YAML (${(err as Error).message.split("\n")[0]})`);
  }
  if (!doc || typeof doc !== "object" || (!doc.openapi && !doc.swagger)) throw new ImportError("no openapi or swagger version field");
  if (!doc.paths || typeof doc.paths !== "object") throw new ImportError("no paths");
  let api: Obj;
  try {
    const options = {
      resolve: {
        file: false,
        http: false,
        external: true,
        safe: {
          order: 1,
          canRead: /^https?:\/\//i,
          read: async (file: { url: string }) => readUrl(file.url, safeFetch, budget),
        },
      },
      dereference: { circular: "ignore" as const },
    } as unknown as SwaggerParser.Options;
    // The document's own URL is the base of its relative $refs; pasted text has none (relative refs fail).
    api = (await SwaggerParser.dereference(fromUrl ? text : "https://import.invalid/openapi.json", doc as never, options)) as Obj;
  } catch (err) {
    // swagger-parser names the file it could not read; the size limit is the reason to give.
    if (budget.failure) throw budget.failure;
    throw new ImportError((err as Error).message.split("\n")[0].slice(0, 300));
  }
  const base = serverBase(api, baseUrl);
  const schemes = securitySchemes(api);
  const out: PluginInput[] = [];
  for (const [path, item] of Object.entries(api.paths as Obj)) {
    if (!item || typeof item !== "object") continue;
    // In the document's order, as a reviewer reads it.
    for (const method of Object.keys(item).filter((k): k is (typeof METHODS)[number] => (METHODS as readonly string[]).includes(k))) {
      const op = item[method] as Obj | undefined;
      if (!op) continue;
      if (out.length >= MAX_OPERATIONS) throw new ImportError(`more than ${MAX_OPERATIONS} operations`);
      out.push(operationPlugin(api, base, path, method, item, op, schemes));
    }
  }
  if (!out.length) throw new ImportError("no operations");
  return out;
}

/** A document read as it comes, up to 5 MB and what is left of the import's 20 MB (the body was read whole before). */
interface ReadBudget {
  left: number;
  failure: ImportError | null;
}

async function readUrl(url: string, safeFetch: typeof fetch, budget: ReadBudget): Promise<string> {
  const tooLarge = (message: string) => {
    budget.failure ??= new ImportError(message);
    return budget.failure;
  };
  if (budget.left <= 0) throw tooLarge("the document and its references are larger than 20 MB");
  const res = await safeFetch(url, { signal: AbortSignal.timeout(15_000), headers: { accept: "application/json, application/yaml, */*" } });
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new ImportError(`HTTP ${res.status} from ${url}`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    budget.left -= value.byteLength;
    if (size > MAX_DOCUMENT_BYTES || budget.left < 0) {
      await reader.cancel().catch(() => {});
      throw tooLarge(
        size > MAX_DOCUMENT_BYTES ? "the document is larger than 5 MB" : "the document and its references are larger than 20 MB",
      );
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Where the operations are called: baseUrl, whose `{variables}` take the document's first server's
 * defaults (every variable of it), or — when baseUrl is a bare origin — the origin plus the
 * document's own base path (Swagger 2 basePath, or a server URL's path).
 */
function serverBase(api: Obj, baseUrl: string): string {
  const server = Array.isArray(api.servers) ? (api.servers[0] as Obj | undefined) : undefined;
  const vars: Record<string, string> = {};
  for (const [name, v] of Object.entries((server?.variables ?? {}) as Obj)) vars[name] = String((v as Obj)?.default ?? "");
  const fill = (s: string) => s.replace(/\{([^}]+)\}/g, (m, name: string) => vars[name] ?? m);
  let docPath = "";
  if (api.swagger) docPath = String(api.basePath ?? "");
  else if (server?.url) {
    try {
      docPath = new URL(fill(String(server.url)), "https://x.invalid").pathname;
    } catch {
      docPath = "";
    }
  }
  const base = fill(baseUrl.trim()).replace(/\/+$/, "");
  const url = new URL(base);
  if ((url.pathname === "/" || url.pathname === "") && docPath && docPath !== "/") return `${url.origin}${docPath.replace(/\/+$/, "")}`;
  return base;
}

type Auth = PluginInput["auth"];

function securitySchemes(api: Obj): Record<string, Auth> {
  const defs = (api.components?.securitySchemes ?? api.securityDefinitions ?? {}) as Obj;
  const out: Record<string, Auth> = {};
  for (const [name, s] of Object.entries(defs)) {
    if (s?.type === "apiKey" && (s.in === "header" || s.in === "query"))
      out[name] = { type: "apiKey", in: s.in, name: String(s.name ?? "") };
    else if (s?.type === "http" && String(s.scheme).toLowerCase() === "bearer") out[name] = { type: "bearer", in: "header", name: "" };
    else if (s?.type === "oauth2") out[name] = { type: "bearer", in: "header", name: "" };
  }
  return out;
}

function authOf(api: Obj, op: Obj, schemes: Record<string, Auth>): Auth {
  const requirements = (op.security ?? api.security ?? []) as Obj[];
  for (const req of requirements) for (const name of Object.keys(req ?? {})) if (schemes[name]) return schemes[name];
  return { type: "none", in: "header", name: "" };
}

function rowOf(name: string, schema: Obj | undefined, description: string | undefined, required: boolean): ParameterRow {
  const s = schema ?? {};
  const t = Array.isArray(s.type) ? s.type.find((x: string) => x !== "null") : s.type;
  return {
    name,
    fixedValue: "",
    description: String(description ?? s.description ?? "").slice(0, 1000),
    required,
    options: Array.isArray(s.enum) ? s.enum.slice(0, 100).map(String) : [],
    type: t === "integer" || t === "number" ? "number" : "text-input",
  };
}

function rowsOfSchema(schema: Obj | undefined): ParameterRow[] {
  if (!schema || typeof schema !== "object") return [];
  const props = { ...(schema.properties ?? {}) } as Obj;
  const required = new Set<string>(schema.required ?? []);
  for (const part of schema.allOf ?? []) {
    Object.assign(props, part?.properties ?? {});
    for (const r of part?.required ?? []) required.add(r);
  }
  return Object.entries(props)
    .slice(0, 100)
    .map(([name, s]) => rowOf(name, s as Obj, undefined, required.has(name)));
}

function operationPlugin(
  api: Obj,
  base: string,
  path: string,
  method: string,
  item: Obj,
  op: Obj,
  schemes: Record<string, Auth>,
): PluginInput {
  const params = [...((item.parameters ?? []) as Obj[]), ...((op.parameters ?? []) as Obj[])].filter((p) => p && typeof p === "object");
  // An operation's parameter overrides the path item's one of the same name and place.
  const byKey = new Map<string, Obj>();
  for (const p of params) byKey.set(`${p.in}:${p.name}`, p);
  const parameters: ParameterRow[] = [];
  const headers: ParameterRow[] = [];
  const pathVariables: ParameterRow[] = [];
  let body: ParameterRow[] = [];
  let contentType: PluginInput["contentType"] = "json";
  const formData: ParameterRow[] = [];
  for (const p of byKey.values()) {
    const schema = (p.schema ?? p) as Obj; // Swagger 2 keeps type and enum on the parameter itself
    const row = rowOf(String(p.name), schema, p.description, !!p.required || p.in === "path");
    if (p.in === "query") parameters.push(row);
    else if (p.in === "header") headers.push(row);
    else if (p.in === "path") pathVariables.push(row);
    else if (p.in === "formData") formData.push(row);
    else if (p.in === "body") body = rowsOfSchema(p.schema as Obj);
  }
  if (formData.length) {
    body = formData;
    contentType = ((op.consumes ?? api.consumes ?? []) as string[]).some((c) => c.includes("multipart")) ? "multipart" : "form";
  }
  const content = (op.requestBody?.content ?? {}) as Obj;
  const types = Object.keys(content);
  const pick = (re: RegExp) => types.find((t) => re.test(t));
  const chosen = pick(/json/) ?? pick(/x-www-form-urlencoded/) ?? pick(/multipart/) ?? types[0];
  if (chosen) {
    body = rowsOfSchema(content[chosen]?.schema as Obj);
    contentType = /json/.test(chosen) ? "json" : /urlencoded/.test(chosen) ? "form" : /multipart/.test(chosen) ? "multipart" : "raw";
  }
  const name = String(op.summary || op.operationId || `${method.toUpperCase()} ${path}`).slice(0, 100);
  const callable = op.operationId
    ? slugCallableName(String(op.operationId).replace(/([a-z0-9])([A-Z])/g, "$1_$2"))
    : slugCallableName(`${method} ${path.replace(/[{}]/g, "")}`);
  return pluginInput.parse({
    pluginName: name,
    pluginDescription: String(op.description || op.summary || name).slice(0, 2000),
    pluginIcon: "1",
    pluginType: "HTTP",
    pluginCallableName: callable,
    pluginTags: Array.isArray(op.tags) ? op.tags.slice(0, 1).map((t: unknown) => String(t).slice(0, 50)) : [],
    url: `${base}${path}`,
    method: method.toUpperCase(),
    contentType,
    parameters,
    headers,
    body,
    pathVariables,
    auth: authOf(api, op, schemes),
  });
}

// ---- cURL ------------------------------------------------------------------------------------

/** Splits a shell command line: quotes, escapes and line continuations, no expansion. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let current = "";
  let inWord = false;
  let quote: "'" | '"' | null = null;
  const s = line.replace(/\\\r?\n/g, " ");
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote === "'") {
      if (c === "'") quote = null;
      else current += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === "\\" && i + 1 < s.length && '"\\$`'.includes(s[i + 1])) current += s[++i];
      else current += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < s.length) {
      current += s[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(current);
      current = "";
      inWord = false;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (quote) throw new ImportError("an unclosed quote");
  if (inWord) words.push(current);
  return words;
}

/**
 * One HTTP plugin from a cURL command line: method, URL, query parameters, headers and the body
 * (JSON, form, multipart or raw). A bearer token or API-key header becomes the plugin's encrypted
 * credential; the other headers are fixed values; query and body fields are left for the caller.
 */
export function parseCurl(command: string): PluginInput & { authSecret?: string } {
  const words = shellWords(command.trim());
  if (words[0] !== "curl") throw new ImportError("it does not start with curl");
  let method: string | undefined;
  let url: string | undefined;
  const headerPairs: [string, string][] = [];
  const data: string[] = [];
  const form: [string, string][] = [];
  let getWithData = false;
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    const next = () => {
      if (i + 1 >= words.length) throw new ImportError(`${w} needs a value`);
      return words[++i];
    };
    if (w === "-X" || w === "--request") method = next().toUpperCase();
    else if (w === "-H" || w === "--header") {
      const h = next();
      const at = h.indexOf(":");
      if (at > 0) headerPairs.push([h.slice(0, at).trim(), h.slice(at + 1).trim()]);
    } else if (["-d", "--data", "--data-raw", "--data-binary", "--data-ascii", "--data-urlencode", "--json"].includes(w)) {
      data.push(next());
      if (w === "--json") headerPairs.push(["Content-Type", "application/json"]);
    } else if (w === "-F" || w === "--form") {
      const f = next();
      const at = f.indexOf("=");
      form.push(at > 0 ? [f.slice(0, at), f.slice(at + 1)] : [f, ""]);
    } else if (w === "-G" || w === "--get") getWithData = true;
    else if (w === "--url") url = next();
    else if (
      [
        "-u",
        "--user",
        "-A",
        "--user-agent",
        "-e",
        "--referer",
        "-b",
        "--cookie",
        "-o",
        "--output",
        "--connect-timeout",
        "-m",
        "--max-time",
      ].includes(w)
    )
      next();
    else if (w.startsWith("-")) continue;
    else url ??= w;
  }
  if (!url) throw new ImportError("no URL");
  let parsed: URL;
  try {
    parsed = new URL(/^https?:\/\//i.test(url) ? url : `http://${url}`);
  } catch {
    throw new ImportError("the URL is not valid");
  }
  const parameters: ParameterRow[] = [];
  const example = (v: string) => (v ? `e.g. ${v.slice(0, 200)}` : "");
  const addQuery = (k: string, v: string) => parameters.push(rowOf(k, undefined, example(v), false));
  for (const [k, v] of parsed.searchParams) addQuery(k, v);
  parsed.search = "";
  let auth: PluginInput["auth"] = { type: "none", in: "header", name: "" };
  let authSecret: string | undefined;
  const headers: ParameterRow[] = [];
  let declaredType = "";
  for (const [name, value] of headerPairs) {
    const lower = name.toLowerCase();
    if (lower === "content-type") declaredType = value.toLowerCase();
    if (lower === "authorization" && /^bearer\s+/i.test(value)) {
      auth = { type: "bearer", in: "header", name: "" };
      authSecret = value.replace(/^bearer\s+/i, "");
    } else if (/^(x-)?api[-_]?key$|^x-auth-token$/i.test(name)) {
      auth = { type: "apiKey", in: "header", name };
      authSecret = value;
    } else if (lower !== "content-length") headers.push({ ...rowOf(name, undefined, "", false), fixedValue: value });
  }
  let body: ParameterRow[] = [];
  let contentType: PluginInput["contentType"] = "json";
  let rawBody = "";
  const joined = data.join("&");
  if (form.length) {
    contentType = "multipart";
    body = form.map(([k, v]) => rowOf(k, undefined, example(v), false));
  } else if (data.length && getWithData) {
    for (const [k, v] of new URLSearchParams(joined)) addQuery(k, v);
  } else if (data.length) {
    const json = tryJson(joined);
    if (json && typeof json === "object" && !Array.isArray(json) && (declaredType.includes("json") || !declaredType)) {
      contentType = "json";
      body = Object.entries(json as Obj).map(([k, v]) => ({
        ...rowOf(
          k,
          { type: typeof v === "number" ? "number" : "string" },
          example(typeof v === "object" ? JSON.stringify(v) : String(v)),
          false,
        ),
      }));
    } else if (declaredType.includes("urlencoded") || (!declaredType && /^[^=&\s]+=[^&]*(&[^=&\s]+=[^&]*)*$/.test(joined))) {
      contentType = "form";
      body = [...new URLSearchParams(joined)].map(([k, v]) => rowOf(k, undefined, example(v), false));
    } else {
      contentType = "raw";
      rawBody = joined;
      if (declaredType) headers.push({ ...rowOf("Content-Type", undefined, "", false), fixedValue: declaredType });
    }
  }
  const finalMethod = method ?? (data.length && !getWithData ? "POST" : form.length ? "POST" : "GET");
  const name = `${finalMethod} ${parsed.pathname}`.slice(0, 100);
  return {
    ...pluginInput.parse({
      pluginName: name,
      pluginDescription: `${finalMethod} ${parsed.origin}${parsed.pathname}`.slice(0, 2000),
      pluginIcon: "1",
      pluginType: "HTTP",
      pluginCallableName: slugCallableName(`${finalMethod} ${parsed.pathname}`),
      url: parsed.toString(),
      method: (["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"].includes(finalMethod) ? finalMethod : "POST") as PluginInput["method"],
      contentType,
      parameters,
      headers,
      body,
      rawBody,
      auth,
    }),
    ...(authSecret ? { authSecret } : {}),
  };
}

function tryJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}
