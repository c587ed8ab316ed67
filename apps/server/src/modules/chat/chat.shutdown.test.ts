import { parseChatEvents } from "@agentfair/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { chatMessages } from "../../db/schema/index.ts";
import { createUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";

let t: TestApp;
let llm: LlmServer;

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k" });
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

it("/healthz answers without the database; /readyz checks it", async () => {
  expect((await t.app.inject({ url: "/healthz" })).json()).toEqual({ status: "ok" });
  const ready = await t.app.inject({ url: "/readyz" });
  expect(ready.statusCode).toBe(200);
  expect(ready.json()).toEqual({ status: "ok", driver: process.env.TEST_DATABASE_URL ? "postgres" : "pglite" });
});

it("a process shutting down ends its streams with an error event and saves them; then it is not ready", async () => {
  const user = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  const agentId = (await t.app.inject({ method: "POST", url: "/aiagent_api/agent/quick/add", headers: user.headers, payload: {} })).json()
    .data.agentId;
  const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
  const res = await fetch(`${address}/agent/agent_runtime/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: user.token, schema_id: agentId, release: false, query: "讲一个 long 故事" }),
  });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes('"type":"content"')) text += (await reader.read()).value ?? "";
  // SIGTERM's work: the app closes while the reply is streaming (the harness closes the database later).
  const closing = t.app.close();
  for (let r = await reader.read(); !r.done; r = await reader.read()) text += r.value;
  // Closing finishes although the client keeps its connection alive.
  await closing;
  const events = parseChatEvents(text);
  expect(events.find((e) => e.type === "error")).toMatchObject({
    code: 503,
    error_code: "restarting",
    msg: "服务正在重启，本次回答已中断，请重新提问",
  });
  expect(events.at(-1)).toMatchObject({ type: "stop", status: "failed" });
  const session = events[0]?.type === "session" ? events[0] : null;
  const [saved] = await t.platform.db.select().from(chatMessages).where(eq(chatMessages.id, session!.uuid));
  expect(saved).toMatchObject({ status: "failed", error: "restarting" });
  expect(saved?.content.length).toBeGreaterThan(0);
  expect(t.platform.stopping.aborted).toBe(true);
});
