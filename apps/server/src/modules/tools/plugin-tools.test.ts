import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseChatEvents } from "@agentfair/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plugins } from "../../db/schema/index.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { seedStandardPlugins } from "./tools.seed.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";

let t: TestApp;
let llm: LlmServer;
let api: http.Server;
let apiBase: string;
const keysSeen: string[] = [];
let alice: TestUser;

beforeAll(async () => {
  api = await new Promise<http.Server>((resolve) => {
    const s = http.createServer((req, res) => {
      keysSeen.push(String(req.headers["x-api-key"] ?? ""));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          city: decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname.split("/").pop() ?? ""),
          weather: "晴",
          max: 28,
        }),
      );
    });
    s.listen(0, "127.0.0.1", () => resolve(s));
  });
  apiBase = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  llm = await startLlmServer();
  t = await createTestApp({
    MODEL_BASE_URL: llm.url,
    MODEL_NAME: "test-model",
    MODEL_API_KEY: "k",
    NET_ALLOW_HOSTS: new URL(apiBase).host,
  });
  alice = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
}, 60_000);
afterAll(async () => {
  await t.close();
  await llm.close();
  api.close();
});

const inject = async (method: "GET" | "POST" | "PUT", url: string, payload?: unknown) =>
  (await t.app.inject({ method, url, headers: alice.headers, payload: payload as object })).json();

async function chat(agentId: string, query: string, release: boolean) {
  const res = await t.app.inject({
    method: "POST",
    url: "/agent/agent_runtime/chat",
    payload: { token: alice.token, schema_id: agentId, release, query },
  });
  return parseChatEvents(res.payload);
}

describe("callable names by the configured model", () => {
  it("takes the model's snake_case suggestion, unique per owner, and falls back to the pinyin slug on a bad answer", async () => {
    let prompt = "";
    llm.script((body) => {
      prompt = JSON.stringify(body.messages);
      return { chunks: ["Query_Stock_Price"] };
    });
    const r = await inject("POST", "/aiagent_api/plugin/callable-name", {
      pluginName: "股票行情",
      pluginDescription: "查询股票的实时价格",
    });
    expect(r).toMatchObject({ code: 200, data: "query_stock_price" });
    expect(prompt).toContain("查询股票的实时价格");
    await inject("POST", "/aiagent_api/plugin", {
      pluginName: "股票行情",
      pluginDescription: "d",
      pluginIcon: "1",
      pluginType: "JAVASCRIPT",
      pluginCallableName: "query_stock_price",
      pluginTags: ["证券"],
      code: "function main() { return 1; }",
    });
    llm.script({ chunks: ["query_stock_price"] });
    expect((await inject("POST", "/aiagent_api/plugin/callable-name", { pluginName: "股票行情" })).data).toBe("query_stock_price_2");
    // Not a function name (spaces, a leading digit): the deterministic slug instead.
    llm.script({ chunks: ["42 is the answer!"] });
    expect((await inject("POST", "/aiagent_api/plugin/callable-name", { pluginName: "股票 行情" })).data).toBe("gu_piao_hang_qing");
    // An answer in words (a model that echoes its prompt): not its first word, the slug.
    llm.script({ chunks: ["Give one snake_case English function name"] });
    expect((await inject("POST", "/aiagent_api/plugin/callable-name", { pluginName: "字符串反转" })).data).toBe("zi_fu_chuan_fan_zhuan");
    llm.script({ chunks: ["`get_rate`."] });
    expect((await inject("POST", "/aiagent_api/plugin/callable-name", { pluginName: "汇率" })).data).toBe("get_rate");
    llm.script({ status: 500, error: "down" });
    expect((await inject("POST", "/aiagent_api/plugin/callable-name", { pluginName: "汇率" })).data).toBe("hui_lv");
  });
});

