import {
  type Condition,
  ELSE_HANDLE,
  ITERATION_PARALLELISM_MAX,
  type NodeDataOf,
  type NodeType,
  type VariableType,
} from "@agentfair/contracts";
import type { Sandboxes } from "../../platform/sandbox/index.ts";
import type { NodeContext, NodeExecutor, NodeResult, RunParent } from "./engine.ts";
import { asText, type Lookup, pathGet, resolveMap, resolveText, resolveValue, TEXT_MAX_CHARS, TextTooLong } from "./template.ts";
import type { RunRow } from "./workflows.repository.ts";

/** What nodes need from the rest of the platform; each runs as the workflow's owner. */
export interface NodeDeps {
  sandboxes?: Sandboxes;
  /** The platform's safe fetch (no private networks). */
  fetch?: typeof fetch;
  maxResponseBytes?: number;
  llm?: (
    run: RunRow,
    req: {
      modelId: string;
      system: string;
      prompt: string;
      temperature?: number;
      json: boolean;
      signal: AbortSignal;
      /** Given: the text is streamed and each piece passed here as it comes. */
      onText?: (text: string) => void;
    },
  ) => Promise<{ text: string; tokens: number }>;
  knowledge?: (run: RunRow, ids: string[], query: string, topK: number) => Promise<{ title: string; content: string; score: number }[]>;
  tool?: (run: RunRow, pluginId: string, params: Record<string, unknown>, signal: AbortSignal) => Promise<unknown>;
  subworkflow?: (run: RunRow, workflowId: string, inputs: Record<string, unknown>, parent: RunParent) => Promise<Record<string, unknown>>;
  agent?: (
    run: RunRow,
    agentId: string,
    query: string,
    signal: AbortSignal,
    onText?: (text: string) => void,
  ) => Promise<{ text: string; tokens: number }>;
}

const need = <T>(dep: T | undefined, what: string): T => {
  if (!dep) throw new Error(`${what} is not available on this platform`);
  return dep;
};

const d = <T extends NodeType>(ctx: NodeContext) => ctx.data as NodeDataOf<T>;

export function convert(value: unknown, type: VariableType): unknown {
  if (value === undefined || value === null) return value;
  switch (type) {
    case "string":
      return asText(value);
    case "number": {
      const n = typeof value === "number" ? value : Number(asText(value).trim());
      if (Number.isNaN(n)) throw new Error(`"${asText(value).slice(0, 50)}" is not a number`);
      return n;
    }
    case "boolean":
      return typeof value === "boolean" ? value : ["true", "1", "yes"].includes(asText(value).trim().toLowerCase());
    case "array":
      if (Array.isArray(value)) return value;
      if (typeof value === "string") {
        const parsed = JSON.parse(value);
        if (Array.isArray(parsed)) return parsed;
      }
      throw new Error("not a list");
    case "object":
      if (typeof value === "object") return value;
      return JSON.parse(String(value));
  }
}

const isEmpty = (v: unknown) =>
  v === undefined ||
  v === null ||
  v === "" ||
  (Array.isArray(v) && !v.length) ||
  (typeof v === "object" && !Object.keys(v as object).length);

export function holds(c: Condition, left: unknown, right: unknown): boolean {
  const l = left;
  const r = right;
  const num = (x: unknown) => (typeof x === "number" ? x : Number(asText(x)));
  switch (c.operator) {
    case "equals":
      return asText(l) === asText(r);
    case "notEquals":
      return asText(l) !== asText(r);
    case "contains":
      return Array.isArray(l) ? l.some((x) => asText(x) === asText(r)) : asText(l).includes(asText(r));
    case "notContains":
      return !(Array.isArray(l) ? l.some((x) => asText(x) === asText(r)) : asText(l).includes(asText(r)));
    case "startsWith":
      return asText(l).startsWith(asText(r));
    case "endsWith":
      return asText(l).endsWith(asText(r));
    case "isEmpty":
      return isEmpty(l);
    case "isNotEmpty":
      return !isEmpty(l);
    case "gt":
      return num(l) > num(r);
    case "gte":
      return num(l) >= num(r);
    case "lt":
      return num(l) < num(r);
    case "lte":
      return num(l) <= num(r);
  }
}

