import {
  APICallError,
  type LanguageModelV3CallOptions,
  type LanguageModelV3FinishReason,
  type LanguageModelV3Message,
  type LanguageModelV3StreamPart,
  type LanguageModelV3Usage,
} from "@ai-sdk/provider";
import type { IncomingMessage } from "node:http";
import type { SafeRequest } from "../../platform/net.ts";

/**
 * A streaming chat completion of an OpenAI-compatible endpoint, read straight from the response
 * body into stream parts. The AI SDK's provider pipes every reply through four transform streams
 * (text decoding, event parsing, JSON validation, conversion), and a fetch response is itself two
 * web streams over node's: here the parts are parsed from node's response as its chunks come, with
 * nothing queued ahead of the reader. Chat replies (runtime/reply.ts) only send what this handles:
 * system text, user text and images, assistant text and tool calls, tool results.
 */
export async function streamChatCompletion(
  endpoint: { baseUrl: string; modelId: string; apiKey: string | undefined; request: SafeRequest },
  options: LanguageModelV3CallOptions,
): Promise<{ stream: AsyncIterable<LanguageModelV3StreamPart> }> {
  const url = `${endpoint.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const tools = options.tools?.flatMap((t) =>
    t.type === "function" ? [{ type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema } }] : [],
  );
  const body = {
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
    stream: true,
    stream_options: { include_usage: true },
  };
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
  if (status < 200 || status > 299) {
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
  return { stream: partsOf(res) };
}

/** The parts of a completion's events, parsed as the body's chunks come. */
async function* partsOf(res: IncomingMessage): AsyncGenerator<LanguageModelV3StreamPart> {
  yield { type: "stream-start", warnings: [] };
  const state = new ReplyState();
  let buffered = "";
  // Ending the iteration early (a stop) destroys the response, and with it the connection.
  res.setEncoding("utf8");
  for await (const text of res as AsyncIterable<string>) {
    buffered += text;
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    for (const line of lines) yield* state.line(line);
  }
  yield* state.line(buffered);
  yield* state.end();
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

/** One reply's chunks as stream parts, in the order the AI SDK's provider gives them. */
class ReplyState {
  private finish: LanguageModelV3FinishReason | undefined;
  private usage: Chunk["usage"];
  private open: "text" | "reasoning" | null = null;
  private readonly calls = new Map<number, { id: string; name: string; input: string }>();

  /** One line of the event stream: `data: {chunk}` lines carry the reply, the rest is framing. */
  *line(line: string): Generator<LanguageModelV3StreamPart> {
    if (!line.startsWith("data:")) return;
    const data = line.slice(5).trim();
    if (data === "[DONE]") return;
    let chunk: Chunk;
    try {
      chunk = JSON.parse(data);
    } catch (err) {
      this.finish = { unified: "error", raw: undefined };
      yield { type: "error", error: err };
      return;
    }
    if (chunk.error) {
      this.finish = { unified: "error", raw: undefined };
      yield { type: "error", error: chunk.error };
      return;
    }
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (choice?.finish_reason) this.finish = { unified: finishReason(choice.finish_reason), raw: choice.finish_reason };
    const delta = choice?.delta;
    if (!delta) return;
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (reasoning) yield* this.say("reasoning", reasoning);
    if (typeof delta.content === "string" && delta.content) yield* this.say("text", delta.content);
    for (const call of delta.tool_calls ?? []) {
      yield* this.close();
      const index = call.index ?? this.calls.size;
      let known = this.calls.get(index);
      if (!known) {
        known = { id: call.id ?? `call_${crypto.randomUUID()}`, name: call.function?.name ?? "", input: "" };
        this.calls.set(index, known);
        yield { type: "tool-input-start", id: known.id, toolName: known.name };
      }
      if (call.function?.arguments) {
        known.input += call.function.arguments;
        yield { type: "tool-input-delta", id: known.id, delta: call.function.arguments };
      }
    }
  }

  *end(): Generator<LanguageModelV3StreamPart> {
    yield* this.close();
    for (const call of this.calls.values()) {
      yield { type: "tool-input-end", id: call.id };
      yield { type: "tool-call", toolCallId: call.id, toolName: call.name, input: call.input || "{}" };
    }
    if (!this.finish) {
      this.finish = { unified: "error", raw: undefined };
      yield { type: "error", error: new Error("the model's stream ended without a finish reason") };
    }
    yield { type: "finish", finishReason: this.finish, usage: usageOf(this.usage) };
  }

  private *say(kind: "text" | "reasoning", delta: string): Generator<LanguageModelV3StreamPart> {
    if (this.open !== kind) {
      yield* this.close();
      this.open = kind;
      yield { type: kind === "text" ? "text-start" : "reasoning-start", id: kind === "text" ? "txt-0" : "reasoning-0" };
    }
    yield kind === "text" ? { type: "text-delta", id: "txt-0", delta } : { type: "reasoning-delta", id: "reasoning-0", delta };
  }

  private *close(): Generator<LanguageModelV3StreamPart> {
    if (this.open === "text") yield { type: "text-end", id: "txt-0" };
    if (this.open === "reasoning") yield { type: "reasoning-end", id: "reasoning-0" };
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
