import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { type ChatEvent, parseChatEvents } from "@agentfair/contracts";
import type { RuntimeTool, ToolContext } from "../../runtime/tool-registry.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";
import { DEMO_DESIGN_WIDGETS } from "./designer.seed.ts";
import { DesignerService } from "./designer.service.ts";

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;
let tenantUser: TestUser;
let llm: LlmServer;

const call = (user: TestUser | null, method: "GET" | "POST" | "PUT" | "DELETE", path: string, payload?: unknown, lang = "zh") =>
  t.app.inject({
    method,
    url: `/aiagent_api/designer${path}`,
    headers: { ...(user?.headers ?? {}), "accept-language": lang },
    payload: payload as object,
  });

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k" });
  alice = await createUser(t);
  bob = await createUser(t);
  admin = await createUser(t, { username: "admin" });
  tenantUser = await createUser(t, { domain: `d${Date.now().toString(36)}` });
}, 120_000);
afterAll(async () => {
  await t.close();
  await llm.close();
});

describe("designer: saved designs", () => {
  it("creates, lists, gets, updates and deletes the caller's design", async () => {
    const created = await call(alice, "POST", "", { name: "  出行表单 ", widgetList: DEMO_DESIGN_WIDGETS, sampleResult: "{}" });
    expect(created.json()).toMatchObject({ code: 200, msg: "保存成功", data: { name: "出行表单", widgetCount: 8 } });
    const id = created.json().data.id as string;
    const page = (await call(alice, "GET", "/page?page=1&limit=20")).json().data;
    expect(page.list.map((d: { id: string }) => d.id)).toContain(id);
    expect(page.total).toBe(page.list.length);
    const got = (await call(alice, "GET", `/${id}`)).json().data;
    expect(got.widgetList).toEqual(DEMO_DESIGN_WIDGETS);
    const put = await call(alice, "PUT", `/${id}`, { name: "改名", widgetList: [], sampleResult: "" }, "en");
    expect(put.json()).toMatchObject({ msg: "saved successfully", data: { name: "改名", widgetCount: 0, widgetList: [] } });
    expect((await call(alice, "GET", "/page?page=1&limit=20&name=改")).json().data.list).toHaveLength(1);
    const del = await call(alice, "DELETE", `/${id}`);
    expect(del.json()).toMatchObject({ code: 200, msg: "删除成功" });
    expect((await call(alice, "GET", `/${id}`)).statusCode).toBe(404);
  });

  it("keeps designs to their owner: another user, an administrator or another tenant get not found", async () => {
    const id = (await call(alice, "POST", "", { name: "私有" })).json().data.id as string;
    for (const other of [bob, admin, tenantUser]) {
      expect((await call(other, "GET", `/${id}`)).statusCode).toBe(404);
      expect((await call(other, "PUT", `/${id}`, { name: "抢走" })).statusCode).toBe(404);
      expect((await call(other, "DELETE", `/${id}`)).statusCode).toBe(404);
      expect((await call(other, "GET", "/page")).json().data.list.map((d: { id: string }) => d.id)).not.toContain(id);
    }
    expect((await call(alice, "GET", `/${id}`)).json().data.name).toBe("私有");
    expect((await call(null, "GET", "/page")).statusCode).toBe(403);
    expect((await call(null, "POST", "", { name: "x" })).statusCode).toBe(403);
  });

  it("refuses widgets that are not the designer's: unknown types, bad ids, too many, too deep", async () => {
    const bad = (widgetList: unknown) => call(alice, "POST", "", { name: "坏", widgetList });
    expect((await bad([{ type: "script", id: "abc", options: {} }])).statusCode).toBe(400);
    expect((await bad([{ type: "input", id: "<img onerror>", options: {} }])).statusCode).toBe(400);
    expect((await bad([{ type: "input", id: "abc" }])).statusCode).toBe(400);
    const many = Array.from({ length: 501 }, (_, i) => ({ type: "text", id: `w${i}`, options: {} }));
    expect((await bad(many)).statusCode).toBe(400);
    let deep: unknown = { type: "text", id: "leaf", options: {} };
    for (let i = 0; i < 9; i++) deep = { type: "div", id: `d${i}`, options: {}, widgetList: [deep] };
    expect((await bad([deep])).statusCode).toBe(400);
    expect((await call(alice, "POST", "", { name: "   " })).statusCode).toBe(400);
    expect((await call(alice, "POST", "", { name: "x".repeat(101) })).statusCode).toBe(400);
  });

  it("ignores an owner or tenant sent by the client", async () => {
    const res = await call(alice, "POST", "", { name: "伪造", ownerId: bob.id, tenantId: tenantUser.tenantId });
    const id = res.json().data.id as string;
    expect((await call(bob, "GET", `/${id}`)).statusCode).toBe(404);
    expect((await call(alice, "GET", `/${id}`)).statusCode).toBe(200);
  });
});

