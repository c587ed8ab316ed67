import { parseChatEvents } from "@agentfair/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";
import { DEMO_TRAIN_CARD, DEMO_TRAIN_PLUGIN, DEMO_WEATHER_CARD, DEMO_WEATHER_PLUGIN } from "./cards.seed.ts";

let t: TestApp;
let llm: LlmServer;
let alice: TestUser;
let bob: TestUser;
let acme: TestUser;

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k" });
  [alice, bob, acme] = await Promise.all([
    createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" }),
    createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" }),
    createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY", domain: "cardsacme" }),
  ]);
}, 60_000);
afterAll(async () => {
  await t.close();
  await llm.close();
});

const call = async (who: TestUser, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) => {
  const res = await t.app.inject({ method, url, headers: { ...who.headers, lang: "zh" }, payload: payload as object });
  return { status: res.statusCode, ...res.json() };
};

const sample = { city: "上海", forecast: [{ date: "2026-06-01", weather: "晴", min: 18, max: 29 }] };

async function chat(who: TestUser, agentId: string, query: string) {
  const res = await t.app.inject({
    method: "POST",
    url: "/agent/agent_runtime/chat",
    payload: { token: who.token, schema_id: agentId, release: false, query },
  });
  return parseChatEvents(res.payload);
}

describe("card templates", () => {
  it("are created, listed, read, updated and deleted by their owner, with §5's messages", async () => {
    expect((await call(alice, "POST", "/aiagent_api/cards", { name: "", config: { type: "weather-card" } })).msg).toBe("请输入卡片名称");
    expect((await call(alice, "POST", "/aiagent_api/cards", { name: "无组件", config: {} })).msg).toBe("卡片编辑至少需要一个组件");
    const notList = await call(alice, "POST", "/aiagent_api/cards", {
      name: "天气",
      config: { type: "weather-card", list: true, dataPath: "city" },
      sample,
    });
    expect(notList).toMatchObject({ status: 400, msg: "多卡片需要列表结构的数据源" });

    const created = await call(alice, "POST", "/aiagent_api/cards", { name: "天气", group: "出行", config: DEMO_WEATHER_CARD, sample });
    expect(created).toMatchObject({
      code: 200,
      msg: "创建成功",
      data: { name: "天气", group: "出行", config: DEMO_WEATHER_CARD, sample, pluginIds: [] },
    });
    const id = created.data.id as string;
    expect((await call(alice, "GET", "/aiagent_api/cards")).data.map((c: { id: string }) => c.id)).toContain(id);
    const updated = await call(alice, "PUT", `/aiagent_api/cards/${id}`, { name: "车票", config: DEMO_TRAIN_CARD });
    expect(updated).toMatchObject({ msg: "保存成功", data: { name: "车票", config: { type: "train-tickets", dataPath: "tickets" } } });
    expect((await call(alice, "GET", `/aiagent_api/cards/${id}`)).data.sample).toBeUndefined();
    expect((await call(alice, "DELETE", `/aiagent_api/cards/${id}`)).msg).toBe("删除成功");
    expect((await call(alice, "GET", `/aiagent_api/cards/${id}`)).status).toBe(404);
  });

  it("are invisible to other users and tenants (not found), and need a sign-in", async () => {
    const id = (await call(alice, "POST", "/aiagent_api/cards", { name: "私有", config: DEMO_WEATHER_CARD })).data.id;
    for (const other of [bob, acme]) {
      expect((await call(other, "GET", `/aiagent_api/cards/${id}`)).status).toBe(404);
      expect((await call(other, "PUT", `/aiagent_api/cards/${id}`, { name: "改", config: DEMO_WEATHER_CARD })).status).toBe(404);
      expect((await call(other, "DELETE", `/aiagent_api/cards/${id}`)).status).toBe(404);
      expect((await call(other, "GET", "/aiagent_api/cards")).data.map((c: { id: string }) => c.id)).not.toContain(id);
    }
    expect((await t.app.inject({ method: "GET", url: "/aiagent_api/cards" })).statusCode).toBe(403);
    const huge = await call(alice, "POST", "/aiagent_api/cards", {
      name: "大",
      config: DEMO_WEATHER_CARD,
      sample: { x: "a".repeat(70_000) },
    });
    expect(huge.status).toBe(400);
  });
});

