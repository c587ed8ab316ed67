import type { LanguageModelV3FunctionTool } from "@ai-sdk/provider";
import { type ChatEvent, emptyBindings, parseChatEvents } from "@agentfair/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { agentSteps } from "../agents/agents.fixtures.ts";
import { knowledgeSteps } from "../knowledge/knowledge.fixtures.ts";
import { offlineEmbedding, offlineTurn } from "./offline.ts";

const events = parseChatEvents;
const text = (evs: ChatEvent[]) =>
  evs
    .filter((e) => e.type === "content")
    .map((e) => (e as { delta: string }).delta)
    .join("");
const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

describe("the offline demo models", () => {
  it("embeds texts that share words close, unrelated ones far, as unit vectors", () => {
    const a = offlineEmbedding("公司年假为每年十五天");
    const b = offlineEmbedding("年假一共几天");
    const c = offlineEmbedding("发票需在三十天内提交");
    expect(Math.hypot(...a)).toBeCloseTo(1, 6);
    expect(cosine(a, b)).toBeGreaterThan(cosine(b, c));
    expect(offlineEmbedding("")).toHaveLength(256);
  });

  it("calls the tool a question names, with the JSON it wrote, else searches the knowledge bases", () => {
    const tool = (name: string, param: string): LanguageModelV3FunctionTool => ({
      type: "function",
      name,
      inputSchema: { type: "object", properties: { [param]: { type: "string" } }, required: [param] },
    });
    const tools = [tool("get_weather", "city"), tool("knowledge_search", "query")];
    const ask = (q: string) => offlineTurn([{ role: "user", content: [{ type: "text", text: q }] }], tools);
    expect(ask('用 get_weather 查 {"city": "杭州"}')).toEqual({ call: { name: "get_weather", input: { city: "杭州" } } });
    expect(ask("get_weather 杭州")).toEqual({ call: { name: "get_weather", input: { city: "杭州" } } });
    const calculator = { ...tool("calculator", "expression"), description: "计算器：计算四则运算表达式" };
    expect(offlineTurn([{ role: "user", content: [{ type: "text", text: "用计算器算 3*7" }] }], [calculator])).toEqual({
      call: { name: "calculator", input: { expression: "3*7" } },
    });
    expect(ask("年假几天")).toEqual({ call: { name: "knowledge_search", input: { query: "年假几天" } } });
    expect(offlineTurn([{ role: "user", content: [{ type: "text", text: "hello" }] }], [])).toMatchObject({
      text: expect.stringContaining("Offline demo model"),
    });
  });

  describe("seeded with the demo data when no model is configured", () => {
    let t: TestApp;
    let alice: TestUser;

    beforeAll(async () => {
      t = await createTestApp({ SEED_DEMO: "1" });
      alice = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
    });
    afterAll(() => t.close());

    it("are the default chat, embedding and rerank models", async () => {
      const admin = await createUser(t, { username: "admin" });
      const list = (await t.app.inject({ url: "/agent_api/api/models", headers: admin.headers })).json().data;
      expect(list).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: "离线演示模型", type: "LLM", baseUrl: "local://offline", isDefault: true }),
          expect.objectContaining({ name: "离线演示向量模型", type: "EMBEDDING", baseUrl: "local://offline", isDefault: true }),
          expect.objectContaining({ name: "离线演示重排模型", type: "RERANK", baseUrl: "local://offline", isDefault: true }),
        ]),
      );
      // the administrator can edit them like any model (the form takes their base URL)
      const llm = list.find((m: { type: string }) => m.type === "LLM");
      const res = await t.app.inject({
        method: "PUT",
        url: `/agent_api/api/models/${llm.id}`,
        headers: admin.headers,
        payload: { name: "离线演示模型", type: "LLM", baseUrl: "local://offline", modelId: "offline-chat", isDefault: true },
      });
      expect(res.json()).toMatchObject({ code: 200 });
      const tested = await t.app.inject({ method: "POST", url: `/agent_api/api/models/${llm.id}/test`, headers: admin.headers });
      expect(tested.json().data).toMatchObject({ ok: true });
      const reranker = list.find((m: { type: string }) => m.type === "RERANK");
      const rerankTested = await t.app.inject({ method: "POST", url: `/agent_api/api/models/${reranker.id}/test`, headers: admin.headers });
      expect(rerankTested.json().data).toMatchObject({ ok: true });
    });

    it("answer a chat by searching the bound knowledge base by vectors and quoting it with its [n]", async () => {
      const k = knowledgeSteps(t);
      const a = agentSteps(t);
      const baseId = await k.createBase(alice, "员工手册");
      await k.call(alice, "POST", `/${baseId}/segments`, { content: "公司年假为每年十五天，需提前一周申请。", title: "年假" });
      await k.call(alice, "POST", `/${baseId}/segments`, { content: "报销需在三十天内提交发票。", title: "报销" });
      await t.services.knowledge.embedBase(baseId); // the job a worker runs
      const hits = (await k.call(alice, "POST", `/${baseId}/retrieval`, { query: "年假几天", topK: 2 })).json().data;
      expect(hits.vectorUsed).toBe(true);
      expect(hits.hits[0]).toMatchObject({ content: expect.stringContaining("十五天") });
      expect(hits.hits[0].vectorScore).toBeGreaterThan(0);

      const id = await a.create(alice, "人事助手");
      await a.save(alice, id, { bindings: { ...emptyBindings(), knowledgeBases: [baseId] } });
      const res = await t.app.inject({
        method: "POST",
        url: "/agent/agent_runtime/chat",
        payload: { token: alice.token, schema_id: id, release: false, query: "年假有几天？" },
      });
      const evs = events(res.payload);
      expect(evs.find((e) => e.type === "docs")).toMatchObject({ docs: [{ content: expect.stringContaining("十五天") }] });
      expect(text(evs)).toContain("根据知识库中的内容");
      expect(text(evs)).toMatch(/十五天.*\[1\]/);
      expect(evs.at(-1)).toMatchObject({ type: "stop", status: "done" });
    });

    it("say what they are when there is nothing to search or call", async () => {
      const a = agentSteps(t);
      const id = await a.create(alice, "闲聊");
      const res = await t.app.inject({
        method: "POST",
        url: "/agent/agent_runtime/chat",
        payload: { token: alice.token, schema_id: id, release: false, query: "你好" },
      });
      const evs = events(res.payload);
      expect(text(evs)).toContain("离线演示模型");
      // no made-up suggested questions
      expect(evs.some((e) => e.type === "questions" && e.questions.length > 0)).toBe(false);
    });
  });
});
