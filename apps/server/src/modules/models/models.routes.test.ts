import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { models as modelsTable } from "../../db/schema/index.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { startLlmServer, type LlmServer } from "../../test/llm-server.ts";
import { replyModelOf } from "./provider.ts";

let t: TestApp;
let llm: LlmServer;
let admin: TestUser;
let user: TestUser;

const body = (over: Record<string, unknown> = {}) => ({
  name: "Test LLM",
  type: "LLM",
  baseUrl: llm.url,
  apiKey: "sk-secret-123",
  modelId: "test-model",
  ...over,
});

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ ADMIN_USERNAMES: "boss" });
  admin = await createUser(t, { username: "boss" });
  user = await createUser(t);
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

describe("Model management", () => {
  it("is for administrators only", async () => {
    const res = await t.app.inject({ method: "GET", url: "/agent_api/api/models", headers: user.headers });
    expect(res.statusCode).toBe(401);
    const anon = await t.app.inject({ method: "GET", url: "/agent_api/api/models" });
    expect(anon.statusCode).toBe(403);
  });

  it("stores the API key encrypted and never returns it", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/agent_api/api/models",
      headers: admin.headers,
      payload: body({ allowPrivate: true }),
    });
    expect(res.statusCode).toBe(200);
    const model = res.json().data;
    expect(model.hasApiKey).toBe(true);
    expect(JSON.stringify(res.json())).not.toContain("sk-secret-123");
    const [row] = await t.platform.db.select().from(modelsTable).where(eq(modelsTable.id, model.id));
    expect(row.apiKeyEnc).toBeTruthy();
    expect(row.apiKeyEnc).not.toContain("sk-secret-123");
    const list = await t.app.inject({ method: "GET", url: "/agent_api/api/models", headers: admin.headers });
    expect(JSON.stringify(list.json())).not.toContain("sk-secret-123");
    // builders see enabled chat models by name only
    const options = await t.app.inject({ method: "GET", url: "/agent_api/api/models/options", headers: user.headers });
    expect(options.json().data).toContainEqual({ id: model.id, name: "Test LLM", type: "LLM", isDefault: false });
    expect(JSON.stringify(options.json())).not.toContain("baseUrl");
    // type=EMBEDDING lists embedding models only (a knowledge base's choice)
    const embedding = await t.app.inject({
      method: "POST",
      url: "/agent_api/api/models",
      headers: admin.headers,
      payload: body({ name: "Test embedding", type: "EMBEDDING", allowPrivate: true }),
    });
    const embeddingId = embedding.json().data.id;
    expect(options.json().data.map((o: { id: string }) => o.id)).not.toContain(embeddingId);
    const embeddings = await t.app.inject({ method: "GET", url: "/agent_api/api/models/options?type=EMBEDDING", headers: user.headers });
    expect(embeddings.json().data.map((o: { id: string }) => o.id)).toEqual([embeddingId]);
    await t.app.inject({ method: "DELETE", url: `/agent_api/api/models/${embeddingId}`, headers: admin.headers });
    // test connection: one real call, with the decrypted key as bearer
    const test = await t.app.inject({ method: "POST", url: `/agent_api/api/models/${model.id}/test`, headers: admin.headers });
    expect(test.json().data.ok).toBe(true);
    expect(llm.requests.at(-1)?.authorization).toBe("Bearer sk-secret-123");
    // an edit with an empty key keeps the stored one
    const edit = await t.app.inject({
      method: "PUT",
      url: `/agent_api/api/models/${model.id}`,
      headers: admin.headers,
      payload: body({ apiKey: "", allowPrivate: true, rpmLimit: 3 }),
    });
    expect(edit.json().data).toMatchObject({ hasApiKey: true, rpmLimit: 3 });
  });

  it("refuses a private base URL unless allow-listed (SSRF)", async () => {
    for (const baseUrl of [llm.url, "http://169.254.169.254/latest", "http://[::1]:9/v1", "http://10.0.0.1/v1", "http://localhost:9/v1"]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/agent_api/api/models",
        headers: admin.headers,
        payload: body({ baseUrl, allowPrivate: false }),
      });
      const id = res.json().data.id;
      const before = llm.requests.length;
      const test = await t.app.inject({ method: "POST", url: `/agent_api/api/models/${id}/test`, headers: admin.headers, payload: {} });
      expect(test.json().data.ok, baseUrl).toBe(false);
      expect(test.json().data.message).toContain("内网");
      // The administrator is told how a local model server (Ollama, vLLM) is allowed.
      expect(test.json().data.message).toContain("「允许内网地址」");
      const en = await t.app.inject({
        method: "POST",
        url: `/agent_api/api/models/${id}/test`,
        headers: { ...admin.headers, lang: "en" },
        payload: {},
      });
      expect(en.json().data.message).toContain('"Allow private address"');
      expect(llm.requests.length).toBe(before);
      await t.app.inject({ method: "DELETE", url: `/agent_api/api/models/${id}`, headers: admin.headers });
    }
  });

  it("a chat through a model with a blocked base URL gets an error event; the address is never reached", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: "/agent_api/api/models",
      headers: admin.headers,
      payload: body({ allowPrivate: false, isDefault: true, name: "blocked" }),
    });
    const member = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
    const agentId = (
      await t.app.inject({ method: "POST", url: "/aiagent_api/agent/quick/add", headers: member.headers, payload: {} })
    ).json().data.agentId;
    const before = llm.requests.length;
    const res = await t.app.inject({
      method: "POST",
      url: "/agent/agent_runtime/chat",
      payload: { token: member.token, schema_id: agentId, release: false, query: "hi" },
    });
    const lines = res.payload
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.find((e) => e.type === "error")?.msg).toContain("内网");
    expect(lines.at(-1)).toMatchObject({ type: "stop", status: "failed" });
    expect(llm.requests.length).toBe(before);
    await t.app.inject({ method: "DELETE", url: `/agent_api/api/models/${created.json().data.id}`, headers: admin.headers });
  });

  it("makes a model's clients once, keeps them when its rows are read again, and makes new ones when it changes", async () => {
    // On PostgreSQL the creation's invalidation comes back through NOTIFY a moment later (clearing
    // the clients made meanwhile): the test goes on once a marker sent after it has come back too.
    const marker = randomUUID();
    let heard = 0;
    const settled = new Promise<void>((resolve) =>
      t.platform.invalidation.on("models", (key) => {
        if (key === marker && ++heard === (t.databaseUrl ? 2 : 1)) resolve();
      }),
    );
    const created = await t.app.inject({
      method: "POST",
      url: "/agent_api/api/models",
      headers: admin.headers,
      payload: body({ name: "Kept LLM", allowPrivate: true }),
    });
    const id = created.json().data.id;
    await t.platform.invalidation.publish("models", marker);
    await settled;
    const models = t.services.chat.models;
    const first = (await models.usable(null, "LLM", id))!;
    const reply = replyModelOf(first);
    // The rows are read again once the short cache has passed.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 60_000);
      const again = (await models.usable(null, "LLM", id))!;
      expect(again.row).not.toBe(first.row);
      expect(replyModelOf(again)).toBe(reply);
    } finally {
      vi.useRealTimers();
    }
    await t.app.inject({
      method: "PUT",
      url: `/agent_api/api/models/${id}`,
      headers: admin.headers,
      payload: body({ name: "Kept LLM", allowPrivate: true, modelId: "another-model", apiKey: "" }),
    });
    const changed = (await models.usable(null, "LLM", id))!;
    expect(changed.row.modelId).toBe("another-model");
    expect(replyModelOf(changed)).not.toBe(reply);
    await t.app.inject({ method: "DELETE", url: `/agent_api/api/models/${id}`, headers: admin.headers });
  });

  it("validates input at the boundary", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/agent_api/api/models",
      headers: admin.headers,
      payload: body({ baseUrl: "file:///etc/passwd" }),
    });
    expect(res.statusCode).toBe(400);
    const neg = await t.app.inject({
      method: "POST",
      url: "/agent_api/api/models",
      headers: admin.headers,
      payload: body({ rpmLimit: -1 }),
    });
    expect(neg.statusCode).toBe(400);
    const missing = await t.app.inject({ method: "PUT", url: "/agent_api/api/models/nope", headers: admin.headers, payload: body() });
    expect(missing.statusCode).toBe(404);
  });
});

describe("Model seed from the environment", () => {
  it("seeds MODEL_BASE_URL / MODEL_NAME / AUDIO_MODEL once, private URL allowed", async () => {
    const app = await createTestApp({
      MODEL_BASE_URL: llm.url,
      MODEL_API_KEY: "env-key",
      MODEL_NAME: "env-model",
      AUDIO_MODEL: "whisper",
      ADMIN_USERNAMES: "boss",
    });
    try {
      const boss = await createUser(app, { username: "boss" });
      const list = (await app.app.inject({ method: "GET", url: "/agent_api/api/models", headers: boss.headers })).json().data;
      expect(list.map((m: { type: string; modelId: string }) => `${m.type}:${m.modelId}`).sort()).toEqual([
        "AUDIO:whisper",
        "LLM:env-model",
      ]);
      expect(list.every((m: { allowPrivate: boolean; hasApiKey: boolean }) => m.allowPrivate && m.hasApiKey)).toBe(true);
      await app.services.chat.models.seedFromEnv();
      const again = (await app.app.inject({ method: "GET", url: "/agent_api/api/models", headers: boss.headers })).json().data;
      expect(again).toHaveLength(2);
    } finally {
      await app.close();
    }
  });
});