describe("a card bound to a plugin", () => {
  it("comes back with the bound tool's result in the reply, is saved with it, and goes when unbound", async () => {
    const pluginId = (await call(alice, "POST", "/aiagent_api/plugin", DEMO_WEATHER_PLUGIN)).data.id as string;
    const cardId = (await call(alice, "POST", "/aiagent_api/cards", { name: "天气卡片", config: DEMO_WEATHER_CARD })).data.id as string;
    // Only the owner binds, only their own card.
    const bobCard = (await call(bob, "POST", "/aiagent_api/cards", { name: "b", config: DEMO_WEATHER_CARD })).data.id as string;
    expect((await call(bob, "PUT", `/aiagent_api/cards/binding/${pluginId}`, { cardId: bobCard })).status).toBe(404);
    expect((await call(alice, "PUT", `/aiagent_api/cards/binding/${pluginId}`, { cardId: bobCard })).status).toBe(404);
    expect((await call(bob, "GET", `/aiagent_api/cards/binding/${pluginId}`)).status).toBe(404);
    expect((await call(alice, "GET", `/aiagent_api/cards/binding/${pluginId}`)).data).toEqual({ pluginId, cardId: null });
    expect((await call(alice, "PUT", `/aiagent_api/cards/binding/${pluginId}`, { cardId })).data).toEqual({ pluginId, cardId });
    expect((await call(alice, "GET", `/aiagent_api/cards/${cardId}`)).data.pluginIds).toEqual([pluginId]);

    const agentId = (await call(alice, "POST", "/aiagent_api/agent/quick/add", { agentName: "天气卡片助手" })).data.agentId as string;
    const draft = (await call(alice, "GET", `/aiagent_api/agent/draft/${agentId}`)).data.draft;
    await call(alice, "PUT", `/aiagent_api/agent/draft/${agentId}`, { ...draft, bindings: { ...draft.bindings, plugins: [pluginId] } });

    const evs = await chat(alice, agentId, '调用 weather_forecast {"city":"上海"}');
    const widget = evs.find((e) => e.type === "widget_data");
    expect(widget?.type === "widget_data" && widget.widgetData).toMatchObject({
      config: { kind: "card", type: "weather-card", list: true, dataPath: "forecast" },
    });
    const data =
      widget?.type === "widget_data" ? (widget.widgetData.data as { date: string; weather: string; min: number; max: number }[]) : [];
    expect(data).toHaveLength(5);
    expect(data[0]).toMatchObject({
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      weather: expect.any(String),
      min: expect.any(Number),
    });
    // Deterministic by city.
    const again = (await chat(alice, agentId, '调用 weather_forecast {"city":"上海"}')).find((e) => e.type === "widget_data");
    expect(again?.type === "widget_data" && again.widgetData.data).toEqual(data);

    const sessionId = evs.find((e) => e.type === "session")?.type === "session" ? (evs[0] as { session_id: string }).session_id : "";
    const detail = await call(alice, "GET", `/agent/agent_runtime/session/${sessionId}`);
    expect(detail.data.messages.at(-1).widgetData).toMatchObject({ config: { kind: "card", type: "weather-card" }, data });

    // Deleting the card unbinds it: the tool still answers, with no card.
    await call(alice, "DELETE", `/aiagent_api/cards/${cardId}`);
    const plain = await chat(alice, agentId, '调用 weather_forecast {"city":"上海"}');
    expect(plain.some((e) => e.type === "tool_call_end")).toBe(true);
    expect(plain.some((e) => e.type === "widget_data")).toBe(false);
  });

  it("keeps every card of a reply whose tools return several, in the order they came, when the session is reopened", async () => {
    const weather = (await call(bob, "POST", "/aiagent_api/plugin", DEMO_WEATHER_PLUGIN)).data.id as string;
    const train = (await call(bob, "POST", "/aiagent_api/plugin", DEMO_TRAIN_PLUGIN)).data.id as string;
    const weatherCard = (await call(bob, "POST", "/aiagent_api/cards", { name: "天气", config: DEMO_WEATHER_CARD })).data.id;
    const trainCard = (await call(bob, "POST", "/aiagent_api/cards", { name: "车票", config: DEMO_TRAIN_CARD })).data.id;
    await call(bob, "PUT", `/aiagent_api/cards/binding/${weather}`, { cardId: weatherCard });
    await call(bob, "PUT", `/aiagent_api/cards/binding/${train}`, { cardId: trainCard });
    const agentId = (await call(bob, "POST", "/aiagent_api/agent/quick/add", { agentName: "出行助手" })).data.agentId as string;
    const draft = (await call(bob, "GET", `/aiagent_api/agent/draft/${agentId}`)).data.draft;
    await call(bob, "PUT", `/aiagent_api/agent/draft/${agentId}`, { ...draft, bindings: { ...draft.bindings, plugins: [weather, train] } });

    const evs = await chat(bob, agentId, '调用 weather_forecast {"city":"上海"} 调用 train_tickets {"from":"北京","to":"上海"}');
    const streamed = evs.flatMap((e) => (e.type === "widget_data" ? [e.widgetData] : []));
    expect(streamed.map((w) => w.config.kind === "card" && w.config.type).sort()).toEqual(["train-tickets", "weather-card"]);

    const sessionId = (evs.find((e) => e.type === "session") as { session_id: string }).session_id;
    const reply = (await call(bob, "GET", `/agent/agent_runtime/session/${sessionId}`)).data.messages.at(-1);
    expect(reply.widgetDataList).toEqual(streamed);
    expect(reply.widgetData).toEqual(streamed[0]);
  });

  it("comes back from a workflow bound to a card too (a workflow is a tool)", async () => {
    const callable = `forecast_wf_${Date.now().toString(36)}`;
    const created = await call(alice, "POST", "/aiagent_api/workflow", {
      workflowName: "天气工作流",
      workflowDescription: "按城市返回五天天气",
      workflowCallableName: callable,
    });
    const workflowId = created.data.id as string;
    const code = `function main(p) {
      return { forecast: [1, 2, 3].map((d) => ({ date: "2026-06-0" + d, weather: "晴", min: 18, max: 28 + d, city: p.city })) };
    }`;
    const graph = await call(alice, "PUT", `/aiagent_api/workflow/${workflowId}/graph`, {
      nodes: [
        { id: "start", type: "start", data: { inputs: [{ name: "city", type: "string" }] } },
        { id: "code", type: "code", data: { language: "javascript", code, params: { city: "{{start.city}}" } } },
        { id: "end", type: "end", data: { outputs: { forecast: "{{code.forecast}}" } } },
      ],
      edges: [
        { source: "start", target: "code" },
        { source: "code", target: "end" },
      ],
    });
    expect(graph.code).toBe(200);
    const cardId = (await call(alice, "POST", "/aiagent_api/cards", { name: "工作流天气", config: DEMO_WEATHER_CARD })).data.id as string;
    expect((await call(alice, "PUT", `/aiagent_api/cards/binding/${workflowId}`, { cardId })).data).toEqual({
      pluginId: workflowId,
      cardId,
    });

    const agentId = (await call(alice, "POST", "/aiagent_api/agent/quick/add", { agentName: "工作流卡片助手" })).data.agentId as string;
    const draft = (await call(alice, "GET", `/aiagent_api/agent/draft/${agentId}`)).data.draft;
    await call(alice, "PUT", `/aiagent_api/agent/draft/${agentId}`, { ...draft, bindings: { ...draft.bindings, workflows: [workflowId] } });
    const evs = await chat(alice, agentId, `调用 ${callable} {"city":"杭州"}`);
    const widget = evs.find((e) => e.type === "widget_data");
    expect(widget?.type === "widget_data" && widget.widgetData).toMatchObject({
      config: { kind: "card", type: "weather-card", dataPath: "forecast" },
      data: [{ date: "2026-06-01", weather: "晴", max: 29 }, { max: 30 }, { max: 31 }],
    });
  });
});
