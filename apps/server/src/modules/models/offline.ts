import type {
  EmbeddingModelV3,
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { FOLLOW_UP_MARKER } from "../../runtime/follow-ups.ts";
import { offlineAnalysis } from "./offline-analyst.ts";

/**
 * The offline demo models: what `npm start` gives a newcomer who has no model service yet, so the
 * demo agents, knowledge bases and tools can be tried on a machine without network. They do not
 * understand language: the chat model calls the knowledge search or a tool the question names and
 * answers with what came back (quoting passages with their [n]), and otherwise says plainly what it
 * is; the embedding model hashes words and character pairs (texts that share them are close); the rerank
 * model is a lexical cross-scorer (no semantics: it scores the query's words and character pairs found in
 * each document, and the longest stretch of the query found verbatim).
 * A model row whose base URL is `local://offline` is served by them, in process.
 */
export const OFFLINE_BASE_URL = "local://offline";
export const OFFLINE_CHAT_MODEL = "offline-chat";
export const OFFLINE_EMBEDDING_MODEL = "offline-embedding";
export const OFFLINE_RERANK_MODEL = "offline-rerank";
export const OFFLINE_DIMENSIONS = 256;

const hasChinese = (s: string) => /[\u4e00-\u9fff]/.test(s);
const estimateTokens = (s: string) => Math.ceil(s.length / 2);

function textOf(content: LanguageModelV3Prompt[number]["content"]): string {
  if (typeof content === "string") return content;
  return content.map((p) => (p.type === "text" ? p.text : "")).join("");
}

/** A JSON object the user wrote in the question, e.g. `{"city": "杭州"}`. */
function jsonIn(text: string): Record<string, unknown> | null {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return null;
  try {
    const value = JSON.parse(text.slice(start, end + 1));
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Arguments for a tool from the question: a JSON object in it; else, for text, the longest run of
 * Latin letters, digits and symbols beside the tool's name ("用计算器算 (3+4)*2" → "(3+4)*2", a URL)
 * or the rest of the question; for numbers its first number.
 */
function argumentsFor(tool: LanguageModelV3FunctionTool, question: string, name: string): Record<string, unknown> {
  const written = jsonIn(question);
  if (written) return written;
  const rest = question.replace(new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i"), " ");
  const runs = (rest.match(/[^\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]+/g) ?? []).map((r) => r.trim()).filter((r) => r.length > 1);
  const text = runs.sort((a, b) => b.length - a.length)[0] ?? rest.trim();
  const schema = tool.inputSchema as { properties?: Record<string, { type?: string; default?: unknown }>; required?: string[] };
  const args: Record<string, unknown> = {};
  const number = question.match(/-?\d+(\.\d+)?/)?.[0];
  for (const param of schema.required ?? []) {
    const prop = schema.properties?.[param] ?? {};
    if (prop.default !== undefined) args[param] = prop.default;
    else if (prop.type === "number" || prop.type === "integer") args[param] = number === undefined ? 0 : Number(number);
    else if (prop.type === "boolean") args[param] = true;
    else args[param] = text;
  }
  return args;
}

/** Tool results often come back as JSON text. */
function parsed(value: unknown) {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

type Turn = { text: string } | { call: { name: string; input: Record<string, unknown> } };

interface Passage {
  n?: number;
  text?: string;
}

/** What the offline model says or calls next, from the conversation so far. */
export function offlineTurn(prompt: LanguageModelV3Prompt, tools: LanguageModelV3FunctionTool[]): Turn {
  // It cannot guess what a user would ask next: no suggested questions.
  if (prompt.some((m) => m.role === "system" && m.content.includes(FOLLOW_UP_MARKER))) return { text: "[]" };
  const last = prompt.at(-1);
  const question = textOf([...prompt].reverse().find((m) => m.role === "user")?.content ?? "").trim();
  // Report agents' plans and findings, and chat insight: answered by rule (offline-analyst.ts).
  const system = prompt.find((m) => m.role === "system");
  const analysis = system ? offlineAnalysis(textOf(system.content), question) : null;
  if (analysis !== null) return { text: analysis };
  const zh = hasChinese(question) || !question;
  if (last?.role === "tool") {
    const parts: string[] = [];
    for (const part of last.content) {
      if (part.type !== "tool-result") continue;
      const out = part.output;
      const value = out.type === "json" || out.type === "error-json" ? out.value : "value" in out ? parsed(out.value) : null;
      const passages = (value as { passages?: Passage[] } | null)?.passages;
      if (part.toolName === "knowledge_search" && Array.isArray(passages)) {
        parts.push(
          passages.length
            ? `${zh ? "根据知识库中的内容：" : "From the knowledge base:"}\n\n${passages
                .slice(0, 3)
                .map((p) => `${String(p.text ?? "").trim()} [${p.n}]`)
                .join("\n\n")}`
            : zh
              ? "知识库中没有找到相关的内容。"
              : "Nothing relevant was found in the knowledge base.",
        );
      } else {
        const shown = typeof value === "string" ? value : JSON.stringify(value, null, 2);
        parts.push(
          `${zh ? `工具「${part.toolName}」返回：` : `The tool "${part.toolName}" returned:`}\n\n\`\`\`\n${shown.slice(0, 2000)}\n\`\`\``,
        );
      }
    }
    return { text: parts.join("\n\n") };
  }
  const lower = question.toLowerCase();
  // by its callable name, or the name before "：" its description starts with (the plugin's name)
  const leadOf = (t: LanguageModelV3FunctionTool) => t.description?.match(/^([^：:，,。\s]{2,16})[：:]/)?.[1]?.toLowerCase();
  for (const t of tools) {
    const said = [t.name.toLowerCase(), leadOf(t)].find((n) => n && lower.includes(n));
    if (said) return { call: { name: t.name, input: argumentsFor(t, question, said) } };
  }
  const search = tools.find((t) => t.name === "knowledge_search");
  if (search && question) return { call: { name: search.name, input: { query: question } } };
  return {
    text: zh
      ? `（离线演示模型）你的问题是：「${question}」。\n\n我是 Agentfair 自带的离线演示模型，不联网，也不理解语义：我会检索智能体绑定的知识库并引用原文，也会调用问题中点名的工具${
          tools.length ? `（可用：${tools.map((t) => t.name).join("、")}）` : ""
        }。管理员在「模型管理」接入真实的大模型后，智能体就能真正回答了。`
      : `(Offline demo model) You asked: "${question}".\n\nI am Agentfair's built-in offline demo model: no network and no understanding of language. I search the agent's knowledge bases and quote them, and I call a tool your question names${
          tools.length ? ` (available: ${tools.map((t) => t.name).join(", ")})` : ""
        }. Once an administrator adds a real model under Model management, agents answer for real.`,
  };
}

function usageOf(options: LanguageModelV3CallOptions, output: string): LanguageModelV3Usage {
  const input = estimateTokens(options.prompt.map((m) => textOf(m.content)).join(""));
  const out = estimateTokens(output);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: out, text: out, reasoning: 0 },
  };
}

const functionTools = (options: LanguageModelV3CallOptions) =>
  (options.tools ?? []).filter((t): t is LanguageModelV3FunctionTool => t.type === "function");

/** Pieces of a few characters, so that the reply streams like a model's. */
const pieces = (text: string) => text.match(/[\s\S]{1,6}/g) ?? [];

export function offlineChatModel(modelId: string): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: "agentfair.offline",
    modelId,
    supportedUrls: {},
    async doGenerate(options) {
      const turn = offlineTurn(options.prompt, functionTools(options));
      if ("call" in turn) {
        const input = JSON.stringify(turn.call.input);
        return {
          content: [{ type: "tool-call", toolCallId: `call_${crypto.randomUUID()}`, toolName: turn.call.name, input }],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage: usageOf(options, input),
          warnings: [],
        };
      }
      return {
        content: [{ type: "text", text: turn.text }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: usageOf(options, turn.text),
        warnings: [],
      };
    },
    async doStream(options) {
      const turn = offlineTurn(options.prompt, functionTools(options));
      const signal = options.abortSignal;
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        async start(controller) {
          controller.enqueue({ type: "stream-start", warnings: [] });
          if ("call" in turn) {
            const input = JSON.stringify(turn.call.input);
            controller.enqueue({ type: "tool-call", toolCallId: `call_${crypto.randomUUID()}`, toolName: turn.call.name, input });
            controller.enqueue({
              type: "finish",
              finishReason: { unified: "tool-calls", raw: "tool_calls" },
              usage: usageOf(options, input),
            });
            controller.close();
            return;
          }
          controller.enqueue({ type: "text-start", id: "t0" });
          for (const delta of pieces(turn.text)) {
            if (signal?.aborted) break;
            controller.enqueue({ type: "text-delta", id: "t0", delta });
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
          controller.enqueue({ type: "text-end", id: "t0" });
          controller.enqueue({ type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: usageOf(options, turn.text) });
          controller.close();
        },
      });
      return { stream };
    },
  };
}

/** FNV-1a: a stable hash of a term, to pick its dimension and sign. */
function fnv1a(s: string) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Terms of a text: Latin words and digits, and each Chinese character with its pair to the right. */
function termsOf(text: string): string[] {
  const terms: string[] = [];
  for (const run of text.toLowerCase().match(/[a-z0-9]+|[\u4e00-\u9fff]+/g) ?? []) {
    if (!hasChinese(run)) {
      terms.push(run);
      continue;
    }
    for (let i = 0; i < run.length; i++) {
      terms.push(run[i]);
      if (i + 1 < run.length) terms.push(run.slice(i, i + 2));
    }
  }
  return terms;
}

/** A unit vector of hashed terms (pairs count double: they carry more meaning than single characters). */
export function offlineEmbedding(text: string, dims = OFFLINE_DIMENSIONS): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const term of termsOf(text)) {
    const h = fnv1a(term);
    v[h % dims] += (h & 0x80000000 ? -1 : 1) * (term.length > 1 ? 2 : 1);
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

export function offlineEmbeddingModel(modelId: string): EmbeddingModelV3 {
  return {
    specificationVersion: "v3",
    provider: "agentfair.offline",
    modelId,
    maxEmbeddingsPerCall: 256,
    supportsParallelCalls: true,
    async doEmbed({ values }) {
      return {
        embeddings: values.map((v) => offlineEmbedding(v)),
        usage: { tokens: values.reduce((n, v) => n + estimateTokens(v), 0) },
        warnings: [],
      };
    },
  };
}

/** The longest stretch of the query (up to 32 characters, letters and digits only) found verbatim in the text. */
function longestShared(query: string, text: string) {
  const q = query.slice(0, 32);
  for (let len = q.length; len > 1; len--) for (let i = 0; i + len <= q.length; i++) if (text.includes(q.slice(i, i + len))) return len;
  return 0;
}

/**
 * The offline rerank model: a lexical cross-scorer of (query, document) pairs, 0–1. Mostly the share of the
 * query's terms the document holds (character pairs and words weigh double single characters), plus the
 * longest stretch of the query it holds verbatim (a phrase beats scattered characters).
 */
export function offlineRerank(query: string, documents: string[]): Map<number, number> {
  const squeeze = (s: string) => (s.toLowerCase().match(/[a-z0-9]+|[\u4e00-\u9fff]+/g) ?? []).join("");
  const wanted = new Map<string, number>();
  for (const term of termsOf(query)) wanted.set(term, term.length > 1 ? 2 : 1);
  const total = [...wanted.values()].reduce((a, b) => a + b, 0);
  const q = squeeze(query);
  const scores = new Map<number, number>();
  for (const [index, doc] of documents.entries()) {
    const held = new Set(termsOf(doc));
    let found = 0;
    for (const [term, weight] of wanted) if (held.has(term)) found += weight;
    const phrase = q.length > 1 ? longestShared(q, squeeze(doc)) / Math.min(q.length, 32) : 0;
    scores.set(index, total ? Math.round((0.8 * (found / total) + 0.2 * phrase) * 10000) / 10000 : 0);
  }
  return scores;
}
