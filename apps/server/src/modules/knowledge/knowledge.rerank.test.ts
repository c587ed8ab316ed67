import { defaultKnowledgeSettings, emptyBindings, parseChatEvents } from "@agentfair/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { models } from "../../db/schema/index.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { startRerankServer } from "../../test/rerank-server.ts";
import { agentSteps } from "../agents/agents.fixtures.ts";
import { knowledgeSteps } from "./knowledge.fixtures.ts";

/**
 * Retrieval with a rerank model: the fused hits above the threshold are reordered by the model's relevance;
 * without a usable model, or when it fails, the fused order answers and a warning is logged.
 * The local rerank server here prefers passages that say how many days (十五天).
 */
let t: TestApp;
let k: ReturnType<typeof knowledgeSteps>;
let server: Awaited<ReturnType<typeof startRerankServer>>;
let alice: TestUser;
let baseId: string;
let rerankModelId: string;

const retrieval = async (body: object) => {
  const res = await k.call(alice, "POST", `/${baseId}/retrieval`, { query: "年假", topK: 5, ...body });
  expect(res.json(), res.body).toMatchObject({ code: 0 });
  return res.json().data as { hits: { content: string; score: number; keywordScore: number; rerankScore?: number }[]; reranked: boolean };
};
const setRerankModel = async (enabled: boolean) => {
  await t.platform.db.update(models).set({ enabled }).where(eq(models.id, rerankModelId));
  await t.platform.invalidate("models", "");
};

beforeAll(async () => {
  server = await startRerankServer((_query, document) => (document.includes("十五天") ? 0.9 : 0.2));
  t = await createTestApp();
  k = knowledgeSteps(t);
  alice = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  baseId = await k.createBase(alice, "员工手册");
  // The title holds the query word (keyword 1.0); the other holds it in its body only (0.8) but answers it.
  await k.call(alice, "POST", `/${baseId}/segments`, { title: "年假规定", content: "年假需提前一周在系统里申请。" });
  await k.call(alice, "POST", `/${baseId}/segments`, { content: "员工年假一共十五天，可分次休。" });
  const [row] = await t.platform.db
    .insert(models)
    .values({
      tenantId: null,
      name: "重排",
      type: "RERANK",
      baseUrl: server.url,
      modelId: "bge-reranker",
      allowPrivate: true,
      isDefault: true,
    })
    .returning();
  rerankModelId = row.id;
  await t.platform.invalidate("models", "");
});
afterAll(async () => {
  await t.close();
  await server.close();
});
beforeEach(() => setRerankModel(true));

describe("retrieval with rerank", () => {
  it("keeps the fused order when rerank is off", async () => {
    const before = server.requests.length;
    const { hits, reranked } = await retrieval({});
    expect(hits.map((h) => h.content)).toEqual(["年假需提前一周在系统里申请。", "员工年假一共十五天，可分次休。"]);
    expect(reranked).toBe(false);
    expect(hits[0].rerankScore).toBeUndefined();
    expect(server.requests.length).toBe(before);
  });

  it("orders the fused hits by the rerank model's relevance; each hit keeps its keyword, vector and fused scores", async () => {
    const { hits, reranked } = await retrieval({ rerank: true, topK: 1 });
    expect(reranked).toBe(true);
    expect(hits).toEqual([
      expect.objectContaining({
        content: "员工年假一共十五天，可分次休。",
        rerankScore: 0.9,
        keywordScore: 0.8,
        vectorScore: 0,
        score: 0.8,
      }),
    ]);
    // The model read a pool larger than top K: every fused hit, with its title.
    expect(server.requests.at(-1)?.body).toMatchObject({
      model: "bge-reranker",
      query: "年假",
      documents: expect.arrayContaining(["年假规定\n年假需提前一周在系统里申请。", "员工年假一共十五天，可分次休。"]),
      top_n: 2,
    });
    // the threshold still applies to the fused score, before reranking
    expect((await retrieval({ rerank: true, threshold: 0.9 })).hits.map((h) => h.keywordScore)).toEqual([1]);
  });

  it("falls back to the fused order with a warning when the rerank service fails or no rerank model is usable", async () => {
    const warn = vi.spyOn(t.platform.log, "warn");
    server.failNext(500);
    const failed = await retrieval({ rerank: true });
    expect(failed.reranked).toBe(false);
    expect(failed.hits.map((h) => h.keywordScore)).toEqual([1, 0.8]);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.any(Error) }),
      "knowledge: rerank failed, the fused order is kept",
    );

    await setRerankModel(false);
    const none = await retrieval({ rerank: true, rerankModelId });
    expect(none).toMatchObject({ reranked: false, hits: [{ keywordScore: 1 }, { keywordScore: 0.8 }] });
    expect(warn).toHaveBeenCalledWith("knowledge: rerank is on but no rerank model is usable, the fused order is kept");
    warn.mockRestore();
  });

  it("is used by an agent that enables it: the direct answer is the reranked best, and a failure still answers", async () => {
    const a = agentSteps(t);
    const chat = async (agentId: string) => {
      const res = await t.app.inject({
        method: "POST",
        url: "/agent/agent_runtime/chat",
        payload: { token: alice.token, schema_id: agentId, release: false, query: "年假" },
      });
      expect(res.statusCode, res.body).toBe(200);
      const evs = parseChatEvents(res.payload);
      expect(evs.at(-1)).toMatchObject({ type: "stop", status: "done" });
      return evs
        .filter((e) => e.type === "content")
        .map((e) => (e as { delta: string }).delta)
        .join("");
    };
    const knowledge = { ...defaultKnowledgeSettings(), directAnswer: true, directThreshold: 0.5 };
    const bindings = { ...emptyBindings(), knowledgeBases: [baseId] };
    const plain = await a.create(alice, "不重排");
    await a.save(alice, plain, { bindings, knowledge });
    expect(await chat(plain)).toBe("年假需提前一周在系统里申请。");

    const reranking = await a.create(alice, "重排");
    await a.save(alice, reranking, { bindings, knowledge: { ...knowledge, rerank: true, rerankModelId } });
    expect(await chat(reranking)).toBe("员工年假一共十五天，可分次休。");
    server.failNext(503);
    expect(await chat(reranking)).toBe("年假需提前一周在系统里申请。");
  });
});
