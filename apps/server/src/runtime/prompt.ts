import type { LanguageModelV3FilePart, LanguageModelV3Message, LanguageModelV3TextPart } from "@ai-sdk/provider";
import type { RuntimeAgent } from "../modules/agents/runtime-agent.ts";

export interface HistoryMessage {
  role: "user" | "bot";
  content: string;
}

export interface Attachment {
  name: string;
  /** Images go to vision models as image parts; documents as extracted text. */
  kind: "image" | "text";
  text?: string;
  data?: Uint8Array;
  mimeType?: string;
}

/** Rough token estimate: CJK characters count one each, other text about four characters a token. */
export function estimateTokens(text: string): number {
  const cjk = (text.match(/[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]/g) ?? []).length;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

/**
 * Persona with the agent's memory variables filled in: {{name}} takes the asker's value (`memory`),
 * else the variable's default.
 */
export function systemPrompt(agent: RuntimeAgent, now = new Date(), memory: Record<string, string> = {}): string {
  const memoryValue = (v: RuntimeAgent["variables"][number]) => memory[v.name] ?? v.default;
  const vars = new Map(agent.variables.map((v) => [v.name, memoryValue(v)]));
  const persona = agent.persona.replace(/\{\{\s*([\w\u4e00-\u9fff]+)\s*\}\}/g, (m, name: string) => vars.get(name) ?? m);
  const parts = [persona.trim() || `你是智能体「${agent.agentName}」。${agent.agentDescription}`.trim()];
  if (agent.variables.length)
    parts.push(
      `记忆变量（用户的当前值）：\n${agent.variables.map((v) => `- ${v.name}${v.description ? `（${v.description}）` : ""}：${memoryValue(v)}`).join("\n")}`,
    );
  parts.push(`当前时间：${now.toISOString()}。请使用用户提问的语言回答，必要时使用 Markdown。`);
  return parts.join("\n\n");
}

const ATTACHMENT_TEXT_MAX = 20_000;

/**
 * System prompt + history (newest first until the window is full) + the question with its
 * attachments. The window leaves room for the answer.
 */
export function assembleMessages(opts: {
  agent: RuntimeAgent;
  history: HistoryMessage[];
  query: string;
  attachments: Attachment[];
  contextWindow: number;
  maxOutputTokens: number;
  vision: boolean;
  /** The asker's memory variable values. */
  memory?: Record<string, string>;
}): { system: string; messages: LanguageModelV3Message[]; estimatedInputTokens: number } {
  const system = systemPrompt(opts.agent, new Date(), opts.memory);
  const docs = opts.attachments
    .filter((a) => a.kind === "text" || !opts.vision)
    .map((a) =>
      a.kind === "text"
        ? `【附件：${a.name}】\n${(a.text ?? "").slice(0, ATTACHMENT_TEXT_MAX)}`
        : `【附件：${a.name}（图片，当前模型不支持识图）】`,
    );
  const questionText = [...docs, opts.query].filter(Boolean).join("\n\n");
  const content: (LanguageModelV3TextPart | LanguageModelV3FilePart)[] = [{ type: "text", text: questionText }];
  if (opts.vision)
    for (const a of opts.attachments)
      if (a.kind === "image" && a.data) content.push({ type: "file", data: a.data, mediaType: a.mimeType ?? "image/png" });
  const fixed = estimateTokens(system) + estimateTokens(questionText) + opts.attachments.filter((a) => a.kind === "image").length * 800;
  let budget = Math.max(0, opts.contextWindow - opts.maxOutputTokens - fixed);
  const kept: LanguageModelV3Message[] = [];
  for (let i = opts.history.length - 1; i >= 0; i--) {
    const h = opts.history[i];
    if (!h.content) continue;
    const cost = estimateTokens(h.content) + 4;
    if (cost > budget) break;
    budget -= cost;
    const text = [{ type: "text" as const, text: h.content }];
    kept.unshift(h.role === "user" ? { role: "user", content: text } : { role: "assistant", content: text });
  }
  const messages: LanguageModelV3Message[] = [...kept, { role: "user", content }];
  const used = Math.max(0, opts.contextWindow - opts.maxOutputTokens - budget);
  return { system, messages, estimatedInputTokens: used };
}
