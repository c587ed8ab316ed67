import http from "node:http";
import type { AddressInfo } from "node:net";
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSafeRequest } from "../../platform/net.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";
import { chatCompletion, streamChatCompletion } from "./chat-stream.ts";

let llm: LlmServer;
beforeAll(async () => {
  llm = await startLlmServer();
});
afterAll(() => llm.close());

const call = async (tools = false) => {
  const endpoint = { baseUrl: llm.url, modelId: "test-model", apiKey: "k", request: createSafeRequest({ allowPrivate: true }) };
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

  it("reads events split anywhere by the network (inside a line, inside a character), reasoning before text", async () => {
    const events = [
      { choices: [{ delta: { reasoning_content: "先想一想" } }] },
      { choices: [{ delta: { content: "你好" } }] },
      { choices: [{ delta: { content: "，世界" }, finish_reason: "stop" }] },
      { choices: [], usage: { prompt_tokens: 7, completion_tokens: 3 } },
    ];
    const body = Buffer.from(`${events.map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`).join("")}data: [DONE]\n\n`);
    const raw = await rawServer(async (res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      // Pieces of 5 bytes: lines and three-byte characters are cut in the middle.
      for (let i = 0; i < body.length; i += 5) {
        res.write(body.subarray(i, i + 5));
        await new Promise((r) => setTimeout(r, 1));
      }
      res.end();
    });
    const parts = await partsFrom(raw.url);
    await raw.close();
    expect(parts.map((p) => p.type)).toEqual([
      "stream-start",
      "reasoning-start",
      "reasoning-delta",
      "reasoning-end",
      "text-start",
      "text-delta",
      "text-delta",
      "text-end",
      "finish",
    ]);
    expect(parts.filter((p) => p.type === "text-delta").map((p) => p.delta)).toEqual(["你好", "，世界"]);
    expect(parts.at(-1)).toMatchObject({
      finishReason: { unified: "stop" },
      usage: { inputTokens: { total: 7 }, outputTokens: { total: 3 } },
    });
  });

  it("an aborted call closes the model's connection while it streams", async () => {
    const { raw, connectionClosed } = await oneDeltaThenWait();
    const controller = new AbortController();
    const parts: LanguageModelV3StreamPart[] = [];
    const reading = partsFrom(raw.url, controller.signal, (part) => {
      parts.push(part);
      if (part.type === "text-delta") controller.abort();
    });
    await expect(reading).rejects.toThrow();
    await connectionClosed;
    await raw.close();
    expect(parts.filter((p) => p.type === "text-delta")).toHaveLength(1);
  });

  it("a reader that stops early closes the model's connection", async () => {
    const { raw, connectionClosed } = await oneDeltaThenWait();
    const endpoint = { baseUrl: raw.url, modelId: "m", apiKey: undefined, request: createSafeRequest({ allowPrivate: true }) };
    const { stream } = await streamChatCompletion(endpoint, { prompt: [{ role: "user", content: [{ type: "text", text: "q" }] }] });
    for await (const part of stream) if (part.type === "text-delta") break;
    await connectionClosed;
    await raw.close();
  });

  it("a chunk carrying an error is an error part, and the finish says so", async () => {
    const raw = await rawServer((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`data: ${JSON.stringify({ error: { message: "overloaded" } })}\n\n`);
    });
    const parts = await partsFrom(raw.url);
    await raw.close();
    expect(parts.find((p) => p.type === "error")).toMatchObject({ error: { message: "overloaded" } });
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "error" } });
  });
});

describe("chatCompletion", () => {
  const endpoint = () => ({ baseUrl: llm.url, modelId: "test-model", apiKey: "k", request: createSafeRequest({ allowPrivate: true }) });
  const options = {
    prompt: [{ role: "user" as const, content: [{ type: "text" as const, text: "q" }] }],
    maxOutputTokens: 300,
    temperature: 0.7,
  };

  it("asks for one answer and gives its text", async () => {
    llm.script({ chunks: ["一二", "三"] });
    expect(await chatCompletion(endpoint(), options)).toEqual({ content: [{ type: "text", text: "一二三" }] });
    const request = llm.requests.at(-1)!;
    expect(request.body).toMatchObject({
      model: "test-model",
      max_tokens: 300,
      temperature: 0.7,
      messages: [{ role: "user", content: "q" }],
    });
    expect(request.body.stream).toBeUndefined();
    expect(request.authorization).toBe("Bearer k");
  });

  it("an error status is an API call error with that status", async () => {
    llm.script({ status: 500, error: "down" });
    await expect(chatCompletion(endpoint(), options)).rejects.toMatchObject({ statusCode: 500, message: "down" });
  });

  it("attack: an answer that does not end is not read into memory", async () => {
    const server = await rawServer((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const kb = Buffer.alloc(64 * 1024, 0x20);
      const more = () => {
        while (!res.destroyed && res.write(kb));
        if (!res.destroyed) res.once("drain", more);
      };
      more();
    });
    const request = createSafeRequest({ allowPrivate: true });
    await expect(chatCompletion({ baseUrl: server.url, modelId: "m", apiKey: undefined, request }, options)).rejects.toThrow(
      /over 1048576 bytes/,
    );
    await server.close();
  });
});

/** A model that sends one text delta and then nothing, and says when the connection to it closes. */
async function oneDeltaThenWait() {
  let closed: () => void = () => {};
  const connectionClosed = new Promise<void>((r) => {
    closed = r;
  });
  const raw = await rawServer((res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: "一" } }] })}\n\n`);
    res.on("close", closed);
  });
  return { raw, connectionClosed };
}

/** A model server that answers every request with `answer` (raw bytes, for what the test model does not send). */
async function rawServer(answer: (res: http.ServerResponse) => unknown) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => void answer(res));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

async function partsFrom(baseUrl: string, abortSignal?: AbortSignal, onPart?: (part: LanguageModelV3StreamPart) => void) {
  const endpoint = { baseUrl, modelId: "m", apiKey: undefined, request: createSafeRequest({ allowPrivate: true }) };
  const { stream } = await streamChatCompletion(endpoint, {
    prompt: [{ role: "user", content: [{ type: "text", text: "q" }] }],
    abortSignal,
  });
  const parts: LanguageModelV3StreamPart[] = [];
  for await (const part of stream) {
    parts.push(part);
    onPart?.(part);
  }
  return parts;
}
