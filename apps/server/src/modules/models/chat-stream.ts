import {
  APICallError,
  type LanguageModelV3CallOptions,
  type LanguageModelV3FinishReason,
  type LanguageModelV3Message,
  type LanguageModelV3StreamPart,
  type LanguageModelV3Text,
  type LanguageModelV3Usage,
} from "@ai-sdk/provider";
import type { IncomingMessage } from "node:http";
import type { SafeRequest } from "../../platform/net.ts";

export interface ChatEndpoint {
  baseUrl: string;
  modelId: string;
  apiKey: string | undefined;
  request: SafeRequest;
}

/**
 * A streaming chat completion of an OpenAI-compatible endpoint, read straight from the response
 * body into stream parts. The AI SDK's provider pipes every reply through four transform streams
 * (text decoding, event parsing, JSON validation, conversion), and a fetch response is itself two
 * web streams over node's: here the parts are parsed from node's response as its chunks come, with
 * only one chunk's parts queued ahead of the reader. Chat replies (runtime/reply.ts) only send what this handles:
 * system text, user text and images, assistant text and tool calls, tool results.
 */
export async function streamChatCompletion(
  endpoint: ChatEndpoint,
  options: LanguageModelV3CallOptions,
): Promise<{ stream: AsyncIterable<LanguageModelV3StreamPart> }> {
  const res = await post(endpoint, { ...requestBody(endpoint, options), stream: true, stream_options: { include_usage: true } }, options);
  return { stream: new CompletionParts(res) };
}

/**
 * A chat completion in one answer, on the same light client as a reply (the AI SDK's `doGenerate`
 * shape, text only: what the follow-up questions ask for).
 */
export async function chatCompletion(
  endpoint: ChatEndpoint,
  options: LanguageModelV3CallOptions,
): Promise<{ content: LanguageModelV3Text[] }> {
  const res = await post(endpoint, requestBody(endpoint, options), options);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res) {
    size += chunk.length;
    // The few hundred tokens asked for are a few KB: an endpoint that sends on is not read into memory.
    if (size > COMPLETION_MAX_BYTES) {
      res.destroy();
      throw new Error(`the model's answer is over ${COMPLETION_MAX_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  const answer = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { choices?: { message?: { content?: string | null } }[] };
  const text = answer.choices?.[0]?.message?.content;
  return { content: text ? [{ type: "text", text }] : [] };
}

const COMPLETION_MAX_BYTES = 1024 * 1024;

function requestBody(endpoint: ChatEndpoint, options: LanguageModelV3CallOptions) {
  const tools = options.tools?.flatMap((t) =>
    t.type === "function" ? [{ type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema } }] : [],
  );
  return {
    model: endpoint.modelId,
    messages: options.prompt.flatMap(openAiMessage),
    max_tokens: options.maxOutputTokens,
    temperature: options.temperature,
    top_p: options.topP,
    frequency_penalty: options.frequencyPenalty,
    presence_penalty: options.presencePenalty,
    tools: tools?.length ? tools : undefined,
    tool_choice: !tools?.length
      ? undefined
      : options.toolChoice?.type === "tool"
        ? { type: "function", function: { name: options.toolChoice.toolName } }
        : options.toolChoice?.type,
  };
}

/** POSTs to the completions URL; an error status is an API call error with that status (how replies name the failure). */
async function post(endpoint: ChatEndpoint, body: Record<string, unknown>, options: LanguageModelV3CallOptions) {
  const url = `${endpoint.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const res = await endpoint.request(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
    },
    body: JSON.stringify(body),
    signal: options.abortSignal,
  });
  const status = res.statusCode ?? 0;
  if (status >= 200 && status <= 299) return res;
  let text = "";
  try {
    res.setEncoding("utf8");
    for await (const chunk of res) text += chunk;
  } catch {}
  let message = res.statusMessage || `HTTP ${status}`;
  try {
    message = JSON.parse(text).error?.message ?? message;
  } catch {}
  throw new APICallError({
    message,
    url,
    requestBodyValues: body,
    statusCode: status,
    responseBody: text,
    isRetryable: status === 408 || status === 409 || status === 429 || status >= 500,
  });
}

type OpenAiMessage = Record<string, unknown>;

function openAiMessage(m: LanguageModelV3Message): OpenAiMessage | OpenAiMessage[] {
  if (m.role === "system") return { role: "system", content: m.content };
  if (m.role === "user") {
    if (m.content.length === 1 && m.content[0]!.type === "text") return { role: "user", content: m.content[0]!.text };
    return {
      role: "user",
      content: m.content.map((part) => {
        if (part.type === "text") return { type: "text", text: part.text };
        if (!part.mediaType.startsWith("image/")) throw new Error(`chat replies send images only, not ${part.mediaType}`);
        const mediaType = part.mediaType === "image/*" ? "image/jpeg" : part.mediaType;
        const data = part.data instanceof URL ? part.data.toString() : `data:${mediaType};base64,${base64(part.data)}`;
        return { type: "image_url", image_url: { url: data } };
      }),
    };
  }
  if (m.role === "assistant") {
    let text = "";
    const toolCalls: OpenAiMessage[] = [];
    for (const part of m.content) {
      if (part.type === "text") text += part.text;
      if (part.type === "tool-call")
        toolCalls.push({ id: part.toolCallId, type: "function", function: { name: part.toolName, arguments: JSON.stringify(part.input) } });
    }
    return toolCalls.length ? { role: "assistant", content: text || null, tool_calls: toolCalls } : { role: "assistant", content: text };
  }
  return m.content.flatMap((part) => {
    if (part.type !== "tool-result") return [];
    const { output } = part;
    const content =
      output.type === "text" || output.type === "error-text"
        ? output.value
        : output.type === "json" || output.type === "error-json"
          ? JSON.stringify(output.value)
          : JSON.stringify(output);
    return [{ role: "tool", tool_call_id: part.toolCallId, content }];
  });
}

const base64 = (data: string | Uint8Array) => (typeof data === "string" ? data : Buffer.from(data).toString("base64"));

interface Chunk {
  error?: unknown;
  usage?: {
    prompt_tokens?: number | null;
    completion_tokens?: number | null;
    prompt_tokens_details?: { cached_tokens?: number | null } | null;
    completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  } | null;
  choices?: {
    finish_reason?: string | null;
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: { index?: number; id?: string | null; function?: { name?: string | null; arguments?: string | null } }[] | null;
    } | null;
  }[];
}

