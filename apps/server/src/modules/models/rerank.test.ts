import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { startRerankServer } from "../../test/rerank-server.ts";
import type { ModelRow } from "./models.repository.ts";
import { offlineRerank } from "./offline.ts";
import { rerank, safeClientsFor } from "./provider.ts";

let t: TestApp;
let server: Awaited<ReturnType<typeof startRerankServer>>;
let admin: TestUser;
let user: TestUser;

const model = (over: Partial<ModelRow> = {}) => ({
  row: { baseUrl: server.url, modelId: "bge-reranker-v2-m3", ...over } as ModelRow,
  apiKey: "sk-rerank",
  ...safeClientsFor({ allowPrivate: true }, []),
});

beforeAll(async () => {
  server = await startRerankServer();
  t = await createTestApp({ ADMIN_USERNAMES: "boss" });
  admin = await createUser(t, { username: "boss" });
  user = await createUser(t);
});
afterAll(async () => {
  await t.close();
  await server.close();
});

describe("the rerank client", () => {
  it("speaks the /rerank protocol: model, query, documents, top_n in; relevance per document index out", async () => {
    const scores = await rerank(model(), "年假天数", ["报销需要发票", "年假一共十五天", "年假"]);
    expect(server.requests.at(-1)).toEqual({
      path: "/v1/rerank",
      body: {
        model: "bge-reranker-v2-m3",
        query: "年假天数",
        documents: ["报销需要发票", "年假一共十五天", "年假"],
        top_n: 3,
        return_documents: false,
      },
      authorization: "Bearer sk-rerank",
    });
    expect([...scores.entries()].sort((a, b) => b[1] - a[1]).map(([i]) => i)).toEqual([1, 2, 0]);
    expect(scores.get(1)).toBeCloseTo(0.75);
  });

  it("fails on an HTTP error", async () => {
    server.failNext(503);
    await expect(rerank(model(), "q", ["a"])).rejects.toThrow("HTTP 503");
    await expect(rerank(model({ baseUrl: `${server.url}/nowhere` }), "q", ["a"])).rejects.toThrow("HTTP 404");
  });
});

describe("the offline rerank model (lexical cross-scorer)", () => {
  it("scores a passage holding the query's words and phrase above one holding its characters scattered", () => {
    const scores = offlineRerank("年假几天", ["几个假期的天数", "公司年假为每年十五天", "报销需在三十天内提交", ""]);
    expect(scores.get(1)).toBeGreaterThan(scores.get(0)!);
    expect(scores.get(0)).toBeGreaterThan(scores.get(2)!);
    expect(scores.get(3)).toBe(0);
    for (const s of scores.values()) {
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(1);
    }
    expect(offlineRerank("", ["任何"]).get(0)).toBe(0);
  });
});

describe("RERANK models in Model management", () => {
  it("are added, tested and offered like the other types", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/agent_api/api/models",
      headers: admin.headers,
      payload: {
        name: "重排",
        type: "RERANK",
        baseUrl: server.url,
        modelId: "bge-reranker",
        apiKey: "k",
        allowPrivate: true,
        isDefault: true,
      },
    });
    expect(res.json()).toMatchObject({ code: 200, data: { type: "RERANK", isDefault: true } });
    const id = res.json().data.id;
    const tested = await t.app.inject({ method: "POST", url: `/agent_api/api/models/${id}/test`, headers: admin.headers });
    expect(tested.json().data).toMatchObject({ ok: true });
    expect(server.requests.at(-1)).toMatchObject({ path: "/v1/rerank", body: { model: "bge-reranker", query: "ping" } });

    server.failNext(500);
    const failed = await t.app.inject({ method: "POST", url: `/agent_api/api/models/${id}/test`, headers: admin.headers });
    expect(failed.json().data).toMatchObject({ ok: false });

    const options = await t.app.inject({ url: "/agent_api/api/models/options?type=RERANK", headers: user.headers });
    expect(options.json().data).toEqual([{ id, name: "重排", type: "RERANK", isDefault: true }]);
    // not a chat model
    const chat = await t.app.inject({ url: "/agent_api/api/models/options", headers: user.headers });
    expect(chat.json().data.map((m: { id: string }) => m.id)).not.toContain(id);
  });
});
