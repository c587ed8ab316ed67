import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSafeFetch } from "../../platform/net.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";
import { streamChatCompletion } from "./chat-stream.ts";

let llm: LlmServer;
beforeAll(async () => {
  llm = await startLlmServer();
});
afterAll(() => llm.close());

const call = async (tools = false) => {
  const endpoint = { baseUrl: llm.url, modelId: "test-model", apiKey: "k", fetch: createSafeFetch({ allowPrivate: true }) };
  const { stream } = await streamChatCompletion(endpoint, {
    prompt: [
      { role: "system", content: "你是助手" },
      { role: "user", content: [{ type: "text", text: "现在几点？" }] },
    ],
    tools: tools ? [{ type: "function", name: "current_time", description: "the time", inputSchema: { type: "object" } }] : undefined,
    toolChoice: tools ? { type: "auto" } : undefined,
    maxOutputTokens: 100,
  });
  const parts: LanguageModelV3StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
};

describe("streamChatCompletion", () => {
  it("streams text deltas and ends with the usage", async () => {
    llm.script({ chunks: ["你好", "，世界"] });
    const parts = await call();
    expect(parts.filter((p) => p.type === "text-delta").map((p) => p.delta)).toEqual(["你好", "，世界"]);
    const finish = parts.at(-1);
    expect(finish).toMatchObject({ type: "finish", finishReason: { unified: "stop" } });
    expect(finish?.type === "finish" && finish.usage.inputTokens.total).toBeGreaterThan(0);
    const body = llm.requests.at(-1)!.body;
    expect(body).toMatchObject({
      model: "test-model",
      stream: true,
      max_tokens: 100,
      messages: [{ role: "system" }, { role: "user", content: "现在几点？" }],
    });
    expect(llm.requests.at(-1)!.authorization).toBe("Bearer k");
  });

  it("gathers a tool call's arguments sent in pieces", async () => {
    llm.script({ toolCalls: [{ name: "current_time", arguments: '{"zone":"Asia/Shanghai"}' }], delayMs: 5 });
    const parts = await call(true);
    expect(parts.map((p) => p.type)).toContain("tool-input-start");
    expect(parts.find((p) => p.type === "tool-call")).toMatchObject({ toolName: "current_time", input: '{"zone":"Asia/Shanghai"}' });
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "tool-calls" } });
    expect(llm.requests.at(-1)!.body).toMatchObject({
      tools: [{ type: "function", function: { name: "current_time" } }],
      tool_choice: "auto",
    });
  });

  it("an error status is an API call error with that status (how replies name the failure)", async () => {
    llm.script({ status: 429, error: "slow down" });
    await expect(call()).rejects.toMatchObject({ statusCode: 429, message: "slow down", isRetryable: true });
  });
});
