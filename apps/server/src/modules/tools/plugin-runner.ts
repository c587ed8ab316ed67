import type { ParameterRow, PluginTestResult } from "@agentfair/contracts";
import type { PluginDefinition } from "../../db/schema/tools.ts";
import { BlockedAddressError, createSafeFetch } from "../../platform/net.ts";
import { pageText, WEB_TEXT_MAX } from "./standard-plugins.ts";
import type { SandboxFetchRequest, SandboxFetchResponse, Sandboxes } from "../../platform/sandbox/index.ts";

export type RunResult = PluginTestResult;

export interface RunContext {
  tenantId: string;
  ownerId: string;
  /** Decrypted API key or bearer token of an HTTP plugin; never leaves the server. */
  secret?: string;
  signal?: AbortSignal;
}

export interface RunnerSettings {
  timeoutMs: number;
  maxResponseBytes: number;
  /** Administrator's allow-list: private hosts outbound calls may reach. */
  allowHosts: string[];
}

/** A plugin call's inputs failed its parameter rows (missing, not an option, not a number). */
export class ParameterError extends Error {}

/** Calls MCP tools; the MCP client implements it. */
export interface McpCaller {
  call(def: NonNullable<PluginDefinition["mcp"]>, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
}

/**
 * Runs one plugin call: HTTP through the platform's safe fetch, JavaScript and Python in the
 * sandboxes, MCP through the MCP client. Every call has a wall-clock limit and a response cap.
 */
export class PluginRunner {
  private readonly fetch: typeof fetch;
  /** Code plugins' fetch: no redirects (a redirect could leave the plugin's allowed hosts). */
  private readonly codeFetch: typeof fetch;

  constructor(
    private readonly settings: RunnerSettings,
    private readonly sandboxes: Sandboxes,
    private readonly mcp?: McpCaller,
  ) {
    this.fetch = createSafeFetch({ allowHosts: settings.allowHosts });
    this.codeFetch = createSafeFetch({ allowHosts: settings.allowHosts, maxRedirects: 0 });
  }

  async run(type: string, def: PluginDefinition, args: Record<string, unknown>, ctx: RunContext): Promise<RunResult> {
    const started = performance.now();
    const took = () => Math.round((performance.now() - started) * 100) / 100;
    try {
      if (type === "HTTP" && def.builtin === "web_fetch") return await this.webFetch(args, ctx, took);
      if (type === "HTTP") return await this.http(def, args, ctx, took);
      if (type === "JAVASCRIPT" || type === "PYTHON3") {
        const params = valuesOf(def.parameters, args);
        const r = await this.sandboxes.run(type === "JAVASCRIPT" ? "javascript" : "python", {
          tenantKey: ctx.tenantId,
          ownerKey: ctx.ownerId,
          code: def.code,
          params: { ...args, ...params },
          timeoutMs: this.settings.timeoutMs,
          fetch: def.netEnabled ? (req) => this.sandboxFetch(def, req) : undefined,
          signal: ctx.signal,
        });
        return { ok: r.ok, result: r.result, status: 0, durationMs: took(), error: r.error, request: null, logs: r.logs };
      }
      if (type === "MCP" && def.mcp && this.mcp) {
        const signal = withTimeout(ctx.signal, this.settings.timeoutMs);
        const result = await this.mcp.call(def.mcp, args, signal);
        return { ok: true, result, status: 0, durationMs: took(), error: null, request: null, logs: [] };
      }
      return failed(`plugins of type ${type} cannot run here`, took());
    } catch (err) {
      return failed(messageOf(err), took());
    }
  }

  private async http(def: PluginDefinition, args: Record<string, unknown>, ctx: RunContext, took: () => number): Promise<RunResult> {
    const query = valuesOf(def.parameters, args);
    const headerValues = valuesOf(def.headers, args);
    const bodyValues = valuesOf(def.body, args);
    const pathValues = valuesOf(def.pathVariables, args);
    const url = new URL(fillPath(def.url, pathValues));
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(headerValues)) headers[k.toLowerCase()] = String(v);
    const shownUrl = new URL(url);
    if (def.auth.type === "apiKey" && ctx.secret && def.auth.name) {
      if (def.auth.in === "query") {
        url.searchParams.set(def.auth.name, ctx.secret);
        shownUrl.searchParams.set(def.auth.name, "******");
      } else headers[def.auth.name.toLowerCase()] = ctx.secret;
    } else if (def.auth.type === "bearer" && ctx.secret) headers.authorization = `Bearer ${ctx.secret}`;

