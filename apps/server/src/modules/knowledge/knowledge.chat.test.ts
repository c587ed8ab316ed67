import { defaultKnowledgeSettings, emptyBindings, parseChatEvents } from "@agentfair/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";
import { agentSteps } from "../agents/agents.fixtures.ts";
import { knowledgeSteps } from "./knowledge.fixtures.ts";

const events = parseChatEvents;

/** Knowledge in chat: direct answers with no model, the retrieval tool, isolation. */
describe("knowledge in chat", () => {
  describe("without any model (an offline FAQ agent)", () => {
    let t: TestApp;
    let k: ReturnType<typeof knowledgeSteps>;
    let a: ReturnType<typeof agentSteps>;
    let alice: TestUser;
    let bob: TestUser;
    let admin: TestUser;
    let baseId: string;

    const chat = async (user: TestUser, agentId: string, query: string, release = false) => {
      const res = await t.app.inject({
        method: "POST",
        url: "/agent/agent_runtime/chat",
        payload: { token: user.token, schema_id: agentId, release, query },
      });
      expect(res.statusCode, res.body).toBe(200);
      return events(res.payload);
    };
    const bound = (ids: string[], directAnswer = true) => ({
      bindings: { ...emptyBindings(), knowledgeBases: ids },
      knowledge: { ...defaultKnowledgeSettings(), directAnswer, directThreshold: 0.5 },
    });

    beforeAll(async () => {
      t = await createTestApp();
      k = knowledgeSteps(t);
      a = agentSteps(t);
      alice = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
      bob = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
      admin = await createUser(t, { username: "admin" });
      baseId = await k.createBase(alice, "客服问答");
      await k.call(alice, "POST", `/${baseId}/qa`, { question: "退货运费谁承担？", answer: "七天无理由退货的运费由买家承担。" });
      await k.call(alice, "POST", `/${baseId}/qa`, { question: "发票怎么开？", answer: "在订单详情页点击申请发票。" });
    });
    afterAll(() => t.close());

    it("answers with the best Q&A pair and its doc, with no model at all", async () => {
      const id = await a.create(alice, "FAQ");
      expect((await a.save(alice, id, bound([baseId]))).statusCode).toBe(200);
      const evs = await chat(alice, id, "退货运费由谁承担");
      const docs = evs.find((e) => e.type === "docs");
      expect(docs).toMatchObject({ docs: [{ title: "[1] 退货运费谁承担？", content: "七天无理由退货的运费由买家承担。" }] });
      const content = evs.filter((e) => e.type === "content").map((e) => (e as { delta: string }).delta);
      expect(content.join("")).toBe("七天无理由退货的运费由买家承担。");
      expect(evs.at(-1)).toMatchObject({ type: "stop", status: "done" });
      expect(evs.some((e) => e.type === "error")).toBe(false);
      // Saved with its docs.
      const session = evs.find((e) => e.type === "session") as { session_id: string };
      const detail = (await t.app.inject({ url: `/agent/agent_runtime/session/${session.session_id}`, headers: alice.headers })).json()
        .data;
      expect(detail.messages[1]).toMatchObject({ content: "七天无理由退货的运费由买家承担。", docs: [{ title: "[1] 退货运费谁承担？" }] });
    });

    it("says it has no answer when nothing reaches the threshold", async () => {
      const id = await a.create(alice, "FAQ2");
      await a.save(alice, id, bound([baseId]));
      const evs = await chat(alice, id, "今天天气怎么样");
      expect(
        evs
          .filter((e) => e.type === "content")
          .map((e) => (e as { delta: string }).delta)
          .join(""),
      ).toBe("抱歉，知识库中没有找到相关答案。");
      expect(evs.some((e) => e.type === "docs")).toBe(false);
    });

    it("reads only bases of the agent's owner: another user's base bound to an agent is ignored", async () => {
      const id = await a.create(bob, "偷用");
      await a.save(bob, id, bound([baseId]));
      const evs = await chat(bob, id, "退货运费由谁承担");
      expect(evs.some((e) => e.type === "docs")).toBe(false);
      expect(evs.some((e) => e.type === "content" && e.delta.includes("买家承担"))).toBe(false);
    });

    it("hirers use a listed agent's bases through it, and can neither list nor read them", async () => {
      const id = await a.listed(alice, admin, { patch: bound([baseId]), name: "客服" });
      const evs = await chat(bob, id, "发票怎么开", true);
      expect(evs.some((e) => e.type === "content" && e.delta.includes("申请发票"))).toBe(true);
      expect((await k.call(bob, "GET", "/page?page=1&limit=50")).json().data.list).toEqual([]);
      expect((await k.call(bob, "GET", `/${baseId}`)).statusCode).toBe(404);
      expect((await k.call(bob, "GET", `/${baseId}/segments`)).statusCode).toBe(404);
      expect((await k.call(bob, "POST", `/${baseId}/retrieval`, { query: "发票", topK: 3 })).statusCode).toBe(404);
      const fileId = await k.uploaded(alice, baseId, "notes.txt", "内部资料");
      const stored = (await t.services.knowledge.repo.file(fileId))!.storedFileId;
      expect((await t.app.inject({ url: `/agent_api/api/files/data/${stored}`, headers: bob.headers })).statusCode).toBe(404);
      expect((await k.call(bob, "GET", `/${baseId}/files/${fileId}`)).statusCode).toBe(404);
    });
  });

  describe("with a model: the retrieval tool", () => {
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

    it("registers knowledge_search for agents with bases; its hits stream as docs and go back to the model to cite", async () => {
      const k = knowledgeSteps(t);
      const a = agentSteps(t);
      const alice = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
      const baseId = await k.createBase(alice, "保修");
      await k.call(alice, "POST", `/${baseId}/segments`, {
        content: "电子产品自购买之日起保修一年，人为损坏不在保修范围内。",
        title: "保修条款",
      });
      const id = await a.create(alice, "售后");
      await a.save(alice, id, { bindings: { ...emptyBindings(), knowledgeBases: [baseId] } });
      const info = (await t.app.inject({ url: `/agent/agent_runtime/agent_info?id=${id}&release=false`, headers: alice.headers })).json()
        .data;
      expect(info.skills).toContain("知识库检索");

      llm.script({ toolCalls: [{ name: "knowledge_search", arguments: JSON.stringify({ query: "电子产品保修多久" }) }] }, (body) => {
        const messages = body.messages as { role: string; content: string }[];
        const tool = messages.find((m) => m.role === "tool");
        return { chunks: [tool?.content.includes("保修一年") ? "电子产品保修一年[1]。" : "没有找到"] };
      });
      const res = await t.app.inject({
        method: "POST",
        url: "/agent/agent_runtime/chat",
        payload: { token: alice.token, schema_id: id, release: false, query: "电子产品保修多久？" },
      });
      const evs = events(res.payload);
      expect(evs.find((e) => e.type === "docs")).toMatchObject({
        docs: [{ title: "[1] 保修条款", content: expect.stringContaining("保修一年") }],
      });
      expect(
        evs
          .filter((e) => e.type === "content")
          .map((e) => (e as { delta: string }).delta)
          .join(""),
      ).toBe("电子产品保修一年[1]。");

      // An agent without bases has no retrieval tool.
      const plain = await a.create(alice, "普通");
      const plainInfo = (
        await t.app.inject({ url: `/agent/agent_runtime/agent_info?id=${plain}&release=false`, headers: alice.headers })
      ).json().data;
      expect(plainInfo.skills).not.toContain("知识库检索");
    });
  });
});