const evalConditions = (conds: Condition[], logic: "and" | "or", lookup: Lookup) => {
  const each = conds.map((c) => holds(c, resolveValue(c.variable, lookup), resolveValue(c.value, lookup)));
  return logic === "and" ? each.every(Boolean) : each.some(Boolean);
};

/** Runs `count` tasks with at most `limit` at once, results in order. */
async function pool<T>(count: number, limit: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out = new Array<T>(count);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, count) }, async () => {
    while (next < count) {
      const i = next++;
      out[i] = await task(i);
    }
  });
  await Promise.all(workers);
  return out;
}

async function readCapped(res: Response, max: number): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      chunks.push(value.subarray(0, value.byteLength - (size - max)));
      await reader.cancel().catch(() => {});
      break;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const jsonOf = (text: string): unknown => {
  const trimmed = text
    .trim()
    .replace(/^```(?:json)?\s*/i, "")
    .replace(/```$/, "")
    .trim();
  try {
    return JSON.parse(trimmed);
  } catch {
    const m = /\{[\s\S]*\}/.exec(trimmed);
    if (m) {
      try {
        return JSON.parse(m[0]);
      } catch {}
    }
    return null;
  }
};

/** The executors of every node type. */
export function nodeExecutors(deps: NodeDeps): Record<NodeType, NodeExecutor> {
  return {
    async start(ctx) {
      const inputs = ctx.run.inputs ?? {};
      const output: Record<string, unknown> = {};
      for (const i of d<"start">(ctx).inputs) {
        const v = inputs[i.name] ?? i.default;
        output[i.name] = v === undefined || v === "" ? v : convert(v, i.type);
      }
      return { output };
    },
    async end(ctx) {
      return { output: resolveMap(d<"end">(ctx).outputs, ctx.lookup) };
    },
    async answer(ctx) {
      return { output: { text: resolveText(d<"answer">(ctx).text, ctx.lookup) } };
    },
    async template(ctx) {
      return { output: { output: resolveText(d<"template">(ctx).template, ctx.lookup) } };
    },
    async code(ctx) {
      const data = d<"code">(ctx);
      const params = resolveMap(data.params, ctx.lookup);
      const r = await need(deps.sandboxes, "the code sandbox").run(data.language, {
        tenantKey: ctx.run.tenantId,
        ownerKey: ctx.run.ownerId,
        code: data.code,
        params,
        timeoutMs: data.timeoutMs,
        signal: ctx.signal,
      });
      if (!r.ok) throw new Error(r.error ?? "the code failed");
      const result = r.result;
      return {
        input: params,
        output: result && typeof result === "object" && !Array.isArray(result) ? (result as Record<string, unknown>) : { result },
      };
    },
    async condition(ctx) {
      for (const c of d<"condition">(ctx).cases) {
        if (evalConditions(c.conditions, c.logic, ctx.lookup)) return { output: { case: c.id }, handle: c.id };
      }
      return { output: { case: ELSE_HANDLE }, handle: ELSE_HANDLE };
    },
    async http(ctx) {
      const data = d<"http">(ctx);
      const url = new URL(resolveText(data.url, ctx.lookup).trim());
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("only http and https addresses can be called");
      for (const q of data.query) if (q.name) url.searchParams.append(q.name, resolveText(q.value, ctx.lookup));
      const headers = new Headers();
      for (const h of data.headers) if (h.name) headers.set(h.name, resolveText(h.value, ctx.lookup));
      let body: string | undefined;
      if (data.bodyType !== "none" && data.method !== "GET" && data.method !== "HEAD") {
        body = resolveText(data.body, ctx.lookup);
        if (data.bodyType === "json" && !headers.has("content-type")) headers.set("content-type", "application/json");
        if (data.bodyType === "form" && !headers.has("content-type")) headers.set("content-type", "application/x-www-form-urlencoded");
      }
      const res = await need(deps.fetch, "outbound HTTP")(url, { method: data.method, headers, body, signal: ctx.signal });
      const text = await readCapped(res, deps.maxResponseBytes ?? 1_048_576);
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {}
      if (res.status >= 400) throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`);
      return {
        input: { method: data.method, url: url.toString() },
        output: { status: res.status, body: text, json, headers: Object.fromEntries(res.headers) },
      };
    },
    async llm(ctx) {
      const data = d<"llm">(ctx);
      const system = resolveText(data.systemPrompt, ctx.lookup);
      const prompt = resolveText(data.prompt, ctx.lookup);
      const r = await need(deps.llm, "a language model")(ctx.run, {
        modelId: data.modelId,
        system,
        prompt,
        temperature: data.temperature,
        json: data.jsonOutput,
        signal: ctx.signal,
        onText: ctx.stream,
      });
      return {
        input: { system, prompt },
        output: { text: r.text, ...(data.jsonOutput ? { json: jsonOf(r.text) } : {}) },
        tokens: r.tokens,
      };
    },
    async classifier(ctx) {
      const data = d<"classifier">(ctx);
      if (!data.classes.length) throw new Error("the classifier has no classes");
      const list = data.classes.map((c, i) => `${i + 1}. ${c.name}`).join("\n");
      const r = await need(deps.llm, "a language model")(ctx.run, {
        modelId: data.modelId,
        system: `Classify the user's text into exactly one of these classes and answer with its number only.\n${list}\n${resolveText(data.instruction, ctx.lookup)}`,
        prompt: resolveText(data.query, ctx.lookup),
        temperature: 0,
        json: false,
        signal: ctx.signal,
      });
      const n = Number(/\d+/.exec(r.text)?.[0] ?? "1");
      const picked = data.classes[n - 1] ?? data.classes.find((c) => r.text.includes(c.name)) ?? data.classes[0];
      return { output: { classId: picked.id, className: picked.name }, handle: picked.id, tokens: r.tokens };
    },
    async extractor(ctx) {
      const data = d<"extractor">(ctx);
      const spec = data.parameters.map((p) => `- ${p.name} (${p.type}${p.required ? ", required" : ""}): ${p.description}`).join("\n");
      const r = await need(deps.llm, "a language model")(ctx.run, {
        modelId: data.modelId,
        system: `Extract these parameters from the user's text and answer with one JSON object only (null for a value not present).\n${spec}\n${resolveText(data.instruction, ctx.lookup)}`,
        prompt: resolveText(data.query, ctx.lookup),
        temperature: 0,
        json: true,
        signal: ctx.signal,
      });
      const obj = (jsonOf(r.text) ?? {}) as Record<string, unknown>;
      const output: Record<string, unknown> = {};
      for (const p of data.parameters) {
        const v = obj[p.name];
        if ((v === undefined || v === null) && p.required) throw new Error(`the parameter ${p.name} was not found`);
        output[p.name] = v === undefined || v === null ? null : convert(v, p.type);
      }
      return { output, tokens: r.tokens };
    },
    async knowledge(ctx) {
      const data = d<"knowledge">(ctx);
      const query = resolveText(data.query, ctx.lookup);
      const result = await need(deps.knowledge, "knowledge retrieval")(ctx.run, data.knowledgeIds, query, data.topK);
      return { input: { query }, output: { result, text: result.map((h, i) => `[${i + 1}] ${h.content}`).join("\n\n") } };
    },
    async tool(ctx) {
      const data = d<"tool">(ctx);
      const params = resolveMap(data.params, ctx.lookup);
      const result = await need(deps.tool, "tools")(ctx.run, data.pluginId, params, ctx.signal);
      return { input: params, output: { result } };
    },
    async assign(ctx) {
      const output: Record<string, unknown> = {};
      for (const a of d<"assign">(ctx).assignments) output[a.name] = convert(resolveValue(a.value, ctx.lookup), a.type);
      return { output };
    },
    async aggregate(ctx) {
      const data = d<"aggregate">(ctx);
      const values = data.variables.map((v) => resolveValue(v, ctx.lookup)).filter((v) => v !== undefined && v !== null);
      return { output: { output: data.mode === "array" ? values : (values[0] ?? null) } };
    },
    async list(ctx) {
      const data = d<"list">(ctx);
      const input = convert(resolveValue(data.input, ctx.lookup) ?? [], "array") as unknown[];
      const at = (item: unknown, path: string) => (path ? pathGet(item, path.split(".")) : item);
      let result: unknown;
      switch (data.operation) {
        case "filter": {
          const f = data.filter;
          result = f ? input.filter((item) => holds(f, at(item, f.variable), resolveValue(f.value, ctx.lookup))) : input;
          break;
        }
        case "sort": {
          const sign = data.order === "desc" ? -1 : 1;
          result = [...input].sort((a, b) => {
            const x = at(a, data.key);
            const y = at(b, data.key);
            if (typeof x === "number" && typeof y === "number") return (x - y) * sign;
            return asText(x).localeCompare(asText(y)) * sign;
          });
          break;
        }
        case "slice":
          result = input.slice(data.start, data.end);
          break;
        case "first":
          result = input[0] ?? null;
          break;
        case "last":
          result = input.at(-1) ?? null;
          break;
        case "length":
          result = input.length;
          break;
        case "unique": {
          const seen = new Set<string>();
          result = input.filter((x) => {
            const k = asText(x);
            if (seen.has(k)) return false;
            seen.add(k);
            return true;
          });
          break;
        }
        case "reverse":
          result = [...input].reverse();
          break;
        case "join": {
          const texts = input.map(asText);
          if (texts.reduce((n, x) => n + x.length + data.separator.length, 0) > TEXT_MAX_CHARS) throw new TextTooLong();
          result = texts.join(data.separator);
          break;
        }
      }
      return { output: { result } };
    },
    async loop(ctx) {
      const data = d<"loop">(ctx);
      const results: unknown[] = [];
      let last: unknown = null;
      for (let index = 0; index < data.maxIterations; index++) {
        if (ctx.signal.aborted) throw new Error("the loop was stopped");
        const body = await ctx.runBody(index, { index, last });
        last = data.output ? resolveValue(data.output, body) : null;
        results.push(last);
        const scope: Lookup = (id) => (id === ctx.node.id ? { index, last } : body(id));
        if (data.breakConditions.length && evalConditions(data.breakConditions, data.logic, scope)) break;
      }
      return { output: { results, count: results.length } };
    },
    async iteration(ctx) {
      const data = d<"iteration">(ctx);
      const items = convert(resolveValue(data.items, ctx.lookup) ?? [], "array") as unknown[];
      const parallelism = Math.min(data.parallelism, ITERATION_PARALLELISM_MAX);
      const results = await pool(items.length, parallelism, async (index) => {
        const body = await ctx.runBody(index, { index, item: items[index] });
        return data.output ? resolveValue(data.output, body) : null;
      });
      return { output: { results } };
    },
    async subworkflow(ctx) {
      const data = d<"subworkflow">(ctx);
      const inputs = resolveMap(data.inputs, ctx.lookup);
      const outputs = await need(deps.subworkflow, "sub-workflows")(ctx.run, data.workflowId, inputs, {
        signal: ctx.signal,
        budget: ctx.budget,
      });
      return { input: inputs, output: outputs };
    },
    async human(ctx): Promise<NodeResult> {
      const data = d<"human">(ctx);
      return {
        output: {},
        pause: { nodeId: ctx.node.id, scope: ctx.scope, prompt: resolveText(data.prompt, ctx.lookup), fields: data.fields },
      };
    },
    async agent(ctx) {
      const data = d<"agent">(ctx);
      const query = resolveText(data.query, ctx.lookup);
      const r = await need(deps.agent, "agents")(ctx.run, data.agentId, query, ctx.signal, ctx.stream);
      return { input: { query }, output: { text: r.text }, tokens: r.tokens };
    },
  };
}