describe("plugins bound to an agent", () => {
  it("are offered with their parameter schema, called through the registry, shown in chat, with the owner's key kept hidden", async () => {
    const created = await inject("POST", "/aiagent_api/plugin", {
      pluginName: "天气查询",
      pluginDescription: "查询城市今天的天气",
      pluginIcon: "2",
      pluginType: "HTTP",
      pluginCallableName: "get_weather",
      pluginTags: ["政务"],
      url: `${apiBase}/weather/{city}`,
      method: "GET",
      pathVariables: [{ name: "city", description: "城市名", required: true }],
      parameters: [{ name: "unit", options: ["c", "f"], description: "温度单位" }],
      auth: { type: "apiKey", in: "header", name: "X-Api-Key" },
      authSecret: "sk-owner-only",
    });
    const pluginId = created.data.id as string;
    const agentId = (await inject("POST", "/aiagent_api/agent/quick/add", { agentName: "天气助手" })).data.agentId as string;
    const draft = (await inject("GET", `/aiagent_api/agent/draft/${agentId}`)).data.draft;
    const saved = await inject("PUT", `/aiagent_api/agent/draft/${agentId}`, {
      ...draft,
      bindings: { ...draft.bindings, plugins: [pluginId] },
    });
    expect(saved.code).toBe(200);

    let offered: { function: { name: string; parameters: unknown } }[] = [];
    llm.script((body) => {
      offered = body.tools as typeof offered;
      return { toolCalls: [{ name: "get_weather", arguments: JSON.stringify({ city: "上海", unit: "c" }) }] };
    });
    const evs = await chat(agentId, "上海天气怎么样", false);
    const weather = offered.find((o) => o.function.name === "get_weather");
    expect(weather?.function.parameters).toMatchObject({
      type: "object",
      properties: { city: { type: "string", description: "城市名" }, unit: { enum: ["c", "f"] } },
      required: ["city"],
    });
    const end = evs.find((e) => e.type === "tool_call_end");
    expect(end).toMatchObject({
      toolCall: { function: { name: "get_weather" }, metaInfo: { name: "天气查询" }, plugin: { id: pluginId, pluginName: "天气查询" } },
      error: false,
    });
    // The stored reply names the plugin it called in checkPluginsList (§3 Message).
    const session = evs.find((e) => e.type === "session");
    const detail = await inject("GET", `/agent/agent_runtime/session/${session?.type === "session" ? session.session_id : ""}`);
    const bot = detail.data.messages.find((m: { role: string }) => m.role === "bot");
    expect(bot.checkPluginsList).toEqual([{ id: pluginId, pluginName: "天气查询" }]);
    expect(end?.type === "tool_call_end" && JSON.parse(end.result)).toMatchObject({ city: "上海", weather: "晴" });
    expect(keysSeen.at(-1)).toBe("sk-owner-only");
    expect(JSON.stringify(evs)).not.toContain("sk-owner-only");
    expect(evs.at(-1)).toMatchObject({ type: "stop", status: "done" });

    // A released agent offers only published plugins: hirers never run untested definitions.
    expect((await inject("POST", `/aiagent_api/agent/release/${agentId}`, { notes: "v1" })).code).toBe(200);
    llm.script((body) => {
      offered = (body.tools ?? []) as typeof offered;
      return { chunks: ["好的"] };
    });
    await chat(agentId, "你好", true);
    expect(offered.map((o) => o.function.name)).not.toContain("get_weather");
    await inject("POST", `/aiagent_api/plugin/${pluginId}/test`, { params: { city: "北京" } });
    expect((await inject("POST", `/aiagent_api/plugin/${pluginId}/publish`)).data.pluginStatus).toBe("C90_Released");
    llm.script((body) => {
      offered = (body.tools ?? []) as typeof offered;
      return { chunks: ["好的"] };
    });
    await chat(agentId, "你好", true);
    expect(offered.map((o) => o.function.name)).toContain("get_weather");
  });

  it("a failing call shows as an error in chat, and another user's plugin id bound to a draft is ignored", async () => {
    const bob = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
    const bobs = (
      await t.app.inject({
        method: "POST",
        url: "/aiagent_api/plugin",
        headers: bob.headers,
        payload: {
          pluginName: "鲍勃的工具",
          pluginDescription: "d",
          pluginIcon: "1",
          pluginType: "JAVASCRIPT",
          pluginCallableName: "bobs_tool",
          pluginTags: ["银行"],
          code: "function main() { return 1; }",
        },
      })
    ).json().data.id as string;
    const failing = (
      await inject("POST", "/aiagent_api/plugin", {
        pluginName: "会失败",
        pluginDescription: "总是抛错",
        pluginIcon: "1",
        pluginType: "JAVASCRIPT",
        pluginCallableName: "always_fails",
        pluginTags: ["银行"],
        code: "function main() { throw new Error('no data'); }",
      })
    ).data.id as string;
    const agentId = (await inject("POST", "/aiagent_api/agent/quick/add", { agentName: "失败助手" })).data.agentId as string;
    const draft = (await inject("GET", `/aiagent_api/agent/draft/${agentId}`)).data.draft;
    await inject("PUT", `/aiagent_api/agent/draft/${agentId}`, { ...draft, bindings: { ...draft.bindings, plugins: [failing, bobs] } });
    let offered: string[] = [];
    llm.script((body) => {
      offered = ((body.tools ?? []) as { function: { name: string } }[]).map((o) => o.function.name);
      return { toolCalls: [{ name: "always_fails", arguments: "{}" }] };
    });
    const evs = await chat(agentId, "试试", false);
    expect(offered).toContain("always_fails");
    expect(offered).not.toContain("bobs_tool");
    const end = evs.find((e) => e.type === "tool_call_end");
    expect(end).toMatchObject({ error: true, result: "Error: no data" });
  });

  it("binds a standard tool of another owner (the web page reader) and runs it in chat", async () => {
    const admin = await createUser(t);
    await seedStandardPlugins(t.platform.db, admin.id);
    const list = await inject("POST", "/aiagent_api/plugin/page", { pluginName: "网页读取" });
    const reader = list.data.content.find((p: { standard: boolean }) => p.standard) as { id: string };
    const agentId = (await inject("POST", "/aiagent_api/agent/quick/add", { agentName: "读网页助手" })).data.agentId as string;
    const draft = (await inject("GET", `/aiagent_api/agent/draft/${agentId}`)).data.draft;
    await inject("PUT", `/aiagent_api/agent/draft/${agentId}`, { ...draft, bindings: { ...draft.bindings, plugins: [reader.id] } });
    llm.script({ toolCalls: [{ name: "web_fetch", arguments: JSON.stringify({ url: `${apiBase}/weather/杭州` }) }] });
    const evs = await chat(agentId, "读一下这个网页", false);
    const end = evs.find((e) => e.type === "tool_call_end");
    expect(end).toMatchObject({ toolCall: { function: { name: "web_fetch" }, metaInfo: { name: "网页读取" } }, error: false });
    expect(end?.type === "tool_call_end" && JSON.parse(end.result)).toMatchObject({ status: 200, text: expect.stringContaining("杭州") });
  });

  it("a run in chat refuses inward addresses too (the same safe fetch)", async () => {
    const inner = await new Promise<http.Server>((resolve) => {
      const s = http.createServer((_req, res) => res.end("inner secret"));
      s.listen(0, "127.0.0.1", () => resolve(s));
    });
    const innerUrl = `http://127.0.0.1:${(inner.address() as AddressInfo).port}/`;
    const id = (
      await inject("POST", "/aiagent_api/plugin", {
        pluginName: "内网探测",
        pluginDescription: "d",
        pluginIcon: "1",
        pluginType: "HTTP",
        pluginCallableName: "probe",
        pluginTags: ["银行"],
        url: `${apiBase}/ok`,
      })
    ).data.id as string;
    // stored before an allow-list change, say: the connect-time check still refuses it
    const [row] = await t.platform.db.select().from(plugins).where(eq(plugins.id, id));
    await t.platform.db
      .update(plugins)
      .set({ definition: { ...row.definition, url: innerUrl } })
      .where(eq(plugins.id, id));
    const agentId = (await inject("POST", "/aiagent_api/agent/quick/add", { agentName: "探测助手" })).data.agentId as string;
    const draft = (await inject("GET", `/aiagent_api/agent/draft/${agentId}`)).data.draft;
    await inject("PUT", `/aiagent_api/agent/draft/${agentId}`, { ...draft, bindings: { ...draft.bindings, plugins: [id] } });
    llm.script({ toolCalls: [{ name: "probe", arguments: "{}" }] });
    const evs = await chat(agentId, "看看内网", false);
    const end = evs.find((e) => e.type === "tool_call_end");
    expect(end).toMatchObject({ error: true });
    expect(end?.type === "tool_call_end" && end.result).toMatch(/refused/);
    expect(JSON.stringify(evs)).not.toContain("inner secret");
    inner.close();
  });
});
