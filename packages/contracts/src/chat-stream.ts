import { z } from "zod";
import { widgetData } from "./cards.ts";
import { insightStepItem } from "./insight.ts";

/**
 * The chat stream protocol: POST /agent/agent_runtime/chat answers with one JSON object per
 * line (application/x-ndjson), each one of these events. The server writes them; one reader on
 * the web turns them into message state.
 */

/** Progress stages 1–5 (doc 2 §4): thinking, searching information, analyzing, generating result, reflected deeply. */
export const PROGRESS_STAGES = [1, 2, 3, 4, 5] as const;
/** Progress never shows 100 before the stop event; it rises to 95. */
export const PROGRESS_MAX = 95;

/**
 * A tool a reply checked (doc 2 §3 Message "checkPluginsList"): named by pluginName (plugins),
 * externalPluginName (MCP tools) or workflowName (workflows), with the tool's id.
 */
export const checkPluginItem = z.object({
  id: z.string(),
  pluginName: z.string().optional(),
  externalPluginName: z.string().optional(),
  workflowName: z.string().optional(),
});
export type CheckPluginItem = z.infer<typeof checkPluginItem>;

export const toolCallInfo = z.object({
  id: z.string(),
  function: z.object({ name: z.string(), arguments: z.string() }),
  metaInfo: z.object({ name: z.string() }),
  /** Set when the tool is a plugin, MCP tool or workflow (not for built-in tools or knowledge). */
  plugin: checkPluginItem.optional(),
});
export type ToolCallInfo = z.infer<typeof toolCallInfo>;

export const chatDoc = z.object({ title: z.string(), content: z.string(), url: z.string().optional() });
export type ChatDoc = z.infer<typeof chatDoc>;
export const chatMedia = z.object({ url: z.string(), name: z.string(), mimeType: z.string() });
export type ChatMedia = z.infer<typeof chatMedia>;
export const chatUsage = z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() });
export const replyStatus = z.enum(["done", "stopped", "failed"]);
export type ReplyStatus = z.infer<typeof replyStatus>;

/**
 * Why a reply could not be given (or, for stepLimit, ended without an answer): saved with the
 * message, so the page words it in the language it shows now.
 */
export const chatErrorCode = z.enum([
  "noModel",
  "modelTimeout",
  "modelUnavailable",
  "modelRejected",
  "modelRateLimited",
  "modelBlockedAddress",
  "stepLimit",
  "internal",
  "restarting",
  "notSaved",
]);
export type ChatErrorCode = z.infer<typeof chatErrorCode>;

export const chatEvent = z.discriminatedUnion("type", [
  /** First line: the session (new or existing) and the ids of the two messages. */
  z.object({
    type: z.literal("session"),
    session_id: z.string(),
    title: z.string(),
    question_uuid: z.string(),
    uuid: z.string(),
  }),
  z.object({ type: z.literal("progress"), stage: z.number().int().min(1).max(5), percent: z.number().min(0).max(PROGRESS_MAX) }),
  z.object({ type: z.literal("content"), delta: z.string() }),
  z.object({ type: z.literal("tool_call_start"), toolCall: toolCallInfo }),
  z.object({
    type: z.literal("tool_call_end"),
    toolCall: toolCallInfo,
    result: z.string(),
    error: z.boolean(),
  }),
  z.object({ type: z.literal("docs"), docs: z.array(chatDoc) }),
  z.object({ type: z.literal("media"), media: z.array(chatMedia) }),
  /** A bound card (or design) for the reply: the template and the tool result at its data path. */
  z.object({ type: z.literal("widget_data"), widgetData }),
  /** The 3 follow-up questions (推荐提问). */
  z.object({ type: z.literal("questions"), questions: z.array(z.string()) }),
  /** A message for people, shown inside the reply; `error_code` lets the page word it itself. */
  z.object({ type: z.literal("error"), msg: z.string(), code: z.number().int(), error_code: chatErrorCode.optional() }),
  /** A workflow the model called reports a node's progress (the execute page shows these as steps). */
  z.object({
    type: z.literal("workflow_node"),
    workflowName: z.string(),
    runId: z.string(),
    nodeId: z.string(),
    nodeType: z.string(),
    title: z.string(),
    status: z.enum(["RUNNING", "PAUSED", "SUCCEEDED", "FAILED", "SKIPPED"]),
  }),
  /** A report agent's analysis: its report id and the generation steps so far (doc 2 §3 insightStep). */
  z.object({ type: z.literal("insight_step"), reportId: z.string(), insightStep: z.array(insightStepItem) }),
  /** Last line: how the reply ended and what it used. */
  z.object({ type: z.literal("stop"), status: replyStatus, usage: chatUsage }),
]);
export type ChatEvent = z.infer<typeof chatEvent>;
export type ChatEventOf<T extends ChatEvent["type"]> = Extract<ChatEvent, { type: T }>;

/** Parses one stream line; unknown or broken lines are skipped by the reader. */
export function parseChatEvent(line: string): ChatEvent | null {
  const trimmed = line.trim();
  if (!trimmed) return null;
  try {
    const parsed = chatEvent.safeParse(JSON.parse(trimmed));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Every event of a whole stream's text (a finished reply, a saved stream), skipping what parseChatEvent skips. */
export function parseChatEvents(text: string): ChatEvent[] {
  return text
    .split("\n")
    .map(parseChatEvent)
    .filter((e): e is ChatEvent => e !== null);
}