const LF = 0x0a;
const CR = 0x0d;
const DATA = Buffer.from("data:");

/**
 * A completion's events as stream parts, in the order the AI SDK's provider gives them, parsed from
 * node's response as its chunks come: lines are cut from the bytes (a line break never falls inside a
 * character), and one chunk's parts wait in a queue, with no generator or web stream per layer.
 * Ending the iteration early (a stop) destroys the response, and with it the connection.
 */
class CompletionParts implements AsyncIterableIterator<LanguageModelV3StreamPart> {
  private readonly queue: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
  private head = 0;
  /** The start of a line the last chunk cut. */
  private rest: Buffer | null = null;
  private ended = false;
  private closed = false;
  private failure: unknown = null;
  private wake: (() => void) | null = null;
  private finish: LanguageModelV3FinishReason | undefined;
  private usage: Chunk["usage"];
  private open: "text" | "reasoning" | null = null;
  private readonly calls = new Map<number, { id: string; name: string; input: string }>();

  constructor(private readonly res: IncomingMessage) {
    // Plain listeners, not stream.finished() (seven closures and their scope per call): an open
    // reply holds these for as long as it streams.
    res.on("readable", () => this.wakeUp());
    res.on("end", () => {
      this.ended = true;
      this.wakeUp();
    });
    res.on("error", (err) => {
      this.failure ??= err;
      this.wakeUp();
    });
    res.on("close", () => {
      if (!this.ended) this.failure ??= Object.assign(new Error("Premature close"), { code: "ERR_STREAM_PREMATURE_CLOSE" });
      this.wakeUp();
    });
  }

