import { type ChatEvent, PROGRESS_MAX, type ReplyStatus, type ToolCallInfo } from "@agentfair/contracts";
import { jsonSchema, type LanguageModel, type ModelMessage, stepCountIs, streamText, type ToolSet, tool } from "ai";
import type { RuntimeTool } from "./tool-registry.ts";

export interface ReplyInput {
  model: LanguageModel;
  system: string;
  messages: ModelMessage[];
  tools: Map<string, RuntimeTool>;
  sampling: { temperature: number; topP: number; presencePenalty: number; frequencyPenalty: number; maxOutputTokens: number };
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
}

const RESULT_MAX = 4000;
const stringify = (v: unknown) => {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s.length > RESULT_MAX ? `${s.slice(0, RESULT_MAX)}…` : s;
};

/**
 * The agent loop: one streamText call with the agent's tools and a step limit. The model asks for
 * tools, the registry runs them, their results go back, until it answers or the limit is hit.
 * Stream parts become the protocol's events; progress rises through stages 1–4 (5 is the
 * follow-ups, emitted by the caller) and never past 95.
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

  const idle = new AbortController();
  let idleTimer: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      result.timedOut = true;
      idle.abort();
    }, input.idleTimeoutMs);
  };
  touch();
  const signal = AbortSignal.any([input.signal, idle.signal]);

  const tools: ToolSet = {};
  for (const t of input.tools.values()) {
    tools[t.name] = tool({
      description: t.description,
      inputSchema: jsonSchema(t.parameters as Parameters<typeof jsonSchema>[0]),
      execute: async (args, opts) => t.execute(args, { signal: opts.abortSignal ?? signal }),
    });
  }
  const calls = new Map<string, ToolCallInfo & { result?: string }>();

  try {
    const stream = streamText({
      model: input.model,
      system: input.system,
      messages: input.messages,
      tools: input.tools.size ? tools : undefined,
      stopWhen: stepCountIs(input.stepLimit),
      temperature: input.sampling.temperature,
      topP: input.sampling.topP,
      presencePenalty: input.sampling.presencePenalty || undefined,
      frequencyPenalty: input.sampling.frequencyPenalty || undefined,
      maxOutputTokens: input.sampling.maxOutputTokens,
      abortSignal: signal,
      maxRetries: 0,
      // Errors arrive as stream parts and are handled below; the default handler would log them raw.
      onError: () => {},
    });
    for await (const part of stream.fullStream) {
      touch();
      switch (part.type) {
        case "text-delta":
          if (!part.text) break;
          result.content += part.text;
          emit({ type: "content", delta: part.text });
          progress(4, Math.min(90, 60 + Math.floor(result.content.length / 40)));
          break;
        case "tool-call": {
          const info = {
            id: part.toolCallId,
            function: { name: part.toolName, arguments: stringify(part.input ?? {}) },
            metaInfo: { name: input.tools.get(part.toolName)?.displayName ?? part.toolName },
          };
          calls.set(part.toolCallId, info);
          result.toolCalls.push(info);
          emit({ type: "tool_call_start", toolCall: info });
          progress(2, 30);
          break;
        }
        case "tool-result":
        case "tool-error": {
          const info = calls.get(part.toolCallId);
          if (!info) break;
          const isError = part.type === "tool-error";
          info.result = isError ? stringify(String((part.error as Error)?.message ?? part.error)) : stringify(part.output);
          emit({
            type: "tool_call_end",
            toolCall: { id: info.id, function: info.function, metaInfo: info.metaInfo },
            result: info.result,
            error: isError,
          });
          progress(3, 45);
          break;
        }
        case "finish":
          result.usage = { inputTokens: part.totalUsage.inputTokens ?? 0, outputTokens: part.totalUsage.outputTokens ?? 0 };
          break;
        case "error":
          result.error ??= part.error;
          break;
        case "abort":
          break;
      }
    }
  } catch (err) {
    result.error ??= err;
  } finally {
    clearTimeout(idleTimer);
  }
  if (input.signal.aborted) result.status = "stopped";
  else if (result.timedOut || result.error) result.status = "failed";
  return result;
}