    const method = def.method.toUpperCase();
    let body: string | Uint8Array<ArrayBuffer> | undefined;
    if (method !== "GET" && method !== "HEAD") {
      if (def.contentType === "json" && def.body.length) {
        body = JSON.stringify(bodyValues);
        headers["content-type"] ??= "application/json";
      } else if (def.contentType === "form" && def.body.length) {
        body = new URLSearchParams(Object.entries(bodyValues).map(([k, v]) => [k, String(v)])).toString();
        headers["content-type"] ??= "application/x-www-form-urlencoded";
      } else if (def.contentType === "multipart" && def.body.length) {
        const form = new FormData();
        for (const [k, v] of Object.entries(bodyValues)) form.append(k, String(v));
        const encoded = new Response(form);
        body = new Uint8Array(await encoded.arrayBuffer());
        headers["content-type"] = encoded.headers.get("content-type") ?? "multipart/form-data";
      } else if (def.contentType === "raw" && def.rawBody) {
        body = def.rawBody.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (_m, name: string) => String(bodyValues[name] ?? args[name] ?? ""));
        headers["content-type"] ??= "text/plain; charset=utf-8";
      }
    }
    const request = { method, url: shownUrl.toString() };
    const signal = withTimeout(ctx.signal, this.settings.timeoutMs);
    const res = await this.fetch(url, { method, headers, body, signal });
    const { text, truncated } = await readCapped(res, this.settings.maxResponseBytes);
    const result = parseMaybeJson(text, res.headers.get("content-type"));
    const ok = res.status >= 200 && res.status < 300;
    return {
      ok,
      result,
      status: res.status,
      durationMs: took(),
      error: ok ? (truncated ? `the answer was cut at ${this.settings.maxResponseBytes} bytes` : null) : `HTTP ${res.status}`,
      request,
      logs: [],
    };
  }

  /** The standard web page reader: any public http(s) page, through safe fetch (redirects checked), as text. */
  private async webFetch(args: Record<string, unknown>, ctx: RunContext, took: () => number): Promise<RunResult> {
    const raw = String(args.url ?? "").trim();
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ParameterError("url must be an http(s) address");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new ParameterError("url must be an http(s) address");
    const signal = withTimeout(ctx.signal, this.settings.timeoutMs);
    const res = await this.fetch(url, { method: "GET", headers: { accept: "text/html,text/plain;q=0.9,*/*;q=0.5" }, signal });
    const { text } = await readCapped(res, this.settings.maxResponseBytes);
    const type = res.headers.get("content-type") ?? "";
    const page = /html/i.test(type) || /^\s*</.test(text) ? pageText(text) : { title: "", text: text.slice(0, WEB_TEXT_MAX) };
    const ok = res.status >= 200 && res.status < 300;
    return {
      ok,
      result: { url: url.toString(), status: res.status, ...page },
      status: res.status,
      durationMs: took(),
      error: ok ? null : `HTTP ${res.status}`,
      request: { method: "GET", url: url.toString() },
      logs: [],
    };
  }

  /** A JavaScript plugin's fetch: only to the hosts its owner listed, through safe fetch, capped. */
  private async sandboxFetch(def: PluginDefinition, req: SandboxFetchRequest): Promise<SandboxFetchResponse> {
    const url = new URL(req.url);
    const allowed = def.netAllowHosts.map((h) => h.toLowerCase());
    if (!allowed.includes(url.hostname.toLowerCase()) && !allowed.includes(url.host.toLowerCase()))
      throw new Error(`host not allowed for this plugin: ${url.hostname}`);
    const res = await this.codeFetch(url, {
      method: req.method,
      headers: req.headers,
      body: req.body ?? undefined,
      signal: AbortSignal.timeout(this.settings.timeoutMs),
    });
    const { text } = await readCapped(res, this.settings.maxResponseBytes);
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      headers[k] = v;
    });
    return { status: res.status, headers, body: text };
  }
}

/**
 * The values a call sends for a list of parameter rows: a fixed value always wins (the model never
 * sees those rows); otherwise the argument, checked against required, options and number type.
 */
export function valuesOf(rows: ParameterRow[], args: Record<string, unknown>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const row of rows) {
    const given = row.fixedValue !== "" ? row.fixedValue : args[row.name];
    if (given === undefined || given === null || given === "") {
      if (row.required) throw new ParameterError(`missing required parameter: ${row.name}`);
      continue;
    }
    const text = typeof given === "object" ? JSON.stringify(given) : String(given);
    if (row.fixedValue === "" && row.options.length && !row.options.includes(text))
      throw new ParameterError(`${row.name} must be one of: ${row.options.join(", ")}`);
    if (row.type === "number") {
      const n = Number(text);
      if (!Number.isFinite(n)) throw new ParameterError(`${row.name} must be a number`);
      out[row.name] = n;
    } else out[row.name] = text;
  }
  return out;
}

/** `{name}` in the URL's path becomes the path variable's value, encoded. */
export function fillPath(url: string, values: Record<string, string | number>) {
  return url.replace(/\{([\w.-]+)\}/g, (m, name: string) => (name in values ? encodeURIComponent(String(values[name])) : m));
}

async function readCapped(res: Response, max: number): Promise<{ text: string; truncated: boolean }> {
  if (!res.body) return { text: "", truncated: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.length > max) {
      chunks.push(value.subarray(0, max - size));
      truncated = true;
      await reader.cancel();
      break;
    }
    chunks.push(value);
    size += value.length;
  }
  return { text: Buffer.concat(chunks).toString("utf8"), truncated };
}

/** JSON answers (by content type or by shape) are parsed; anything else stays text. */
export function parseMaybeJson(text: string, contentType: string | null): unknown {
  const trimmed = text.trim();
  if (/json/i.test(contentType ?? "") || /^[[{]/.test(trimmed)) {
    try {
      return JSON.parse(trimmed);
    } catch {
      return text;
    }
  }
  return text;
}

function withTimeout(signal: AbortSignal | undefined, ms: number) {
  const timeout = AbortSignal.timeout(ms);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

const failed = (error: string, durationMs: number): RunResult => ({
  ok: false,
  result: null,
  status: 0,
  durationMs,
  error,
  request: null,
  logs: [],
});

function messageOf(err: unknown): string {
  if (err instanceof BlockedAddressError) return `refused: ${err.message}`;
  const e = err as Error & { cause?: Error };
  if (e?.name === "TimeoutError" || e?.name === "AbortError") return "the call timed out or was aborted";
  if (e?.cause instanceof BlockedAddressError) return `refused: ${e.cause.message}`;
  return e?.message ?? String(err);
}
