import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { addEmbeddingModel, knowledgeSteps, startEmbeddingServer } from "./knowledge.fixtures.ts";
import { rowsOf } from "./knowledge.repository.ts";
import { FILE_JOB_RETRIES } from "./knowledge.service.ts";

/**
 * Embeddings, the resumable file job and the change of embedding model. The job is run here
 * directly (as pg-boss would, with its retry count), so a failure can be placed mid-way.
 */
let t: TestApp;
let k: ReturnType<typeof knowledgeSteps>;
let emb: Awaited<ReturnType<typeof startEmbeddingServer>>;
let alice: TestUser;
let modelId: string;

const FAQ = `问题,答案\n${Array.from({ length: 80 }, (_, i) => `第${i + 1}号产品怎么保养？,第${i + 1}号产品每${i + 2}个月清洁一次滤网`).join("\n")}\n`;

const count = async (query: ReturnType<typeof sql>) => Number(rowsOf<{ n: number | string }>(await t.platform.db.execute(query))[0].n);
const vectorsOf = (baseId: string) => count(sql`select count(*) as n from knowledge_vectors where base_id = ${baseId}`);
const segmentsOf = (fileId: string) => count(sql`select count(*) as n from knowledge_segments where file_id = ${fileId}`);

/** A committed file whose job has not run yet: what a worker picks up. */
async function committed(baseId: string, name: string, data: string, options: object) {
  const fileId = await k.uploaded(alice, baseId, name, data);
  const row = await t.services.knowledge.repo.beginParse(fileId, options as Record<string, unknown>);
  return {
    fileId,
    job: (retryCount = 0) => ({ id: "job", data: { fileId, parseNo: row.parseNo }, retryCount, retryLimit: FILE_JOB_RETRIES }),
  };
}

beforeAll(async () => {
  emb = await startEmbeddingServer();
  t = await createTestApp();
  k = knowledgeSteps(t);
  modelId = await addEmbeddingModel(t, emb.url);
  alice = await createUser(t);
});
afterAll(async () => {
  await t.close();
  await emb.close();
});

describe("the file job", () => {
  it("resumes after a worker died mid-way, without duplicate segments or vectors", async () => {
    const baseId = await k.createBase(alice, "续跑");
    const { fileId, job } = await committed(baseId, "faq.csv", FAQ, { method: "qa" });
    // Batches of 32: the first two calls embed 64 segments, the third dies.
    emb.failAfter(2, 400);
    await expect(t.services.knowledge.processFile(job(0))).rejects.toThrow();
    expect(await k.state(alice, baseId, fileId)).toMatchObject({ state: "VECTORIZING" });
    expect(await segmentsOf(fileId)).toBe(80);
    expect(await vectorsOf(baseId)).toBe(64);

    // pg-boss runs it again: only the missing vectors are asked for.
    const before = emb.requests;
    await t.services.knowledge.processFile(job(1));
    expect(emb.requests - before).toBe(1);
    expect(await k.state(alice, baseId, fileId)).toMatchObject({ state: "DONE", progress: 100 });
    expect(await segmentsOf(fileId)).toBe(80);
    expect(await vectorsOf(baseId)).toBe(80);
    expect(await count(sql`select count(distinct position) as n from knowledge_segments where file_id = ${fileId}`)).toBe(80);

    // A third run (a duplicate delivery) writes nothing new.
    await t.services.knowledge.processFile(job(2));
    expect(await segmentsOf(fileId)).toBe(80);
    expect(await vectorsOf(baseId)).toBe(80);
  });

  it("after the last retry the file is FAILED with a readable reason", async () => {
    const baseId = await k.createBase(alice, "用尽重试");
    const { fileId, job } = await committed(baseId, "faq.csv", FAQ, { method: "qa" });
    emb.failNext({ status: 400 });
    await t.services.knowledge.processFile(job(FILE_JOB_RETRIES));
    const s = (await k.call(alice, "GET", `/${baseId}/files/${fileId}`, undefined, "en")).json().data;
    expect(s.state).toBe("FAILED");
    expect(s.error).toMatch(/^vector processing failed: /);
  });

  it("a job of an older commit stops when the file was committed again", async () => {
    const baseId = await k.createBase(alice, "旧任务");
    const { fileId, job } = await committed(baseId, "a.txt", "第一版内容", { method: "full_text" });
    await t.services.knowledge.repo.beginParse(fileId, { method: "auto" });
    await t.services.knowledge.processFile(job(0));
    expect(await segmentsOf(fileId)).toBe(0);
    expect((await k.state(alice, baseId, fileId)).state).toBe("QUEUING");
  });
});

