import type {
  JSONSchema7,
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { type ChatEvent, PROGRESS_MAX, type ReplyStatus, type ToolCallInfo } from "@agentfair/contracts";
import { LinkedAbortController } from "../platform/abort.ts";
import type { RuntimeTool } from "./tool-registry.ts";

/** A model as a reply calls it: the AI SDK's `doStream`, whose parts are only iterated (a web stream or not). */
export interface ReplyModel {
  doStream(options: LanguageModelV3CallOptions): PromiseLike<{ stream: AsyncIterable<LanguageModelV3StreamPart> }>;
}

export interface ReplyInput {
  /** Called step by step. */
  model: ReplyModel;
  system: string;
  messages: LanguageModelV3Message[];
  tools: Map<string, RuntimeTool>;
  sampling: { temperature: number; topP: number; presencePenalty: number; frequencyPenalty: number; maxOutputTokens: number };
  /** Most model calls in one reply (each tool round is one). */
  stepLimit: number;
  /** Aborted by the stop button or a client disconnect. */
  signal: AbortSignal;
  /** A stream that sends nothing for this long ends as failed. */
  idleTimeoutMs: number;
  emit(event: ChatEvent): void;
}

export interface ReplyResult {
  status: ReplyStatus;
  content: string;
  toolCalls: (ToolCallInfo & { result?: string })[];
  step: number;
  usage: { inputTokens: number; outputTokens: number };
  /** Why it failed, for the log and the message; never sent raw to people. */
  error?: unknown;
  timedOut?: boolean;
  /** The model still asked for tools when the step limit ended the loop: it never answered. */
  stepLimited?: boolean;
}

const RESULT_MAX = 4000;
const stringify = (v: unknown) => {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s.length > RESULT_MAX ? `${s.slice(0, RESULT_MAX)}…` : s;
};

/** A tool's arguments as the model sent them, parsed; null when they are not a JSON object. */
function parseArguments(input: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(input || "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * The agent loop, on the provider's streaming call: the model answers, or asks for tools; the
 * registry runs them, their results go back, until it answers or the step limit is hit. Stream
 * parts become the protocol's events; progress goes through the stages the reply reaches —
 * 1 thinking (waiting for the model), 2 searching information (the model asks for tools, they
 * run), 3 analyzing (the model reads their results), 4 generating result (text) — with 5 (the
 * follow-ups) emitted by the caller, and never past 95. (The AI SDK's `streamText` does the same with several
 * more stream stages per call: this loop keeps the first token about a millisecond sooner.)
 */
export async function runReply(input: ReplyInput): Promise<ReplyResult> {
  const { emit } = input;
  const result: ReplyResult = { status: "done", content: "", toolCalls: [], step: 1, usage: { inputTokens: 0, outputTokens: 0 } };
  let percent = 0;
  const progress = (stage: number, target: number) => {
    const next = Math.min(PROGRESS_MAX, Math.max(percent, target));
    if (stage !== result.step || next >= percent + 5) {
      percent = next;
      result.step = stage;
      emit({ type: "progress", stage, percent });
    }
  };
  progress(1, 10);

  // One signal for the model calls and tools: the caller's stop, or nothing streamed for a while.
  const stopped = new LinkedAbortController([input.signal]);
  const signal = stopped.signal;
  // Renewed on every part (refresh reuses the timer: no new one per chunk).
  const idle = setTimeout(() => {
    result.timedOut = true;
    stopped.abort();
  }, input.idleTimeoutMs);

  const tools: LanguageModelV3FunctionTool[] = [...input.tools.values()].map((t) => ({
    type: "function",
    name: t.name,
    description: t.description,
    inputSchema: t.parameters as JSONSchema7,
  }));
  const prompt: LanguageModelV3Message[] = [{ role: "system", content: input.system }, ...input.messages];

  try {
    for (let step = 1; step <= input.stepLimit; step++) {
      let text = "";
      const asked: { info: ToolCallInfo & { result?: string }; args: Record<string, unknown> | null }[] = [];
      const { stream } = await input.model.doStream({
        prompt,
        tools: tools.length ? tools : undefined,
        toolChoice: tools.length ? { type: "auto" } : undefined,
        temperature: input.sampling.temperature,
        topP: input.sampling.topP,
        presencePenalty: input.sampling.presencePenalty || undefined,
        frequencyPenalty: input.sampling.frequencyPenalty || undefined,
        maxOutputTokens: input.sampling.maxOutputTokens,
        abortSignal: signal,
      });
      for await (const part of stream) {
        idle.refresh();
        if (part.type === "text-delta" && part.delta) {
          text += part.delta;
          result.content += part.delta;
          emit({ type: "content", delta: part.delta });
          progress(4, Math.min(90, 60 + Math.floor(result.content.length / 40)));
        } else if (part.type === "tool-input-start") {
          progress(2, 25);
        } else if (part.type === "tool-call") {
          const args = parseArguments(part.input);
          const info = {
            id: part.toolCallId,
            function: { name: part.toolName, arguments: args ? stringify(args) : stringify(part.input) },
            metaInfo: { name: input.tools.get(part.toolName)?.displayName ?? part.toolName },
            ...(input.tools.get(part.toolName)?.plugin ? { plugin: input.tools.get(part.toolName)?.plugin } : {}),
          };
          asked.push({ info, args });
          result.toolCalls.push(info);
          emit({ type: "tool_call_start", toolCall: info });
          progress(2, 30);
        } else if (part.type === "finish") {
          result.usage.inputTokens += part.usage.inputTokens.total ?? 0;
          result.usage.outputTokens += part.usage.outputTokens.total ?? 0;
        } else if (part.type === "error") {
          result.error ??= part.error;
        }
      }
      if (result.error || signal.aborted || !asked.length) break;
      if (step === input.stepLimit) result.stepLimited = true;

      // The tools run one after another, and their results go back for the next step.
      const results: LanguageModelV3Message = { role: "tool", content: [] };
      for (const { info, args } of asked) {
        const tool = input.tools.get(info.function.name);
        let output: unknown;
        let isError = false;
        try {
          if (!tool) throw new Error(`unknown tool: ${info.function.name}`);
          if (!args) throw new Error("the arguments are not a JSON object");
          output = await tool.execute(args, { signal, emit });
        } catch (err) {
          if (signal.aborted) throw err;
          isError = true;
          output = (err as Error)?.message ?? String(err);
        }
        info.result = stringify(output);
        emit({
          type: "tool_call_end",
          toolCall: { id: info.id, function: info.function, metaInfo: info.metaInfo, ...(info.plugin ? { plugin: info.plugin } : {}) },
          result: info.result,
          error: isError,
        });
        results.content.push({
          type: "tool-result",
          toolCallId: info.id,
          toolName: info.function.name,
          output: isError ? { type: "error-text", value: info.result } : { type: "text", value: info.result },
        });
      }
      // The results are back: the model now reads them.
      if (!result.stepLimited) progress(3, 45);
      prompt.push(
        {
          role: "assistant",
          content: [
            ...(text ? [{ type: "text" as const, text }] : []),
            ...asked.map(({ info, args }) => ({
              type: "tool-call" as const,
              toolCallId: info.id,
              toolName: info.function.name,
              input: args ?? {},
            })),
          ],
        },
        results,
      );
    }
  } catch (err) {
    result.error ??= err;
  } finally {
    clearTimeout(idle);
    stopped.release();
  }
  if (input.signal.aborted) result.status = "stopped";
  else if (result.timedOut || result.error) result.status = "failed";
  return result;
}
