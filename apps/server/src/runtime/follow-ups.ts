import type { LanguageModelV3CallOptions, LanguageModelV3Content } from "@ai-sdk/provider";
import { FOLLOW_UP_COUNT } from "@agentfair/contracts";

/** Tag in the follow-up prompt: it also lets the local test model recognise the request. */
export const FOLLOW_UP_MARKER = "[follow-up-questions]";

/** A model as the follow-ups call it: the AI SDK's `doGenerate` (the reply's light client, or the offline model). */
export interface CompletionModel {
  doGenerate(options: LanguageModelV3CallOptions): PromiseLike<{ content: LanguageModelV3Content[] }>;
}

/** The 3 follow-up questions (推荐提问) a user may ask next, generated after the reply. */
export async function followUpQuestions(model: CompletionModel, question: string, answer: string, signal: AbortSignal): Promise<string[]> {
  const { content } = await model.doGenerate({
    abortSignal: signal,
    maxOutputTokens: 300,
    temperature: 0.7,
    prompt: [
      {
        role: "system",
        content: `${FOLLOW_UP_MARKER} 根据对话，给出用户接下来最可能追问的 ${FOLLOW_UP_COUNT} 个简短问题（每个不超过 30 个字，使用用户的语言）。只输出 JSON 字符串数组，不要其他内容。`,
      },
      { role: "user", content: [{ type: "text", text: `用户问题：${question.slice(0, 2000)}\n\n回答：${answer.slice(0, 4000)}` }] },
    ],
  });
  return parseQuestions(content.map((part) => (part.type === "text" ? part.text : "")).join(""));
}

export function parseQuestions(text: string): string[] {
  const match = text.match(/\[[\s\S]*\]/);
  let items: unknown[] | null = null;
  if (match) {
    try {
      const parsed: unknown = JSON.parse(match[0]);
      if (Array.isArray(parsed)) items = parsed;
    } catch {
      items = null;
    }
  }
  // a JSON array, even empty, is the model's answer; else one question per line
  if (!items) items = text.split(/\n+/).map((l) => l.replace(/^\s*(\d+[.、)]|[-*•])\s*/, ""));
  return items
    .filter((q): q is string => typeof q === "string")
    .map((q) => q.trim())
    .filter(Boolean)
    .slice(0, FOLLOW_UP_COUNT);
}