describe("hybrid retrieval with vectors", () => {
  it("fuses keyword and vector scores by vectorWeight, and retries a rate-limited embedding call", async () => {
    const baseId = await k.createBase(alice, "混合检索");
    const { job } = await committed(baseId, "faq.csv", FAQ, { method: "qa" });
    await t.services.knowledge.processFile(job(0));
    emb.failNext({ status: 429, headers: { "retry-after": "0" } });
    const before = emb.requests;
    const res = await k.call(alice, "POST", `/${baseId}/retrieval`, { query: "第7号产品怎么保养", topK: 3 });
    expect(emb.requests - before).toBe(2);
    const { hits, vectorUsed } = res.json().data;
    expect(vectorUsed).toBe(true);
    expect(hits[0].question).toBe("第7号产品怎么保养？");
    for (const h of hits) {
      expect(h.vectorScore).toBeGreaterThan(0);
      expect(h.score).toBeCloseTo(0.7 * h.vectorScore + 0.3 * h.keywordScore, 3);
    }
    const vectorOnly = (
      await k.call(alice, "POST", `/${baseId}/retrieval`, { query: "第7号产品怎么保养", topK: 3, vectorWeight: 1 })
    ).json().data.hits;
    for (const h of vectorOnly) expect(h.score).toBeCloseTo(h.vectorScore, 3);
    const keywordOnly = (
      await k.call(alice, "POST", `/${baseId}/retrieval`, { query: "第7号产品怎么保养", topK: 3, vectorWeight: 0 })
    ).json().data.hits;
    for (const h of keywordOnly) expect(h.score).toBeCloseTo(h.keywordScore, 3);
  });

  it("deleting a file removes its vectors", async () => {
    const baseId = await k.createBase(alice, "删向量");
    const { fileId, job } = await committed(baseId, "faq.csv", FAQ, { method: "qa" });
    await t.services.knowledge.processFile(job(0));
    expect(await vectorsOf(baseId)).toBe(80);
    await k.call(alice, "DELETE", `/${baseId}/files/${fileId}`);
    expect(await vectorsOf(baseId)).toBe(0);
  });

  it("a new embedding model re-embeds the stored segments without parsing again", async () => {
    const baseId = await k.createBase(alice, "换模型", { embeddingModelId: modelId });
    const { fileId, job } = await committed(baseId, "faq.csv", FAQ, { method: "qa" });
    await t.services.knowledge.processFile(job(0));
    const ids = (await k.segments(alice, baseId, `&fileId=${fileId}`)).list.map((s: { id: string }) => s.id);
    const other = await addEmbeddingModel(t, emb.url, "test-embedding-2");
    const put = await k.call(alice, "PUT", "", { id: baseId, embeddingModelId: other });
    expect(put.json()).toMatchObject({ code: 0, data: { embeddingModelId: other } });
    await t.services.knowledge.embedBase(baseId);
    const keys = rowsOf<{ model_key: string; n: string | number }>(
      await t.platform.db.execute(sql`select model_key, count(*) as n from knowledge_vectors where base_id = ${baseId} group by model_key`),
    );
    expect(keys).toEqual([{ model_key: `${other}:test-embedding-2`, n: expect.anything() }]);
    expect(Number(keys[0].n)).toBe(80);
    expect((await k.segments(alice, baseId, `&fileId=${fileId}`)).list.map((s: { id: string }) => s.id)).toEqual(ids);
    expect((await k.call(alice, "PUT", "", { id: baseId, embeddingModelId: "no-such-model" }, "en")).json().msg).toBe(
      "the embedding model does not exist or is not enabled",
    );
  });
});
