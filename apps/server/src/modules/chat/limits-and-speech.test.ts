import { parseChatEvents } from "@agentfair/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { startLlmServer, type LlmServer } from "../../test/llm-server.ts";
import { SPEECH_PER_HOUR } from "./chat.service.ts";

let t: TestApp;
let llm: LlmServer;
let admin: TestUser;
let user: TestUser;

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ ADMIN_USERNAMES: "boss" });
  admin = await createUser(t, { username: "boss" });
  user = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

const addModel = (payload: Record<string, unknown>) =>
  t.app.inject({
    method: "POST",
    url: "/agent_api/api/models",
    headers: admin.headers,
    payload: { name: "m", baseUrl: llm.url, modelId: "test-model", allowPrivate: true, isDefault: true, ...payload },
  });

function wav() {
  const b = Buffer.alloc(44 + 3200);
  b.write("RIFF", 0);
  b.write("WAVE", 8);
  return b;
}
function multipart(data: Buffer) {
  const boundary = "----speech";
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="speech.wav"\r\nContent-Type: audio/wav\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { ...user.headers, "content-type": `multipart/form-data; boundary=${boundary}` } };
}

describe("speech to text", () => {
  it("says clearly when no audio model is configured", async () => {
    const res = await t.app.inject({ method: "POST", url: "/agent/agent_runtime/speech_to_text", ...multipart(wav()) });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain("模型管理");
  });

  it("transcribes through the configured audio model (OpenAI-compatible)", async () => {
    expect((await addModel({ type: "AUDIO", modelId: "whisper-1", apiKey: "sk-audio" })).statusCode).toBe(200);
    llm.script({ chunks: ["今天天气怎么样"] });
    const res = await t.app.inject({ method: "POST", url: "/agent/agent_runtime/speech_to_text", ...multipart(wav()) });
    expect(res.json()).toMatchObject({ code: 200, data: { text: "今天天气怎么样" } });
    const req = llm.requests.at(-1);
    expect(req?.path).toBe("/v1/audio/transcriptions");
    expect(req?.authorization).toBe("Bearer sk-audio");
    llm.script({ status: 500 });
    const failed = await t.app.inject({ method: "POST", url: "/agent/agent_runtime/speech_to_text", ...multipart(wav()) });
    expect(failed.json().msg).toBe("语音识别失败，请重试");
  });
});

describe("per-minute model limits", () => {
  it("attack: transcriptions (up to 15 MB each, on the operator's audio model) are limited per user and hour", async () => {
    const u = await createUser(t);
    const send = (who: TestUser) => {
      const { payload, headers } = multipart(wav());
      return t.app.inject({ method: "POST", url: "/agent/agent_runtime/speech_to_text", payload, headers: { ...headers, ...who.headers } });
    };
    for (let i = 0; i < SPEECH_PER_HOUR; i++) expect((await send(u)).statusCode).not.toBe(429);
    expect((await send(u)).statusCode).toBe(429);
    expect((await send(user)).statusCode).not.toBe(429);
  });

  it("refuses replies over the request limit with an error event; 0 disables", async () => {
    const model = (await addModel({ type: "LLM", rpmLimit: 2 })).json().data;
    const agentId = (await t.app.inject({ method: "POST", url: "/aiagent_api/agent/quick/add", headers: user.headers, payload: {} })).json()
      .data.agentId;
    const ask = async () => {
      const res = await t.app.inject({
        method: "POST",
        url: "/agent/agent_runtime/chat",
        payload: { token: user.token, schema_id: agentId, release: false, query: "hi" },
      });
      return parseChatEvents(res.payload);
    };
    expect((await ask()).at(-1)).toMatchObject({ type: "stop", status: "done" });
    expect((await ask()).at(-1)).toMatchObject({ type: "stop", status: "done" });
    const third = await ask();
    expect(third.find((e) => e.type === "error")).toMatchObject({ msg: "模型调用超过每分钟限额，请稍后再试" });
    // 0 disables the limit
    await t.app.inject({
      method: "PUT",
      url: `/agent_api/api/models/${model.id}`,
      headers: admin.headers,
      payload: { name: "m", type: "LLM", baseUrl: llm.url, modelId: "test-model", allowPrivate: true, isDefault: true, rpmLimit: 0 },
    });
    expect((await ask()).at(-1)).toMatchObject({ type: "stop", status: "done" });
  });
});