  private wakeUp() {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  async next(): Promise<IteratorResult<LanguageModelV3StreamPart>> {
    while (this.head === this.queue.length) {
      if (this.closed) return { done: true, value: undefined };
      this.queue.length = 0;
      this.head = 0;
      const chunk: Buffer | null = this.res.read();
      if (chunk) this.chunk(chunk);
      else if (this.failure) {
        this.closed = true;
        throw this.failure;
      } else if (this.ended) {
        if (this.rest) this.line(this.rest, 0, this.rest.length);
        this.end();
        this.closed = true;
      } else await new Promise<void>((resolve) => (this.wake = resolve));
    }
    return { done: false, value: this.queue[this.head++]! };
  }

  async return(): Promise<IteratorResult<LanguageModelV3StreamPart>> {
    this.closed = true;
    if (!this.ended) this.res.destroy();
    return { done: true, value: undefined };
  }

  private chunk(chunk: Buffer) {
    const bytes = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    let start = 0;
    for (let lf = bytes.indexOf(LF); lf !== -1; lf = bytes.indexOf(LF, start)) {
      this.line(bytes, start, lf);
      start = lf + 1;
    }
    // A copy: a view would keep the whole chunk until the next one.
    this.rest = start < bytes.length ? Buffer.from(bytes.subarray(start)) : null;
  }

  /** One line of the event stream: `data: {chunk}` lines carry the reply, the rest is framing. */
  private line(bytes: Buffer, start: number, end: number) {
    if (end > start && bytes[end - 1] === CR) end--;
    if (end - start < DATA.length || bytes.compare(DATA, 0, DATA.length, start, start + DATA.length) !== 0) return;
    const data = bytes.toString("utf8", start + DATA.length, end).trim();
    if (data === "[DONE]") return;
    let chunk: Chunk;
    try {
      chunk = JSON.parse(data);
    } catch (err) {
      this.finish = { unified: "error", raw: undefined };
      this.queue.push({ type: "error", error: err });
      return;
    }
    if (chunk.error) {
      this.finish = { unified: "error", raw: undefined };
      this.queue.push({ type: "error", error: chunk.error });
      return;
    }
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (choice?.finish_reason) this.finish = { unified: finishReason(choice.finish_reason), raw: choice.finish_reason };
    const delta = choice?.delta;
    if (!delta) return;
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (reasoning) this.say("reasoning", reasoning);
    if (typeof delta.content === "string" && delta.content) this.say("text", delta.content);
    for (const call of delta.tool_calls ?? []) {
      this.endOpenPart();
      const index = call.index ?? this.calls.size;
      let known = this.calls.get(index);
      if (!known) {
        known = { id: call.id ?? `call_${crypto.randomUUID()}`, name: call.function?.name ?? "", input: "" };
        this.calls.set(index, known);
        this.queue.push({ type: "tool-input-start", id: known.id, toolName: known.name });
      }
      if (call.function?.arguments) {
        known.input += call.function.arguments;
        this.queue.push({ type: "tool-input-delta", id: known.id, delta: call.function.arguments });
      }
    }
  }

  private end() {
    this.endOpenPart();
    for (const call of this.calls.values()) {
      this.queue.push({ type: "tool-input-end", id: call.id });
      this.queue.push({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: call.input || "{}" });
    }
    if (!this.finish) {
      this.finish = { unified: "error", raw: undefined };
      this.queue.push({ type: "error", error: new Error("the model's stream ended without a finish reason") });
    }
    this.queue.push({ type: "finish", finishReason: this.finish, usage: usageOf(this.usage) });
  }

  private say(kind: "text" | "reasoning", delta: string) {
    if (this.open !== kind) {
      this.endOpenPart();
      this.open = kind;
      this.queue.push({ type: kind === "text" ? "text-start" : "reasoning-start", id: kind === "text" ? "txt-0" : "reasoning-0" });
    }
    this.queue.push(kind === "text" ? { type: "text-delta", id: "txt-0", delta } : { type: "reasoning-delta", id: "reasoning-0", delta });
  }

  private endOpenPart() {
    if (this.open === "text") this.queue.push({ type: "text-end", id: "txt-0" });
    if (this.open === "reasoning") this.queue.push({ type: "reasoning-end", id: "reasoning-0" });
    this.open = null;
  }
}

function finishReason(raw: string): LanguageModelV3FinishReason["unified"] {
  if (raw === "stop") return "stop";
  if (raw === "length") return "length";
  if (raw === "content_filter") return "content-filter";
  if (raw === "tool_calls" || raw === "function_call") return "tool-calls";
  return "other";
}

function usageOf(u: Chunk["usage"]): LanguageModelV3Usage {
  const input = u?.prompt_tokens ?? undefined;
  const cached = u?.prompt_tokens_details?.cached_tokens ?? undefined;
  const output = u?.completion_tokens ?? undefined;
  const reasoning = u?.completion_tokens_details?.reasoning_tokens ?? undefined;
  return {
    inputTokens: {
      total: input,
      noCache: input === undefined ? undefined : input - (cached ?? 0),
      cacheRead: cached,
      cacheWrite: undefined,
    },
    outputTokens: { total: output, text: output === undefined ? undefined : output - (reasoning ?? 0), reasoning },
  };
}