describe("designs bound to tools", () => {
  const plugin = async (user: TestUser) => {
    const res = await t.app.inject({
      method: "POST",
      url: "/aiagent_api/plugin",
      headers: user.headers,
      payload: {
        pluginName: `表单工具${Math.random().toString(36).slice(2, 7)}`,
        pluginDescription: "返回出行人",
        pluginTags: ["测试"],
        pluginIcon: "3",
        pluginType: "JAVASCRIPT",
        pluginCallableName: `trip_${Math.random().toString(36).slice(2, 8)}`,
        code: "function main() { return { traveller: { name: '张三' } }; }",
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.id as string;
  };

  it("binds the caller's own tools; another user's tool or design is not found", async () => {
    const id = (await call(alice, "POST", "", { name: "绑定", widgetList: DEMO_DESIGN_WIDGETS })).json().data.id as string;
    const mine = await plugin(alice);
    const theirs = await plugin(bob);
    const bound = await call(alice, "PUT", `/${id}/plugins`, { pluginIds: [mine, mine] });
    expect(bound.json()).toMatchObject({ code: 200, data: { pluginIds: [mine] } });
    expect((await call(alice, "GET", `/${id}`)).json().data.pluginIds).toEqual([mine]);
    expect((await call(alice, "PUT", `/${id}/plugins`, { pluginIds: [theirs] })).statusCode).toBe(404);
    expect((await call(bob, "PUT", `/${id}/plugins`, { pluginIds: [theirs] })).statusCode).toBe(404);
    // A tool shows one design: binding it elsewhere moves it.
    const other = (await call(alice, "POST", "", { name: "另一个" })).json().data.id as string;
    await call(alice, "PUT", `/${other}/plugins`, { pluginIds: [mine] });
    expect((await call(alice, "GET", `/${id}`)).json().data.pluginIds).toEqual([]);
    await call(alice, "PUT", `/${id}/plugins`, { pluginIds: [mine] });

    // The bound tool's result comes back as the reply's widget_data of kind design, in the agent's tenant only.
    const designer = new DesignerService(t.platform.db, () => t.services.tools);
    const tool = {
      name: "trip",
      displayName: "trip",
      description: "",
      parameters: {},
      pluginId: mine,
      execute: async () => ({ traveller: { name: "张三" } }),
    } as RuntimeTool;
    const ctx = (tenantId: string) => ({ agent: { tenantId } }) as unknown as ToolContext;
    const events: ChatEvent[] = [];
    const [decorated] = await designer.decorator().decorate([tool], ctx(alice.tenantId));
    expect(await decorated.execute({}, { signal: new AbortController().signal, emit: (e) => events.push(e) })).toEqual({
      traveller: { name: "张三" },
    });
    expect(events).toEqual([
      {
        type: "widget_data",
        widgetData: { config: { kind: "design", designId: id, widgetList: DEMO_DESIGN_WIDGETS }, data: { traveller: { name: "张三" } } },
      },
    ]);
    const [elsewhere] = await designer.decorator().decorate([tool], ctx(tenantUser.tenantId));
    expect(elsewhere).toBe(tool);
  });
});

describe("a design bound to an agent", () => {
  const api = async (who: TestUser, method: "GET" | "PUT" | "POST", url: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, headers: { ...who.headers, lang: "zh" }, payload: payload as object });
    return { status: res.statusCode, ...res.json() };
  };

  it("is saved with the draft (own designs only) and shows in every reply, fed by the reply's result", async () => {
    const [carol, dave, elsewhere] = await Promise.all([
      createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" }),
      createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" }),
      createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY", domain: `e${Date.now().toString(36)}` }),
    ]);
    const mine = (await call(carol, "POST", "", { name: "出行表单", widgetList: DEMO_DESIGN_WIDGETS })).json().data.id as string;
    const daves = (await call(dave, "POST", "", { name: "别人的" })).json().data.id as string;
    const foreign = (await call(elsewhere, "POST", "", { name: "别的租户" })).json().data.id as string;
    const agentId = (await api(carol, "POST", "/aiagent_api/agent/quick/add", { agentName: "表单助手" })).data.agentId as string;
    const draft = (await api(carol, "GET", `/aiagent_api/agent/draft/${agentId}`)).data.draft;
    expect(draft.designId ?? null).toBeNull();
    // Binding someone else's design, or one of another tenant, is refused; an unknown one too.
    for (const designId of [daves, foreign, "nope"])
      expect((await api(carol, "PUT", `/aiagent_api/agent/draft/${agentId}`, { ...draft, designId })).status).toBe(404);
    expect((await api(carol, "PUT", `/aiagent_api/agent/draft/${agentId}`, { ...draft, designId: mine })).data.draft.designId).toBe(mine);
    expect((await api(carol, "GET", `/aiagent_api/agent/draft/${agentId}`)).data.draft.designId).toBe(mine);

    // The (echoing) test model answers with the JSON the question holds: the design reads it.
    const res = await t.app.inject({
      method: "POST",
      url: "/agent/agent_runtime/chat",
      payload: { token: carol.token, schema_id: agentId, release: false, query: '{"traveller":{"name":"张三"}}' },
    });
    const evs = parseChatEvents(res.payload);
    const widgetData = {
      config: { kind: "design", designId: mine, widgetList: DEMO_DESIGN_WIDGETS },
      data: { traveller: { name: "张三" } },
    };
    expect(evs.filter((e) => e.type === "widget_data")).toEqual([{ type: "widget_data", widgetData }]);
    const sessionId = (evs.find((e) => e.type === "session") as { session_id: string }).session_id;
    const reply = (await api(carol, "GET", `/agent/agent_runtime/session/${sessionId}`)).data.messages.at(-1);
    expect(reply.widgetDataList).toEqual([widgetData]);

    // A deleted design is left out of later replies; the reply itself still comes.
    await call(carol, "DELETE", `/${mine}`);
    const after = await t.app.inject({
      method: "POST",
      url: "/agent/agent_runtime/chat",
      payload: { token: carol.token, schema_id: agentId, release: false, query: "你好" },
    });
    expect(after.payload).toContain('"stop"');
    expect(after.payload).not.toContain("widget_data");
  });
});

describe("map origins", () => {
  it("the page admits map styles and tiles only from MAP_ORIGINS", async () => {
    const csp = (res: { headers: Record<string, unknown> }) => String(res.headers["content-security-policy"]);
    const plain = await t.app.inject({ url: "/healthz" });
    expect(csp(plain)).toContain("connect-src 'self';");
    // No fonts from other sites: injected CSS has no way out through @font-face.
    expect(csp(plain)).toContain("font-src 'self' data:");
    const other = await createTestApp({ MAP_ORIGINS: "https://tiles.example.com" });
    try {
      const res = await other.app.inject({ url: "/healthz" });
      expect(csp(res)).toContain("connect-src 'self' https://tiles.example.com");
      expect(csp(res)).toContain("img-src 'self' data: blob: https://tiles.example.com");
    } finally {
      await other.close();
    }
    await expect(createTestApp({ MAP_ORIGINS: "https://x.com; script-src *" })).rejects.toThrow();
    // A second app boots slowly on a busy machine.
  }, 120_000);
});
