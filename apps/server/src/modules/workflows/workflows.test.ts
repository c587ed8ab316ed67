import http from "node:http";
import type { AddressInfo } from "node:net";
import { type ChatEvent, parseChatEvent, parseChatEvents } from "@agentfair/contracts";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatStreams } from "../../db/schema/index.ts";
import type { Caller } from "../../platform/auth.ts";
import type { RuntimeAgent } from "../agents/runtime-agent.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createPeerApp, createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";
import { seedTools } from "../tools/tools.seed.ts";
import { engineCases } from "./engine.cases.ts";
import { runInChat } from "./workflow-tools.ts";
import { seedWorkflows } from "./workflows.seed.ts";

let t: TestApp;
let llm: LlmServer;
let api: http.Server;
let apiBase: string;
let owner: TestUser;
let other: TestUser;

const P = "/aiagent_api";

beforeAll(async () => {
  llm = await startLlmServer();
  api = await new Promise<http.Server>((resolve) => {
    const s = http.createServer((req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ path: req.url, weather: "晴" }));
    });
    s.listen(0, "127.0.0.1", () => resolve(s));
  });
  const port = (api.address() as AddressInfo).port;
  apiBase = `http://127.0.0.1:${port}`;
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", NET_ALLOW_HOSTS: `127.0.0.1:${port}` });
  owner = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  other = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
});
afterAll(async () => {
  await t?.close();
  await llm?.close();
  api?.close();
});

const call = async (user: TestUser, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown, lang = "en") => {
  const res = await t.app.inject({ method, url: `${P}${url}`, headers: { ...user.headers, lang }, payload: payload as object });
  // biome-ignore lint/suspicious/noExplicitAny: test reads of many shapes
  return { status: res.statusCode, body: res.json() as { code: number; msg: string; data: any } };
};

let n = 0;
async function createWorkflow(user = owner) {
  n++;
  const r = await call(user, "POST", "/workflow", {
    workflowName: `分数工作流${n}`,
    workflowDescription: "scores a number",
    workflowIcon: "3",
    workflowIconBackground: "#ffe8e8",
    workflowCallableName: `score_flow_${n}`,
    workflowTags: ["营销"],
  });
  expect(r.body.code).toBe(200);
  return r.body.data.id as string;
}

const scoreGraph = {
  nodes: [
    { id: "start", type: "start", data: { inputs: [{ name: "x", type: "number" }] } },
    {
      id: "double",
      type: "code",
      data: { language: "javascript", code: "function main(params) { return { y: params.x * 2 }; }", params: { x: "{{start.x}}" } },
    },
    {
      id: "check",
      type: "condition",
      data: { cases: [{ id: "big", logic: "and", conditions: [{ variable: "{{double.y}}", operator: "gt", value: "10" }] }] },
    },
    { id: "bigText", type: "template", data: { template: "big {{double.y}}" } },
    { id: "smallText", type: "template", data: { template: "small {{double.y}}" } },
    { id: "join", type: "aggregate", data: { variables: ["{{bigText.output}}", "{{smallText.output}}"] } },
    { id: "end", type: "end", data: { outputs: { y: "{{double.y}}", label: "{{join.output}}" } } },
  ],
  edges: [
    { source: "start", target: "double" },
    { source: "double", target: "check" },
    { source: "check", target: "bigText", sourceHandle: "big" },
    { source: "check", target: "smallText", sourceHandle: "else" },
    { source: "bigText", target: "join" },
    { source: "smallText", target: "join" },
    { source: "join", target: "end" },
  ],
};

async function finished(runId: string, user = owner) {
  await t.services.workflows.settled(runId);
  for (let i = 0; i < 100; i++) {
    const r = await call(user, "GET", `/workflow/runs/${runId}`);
    if (r.body.data.status !== "RUNNING") return r.body.data;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error("run did not finish");
}

describe("workflows API", () => {
  it("creates a workflow (also a tool of type 2) and checks the spec's messages", async () => {
    const missing = await call(owner, "POST", "/workflow", { workflowCallableName: "x_flow" }, "zh");
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe("请输入工作流名称");
    const missingEn = await call(owner, "POST", "/workflow", { workflowCallableName: "x_flow" });
    expect(missingEn.body.msg).toBe("please enter the workflow name");
    const named = await call(owner, "POST", "/workflow/callable-name", {}, "en");
    expect(named.body.msg).toBe("please enter the workflow name or introduction");

    const id = await createWorkflow();
    const got = await call(owner, "GET", `/workflow/${id}`);
    expect(got.body.data).toMatchObject({ id, workflowIcon: "3", workflowTags: ["营销"], pluginStatus: "C00_Unreleased", released: null });
    expect(got.body.data.draft.nodes.map((x: { type: string }) => x.type)).toEqual(["start", "end"]);

    const dup = await call(owner, "POST", "/workflow", { workflowName: "again", workflowCallableName: `score_flow_${n}` });
    expect(dup.status).toBe(400);

    const tools = await call(owner, "POST", "/plugin/page", { pluginTypes: 2 });
    expect(tools.body.data.content.some((p: { id: string; pluginType: string }) => p.id === id && p.pluginType === "WORKFLOW")).toBe(true);
    const plugins = await call(owner, "POST", "/plugin/page", { pluginTypes: 1 });
    expect(plugins.body.data.content.some((p: { id: string }) => p.id === id)).toBe(false);
    const list = await call(owner, "GET", "/workflow/list");
    expect(list.body.data.content.some((w: { id: string }) => w.id === id)).toBe(true);
  });

  it("validates the graph with the spec's messages", async () => {
    const id = await createWorkflow();
    const put = (graph: unknown, lang = "en") => call(owner, "PUT", `/workflow/${id}/graph`, graph, lang);
    const noStart = await put({ nodes: [{ id: "end", type: "end", data: {} }], edges: [] }, "zh");
    expect(noStart.body.msg).toBe("初始节点不能删除");
    expect((await put({ nodes: [{ id: "end", type: "end", data: {} }], edges: [] })).body.msg).toBe("initial node cannot be deleted");
    const dupVar = await put({
      nodes: [
        {
          id: "start",
          type: "start",
          data: {
            inputs: [
              { name: "a", type: "string" },
              { name: "a", type: "number" },
            ],
          },
        },
        { id: "end", type: "end", data: {} },
      ],
      edges: [{ source: "start", target: "end" }],
    });
    expect(dupVar.body.msg).toMatch(/^variable name duplicate/);
    const dangling = await put({
      nodes: [
        { id: "start", type: "start", data: {} },
        { id: "end", type: "end", data: {} },
      ],
      edges: [
        { source: "start", target: "end" },
        { source: "start", target: "ghost" },
      ],
    });
    expect(dangling.status).toBe(400);
    const noEnd = await put({
      nodes: [
        { id: "start", type: "start", data: {} },
        { id: "end", type: "end", data: {} },
      ],
      edges: [],
    });
    expect(noEnd.body.msg).toBe("no end node can be reached from the start node");
    const cycle = await put({
      nodes: [
        { id: "start", type: "start", data: {} },
        { id: "a", type: "template", data: {} },
        { id: "b", type: "template", data: {} },
        { id: "end", type: "end", data: {} },
      ],
      edges: [
        { source: "start", target: "a" },
        { source: "a", target: "b" },
        { source: "b", target: "a" },
        { source: "b", target: "end" },
      ],
    });
    expect(cycle.body.msg).toMatch(/cycle/);
    const badData = await put({
      nodes: [
        { id: "start", type: "start", data: {} },
        { id: "c", type: "code", data: { language: "ruby" } },
        { id: "end", type: "end", data: {} },
      ],
      edges: [
        { source: "start", target: "c" },
        { source: "c", target: "end" },
      ],
    });
    expect(badData.status).toBe(400);
    expect(badData.body.msg).toMatch(/node c/);
    const good = await put(scoreGraph);
    expect(good.body.code).toBe(200);
    expect(good.body.data.draft.nodes).toHaveLength(7);
  });

  it("runs a workflow, keeps each node's trace and lists the run in the history", async () => {
    const id = await createWorkflow();
    expect((await call(owner, "PUT", `/workflow/${id}/graph`, scoreGraph)).body.code).toBe(200);
    const started = await call(owner, "POST", `/workflow/${id}/run`, { inputs: { x: 7 } });
    expect(started.body.code).toBe(200);
    const run = await finished(started.body.data.runId);
    expect(run.status).toBe("SUCCEEDED");
    expect(run.outputs).toEqual({ y: 14, label: "big 14" });
    const byId = Object.fromEntries(run.nodes.map((x: { id: string }) => [x.id, x]));
    expect(byId.double).toMatchObject({ status: "SUCCEEDED", input: { x: 7 }, output: { y: 14 }, error: null });
    expect(byId.double.startedAt).toBeTruthy();
    expect(byId.double.finishedAt).toBeTruthy();
    expect(byId.smallText.status).toBe("SKIPPED");

    const small = await finished((await call(owner, "POST", `/workflow/${id}/run`, { inputs: { x: 2 } })).body.data.runId);
    expect(small.outputs).toEqual({ y: 4, label: "small 4" });

    const history = await call(owner, "GET", `/workflow/${id}/runs`);
    expect(history.body.data.totalElements).toBe(2);
    expect(history.body.data.content[0]).toMatchObject({ workflowId: id, status: "SUCCEEDED" });
  });

  it("releases, resumes a failed run from the failed node, and streams run events", async () => {
    const id = await createWorkflow();
    const failing = structuredClone(scoreGraph);
    failing.nodes[1].data.code = "function main(params) { throw new Error('broken'); }";
    await call(owner, "PUT", `/workflow/${id}/graph`, failing);
    const notReleased = await call(owner, "POST", `/workflow/${id}/run`, { inputs: { x: 1 }, version: "released" });
    expect(notReleased.status).toBe(400);
    const run = await finished((await call(owner, "POST", `/workflow/${id}/run`, { inputs: { x: 9 } })).body.data.runId);
    expect(run).toMatchObject({ status: "FAILED", failedNodeId: "double" });
    expect(run.error).toMatch(/broken/);
    const startNode = run.nodes.find((x: { id: string }) => x.id === "start");

    // The fix goes into the draft; resume runs the failed node again and keeps the start node's row.
    await call(owner, "PUT", `/workflow/${id}/graph`, scoreGraph);
    expect((await call(owner, "POST", `/workflow/runs/${run.id}/resume`)).body.code).toBe(200);
    const resumed = await finished(run.id);
    expect(resumed.status).toBe("SUCCEEDED");
    expect(resumed.outputs).toEqual({ y: 18, label: "big 18" });
    expect(resumed.nodes.find((x: { id: string }) => x.id === "start").startedAt).toBe(startNode.startedAt);
    expect((await call(owner, "POST", `/workflow/runs/${run.id}/resume`)).status).toBe(400);

    const rel = await call(owner, "POST", `/workflow/${id}/release`);
    expect(rel.body.data.version).toBe(1);
    const wf = await call(owner, "GET", `/workflow/${id}`);
    expect(wf.body.data).toMatchObject({ pluginStatus: "C90_Released", releasedVersion: 1, draftChanged: false });
    const relRun = await call(owner, "POST", `/workflow/${id}/run`, { inputs: { x: 1 }, version: "released" });
    const events = await t.app.inject({
      method: "GET",
      url: `${P}/workflow/runs/${relRun.body.data.runId}/events`,
      headers: owner.headers,
    });
    expect(events.headers["content-type"]).toMatch(/text\/event-stream/);
    const lines = events.body
      .split("\n\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l.replace(/^data: /, "")));
    expect(lines[0].type).toBe("snapshot");
    expect(lines.at(-1)).toMatchObject({ type: "run", status: "SUCCEEDED", outputs: { y: 2, label: "small 2" } });
  });

  it("pauses at a human-input node until it is answered", async () => {
    const id = await createWorkflow();
    await call(owner, "PUT", `/workflow/${id}/graph`, {
      nodes: [
        { id: "start", type: "start", data: {} },
        { id: "ask", type: "human", data: { prompt: "approve?", fields: [{ name: "ok", type: "boolean" }] } },
        { id: "end", type: "end", data: { outputs: { ok: "{{ask.ok}}" } } },
      ],
      edges: [
        { source: "start", target: "ask" },
        { source: "ask", target: "end" },
      ],
    });
    const run = await finished((await call(owner, "POST", `/workflow/${id}/run`, { inputs: {} })).body.data.runId);
    expect(run.status).toBe("PAUSED");
    expect(run.waiting).toMatchObject({ nodeId: "ask", prompt: "approve?" });
    const missing = await call(owner, "POST", `/workflow/runs/${run.id}/human-input`, { nodeId: "ask", values: {} });
    expect(missing.status).toBe(400);
    expect((await call(other, "POST", `/workflow/runs/${run.id}/human-input`, { nodeId: "ask", values: { ok: true } })).status).toBe(404);
    expect((await call(owner, "POST", `/workflow/runs/${run.id}/human-input`, { nodeId: "ask", values: { ok: true } })).body.code).toBe(
      200,
    );
    const done = await finished(run.id);
    expect(done).toMatchObject({ status: "SUCCEEDED", outputs: { ok: true } });
  });

  it("hides another user's workflows and runs (not found)", async () => {
    const id = await createWorkflow();
    await call(owner, "PUT", `/workflow/${id}/graph`, scoreGraph);
    const run = await finished((await call(owner, "POST", `/workflow/${id}/run`, { inputs: { x: 1 } })).body.data.runId);
    for (const [method, url, body] of [
      ["GET", `/workflow/${id}`],
      ["PUT", `/workflow/${id}/graph`, scoreGraph],
      ["POST", `/workflow/${id}/run`, { inputs: {} }],
      ["POST", `/workflow/${id}/release`],
      ["GET", `/workflow/${id}/runs`],
      ["GET", `/workflow/runs/${run.id}`],
      ["GET", `/workflow/runs/${run.id}/events`],
      ["POST", `/workflow/runs/${run.id}/resume`],
      ["DELETE", `/workflow/${id}`],
    ] as const) {
      const r = await call(other, method, url, body);
      expect(r.status, `${method} ${url}`).toBe(404);
    }
    expect((await call(other, "GET", "/workflow/list")).body.data.content).toEqual([]);
    expect((await call(owner, "DELETE", `/workflow/${id}`)).body.code).toBe(200);
    expect((await call(owner, "GET", `/workflow/runs/${run.id}`)).status).toBe(404);
  });
});

describe("the demo workflow as a tool", () => {
  it("is seeded released, runs offline, and an agent's model calls it through the tool registry", async () => {
    const member = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
    await seedWorkflows(t.platform.db, { users: { member: member.id } });
    const list = await call(member, "GET", "/workflow/list");
    const demo = list.body.data.content[0];
    expect(demo).toMatchObject({ workflowCallableName: "order_discount", pluginStatus: "C90_Released", releasedVersion: 1 });
    const run = await finished(
      (await call(member, "POST", `/workflow/${demo.id}/run`, { inputs: { name: "张三", amount: 800 }, version: "released" })).body.data
        .runId,
      member,
    );
    expect(run.outputs).toEqual({ message: "张三您好，本单享受0.9折扣，应付720元。", pay: 720 });

    // Bound to an agent (as a plugin binding), the workflow is a tool; its nodes report progress into the chat.
    const agent = {
      agentId: "a1",
      ownerId: member.id,
      tenantId: member.tenantId,
      versionId: "v1",
      chatOption: { enableFastConfigRuleOnChat: false },
      variables: [],
      bindings: { plugins: [demo.id], externalPlugins: [], workflows: [], knowledgeBases: [], rules: [] },
    } as unknown as RuntimeAgent;
    const caller = { userId: other.id, tenantId: other.tenantId } as Caller;
    const tools = await t.services.chat.tools.toolsFor({ caller, agent, sessionId: "s1" });
    const tool = tools.get("order_discount");
    expect(tool?.parameters).toMatchObject({ properties: { name: { type: "string" }, amount: { type: "number" } } });
    const events: ChatEvent[] = [];
    const result = await tool?.execute(
      { name: "李四", amount: 100 },
      { signal: new AbortController().signal, emit: (e) => events.push(e) },
    );
    expect(result).toEqual({ message: "李四您好，本单应付100元；满500元可享9折。", pay: 100 });
    const steps = events.filter((e) => e.type === "workflow_node");
    expect(steps.some((e) => e.nodeId === "score" && e.status === "SUCCEEDED")).toBe(true);
    // Another owner's agent does not get it.
    const foreign = await t.services.chat.tools.toolsFor({
      caller,
      agent: { ...agent, ownerId: other.id, tenantId: other.tenantId },
      sessionId: "s2",
    });
    expect(foreign.has("order_discount")).toBe(false);
  });
});

describe("declared code outputs and a paused workflow in chat", () => {
  it("checks references against a code node's declared outputs", async () => {
    const id = await createWorkflow();
    const graph = (ref: string) => ({
      nodes: [
        { id: "start", type: "start", data: { inputs: [{ name: "x", type: "number" }] } },
        {
          id: "calc",
          type: "code",
          data: {
            code: "function main(p) { return { y: p.x, z: 1 }; }",
            params: { x: "{{start.x}}" },
            outputs: [{ name: "y", type: "number" }],
          },
        },
        { id: "end", type: "end", data: { outputs: { out: ref } } },
      ],
      edges: [
        { source: "start", target: "calc" },
        { source: "calc", target: "end" },
      ],
    });
    const bad = await call(owner, "PUT", `/workflow/${id}/graph`, graph("{{calc.z}}"), "zh");
    expect(bad.body.code).not.toBe(200);
    expect(bad.body.msg).toContain("未声明的输出：calc.z");
    const good = await call(owner, "PUT", `/workflow/${id}/graph`, graph("{{calc.y}}"));
    expect(good.body.code).toBe(200);
    const wf = await call(owner, "GET", `/workflow/${id}`);
    expect(wf.body.data.draft.nodes[1].data.outputs).toEqual([{ name: "y", type: "number" }]);
    const dup = graph("{{calc.y}}");
    (dup.nodes[1].data as { outputs: unknown[] }).outputs.push({ name: "y", type: "string" });
    expect((await call(owner, "PUT", `/workflow/${id}/graph`, dup)).body.msg).toContain("variable name duplicate");
  });

  it("answers with a message, not an error, when the workflow waits for a person", async () => {
    const user = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
    const id = await createWorkflow(user);
    await call(user, "PUT", `/workflow/${id}/graph`, {
      nodes: [
        { id: "start", type: "start", data: { inputs: [] } },
        { id: "ask", type: "human", data: { prompt: "请确认金额", fields: [{ name: "ok", type: "string" }] } },
        { id: "end", type: "end", data: { outputs: { ok: "{{ask.ok}}" } } },
      ],
      edges: [
        { source: "start", target: "ask" },
        { source: "ask", target: "end" },
      ],
    });
    expect((await call(user, "POST", `/workflow/${id}/release`)).body.code).toBe(200);
    const agent = {
      agentId: "a2",
      ownerId: user.id,
      tenantId: user.tenantId,
      versionId: "v1",
      chatOption: { enableFastConfigRuleOnChat: false },
      variables: [],
      bindings: { plugins: [], externalPlugins: [], workflows: [id], knowledgeBases: [], rules: [] },
    } as unknown as RuntimeAgent;
    const tools = await t.services.chat.tools.toolsFor({
      caller: { userId: user.id, tenantId: user.tenantId } as Caller,
      agent,
      sessionId: "s3",
    });
    const events: ChatEvent[] = [];
    const result = (await tools
      .get(`score_flow_${n}`)
      ?.execute({}, { signal: new AbortController().signal, emit: (e) => events.push(e) })) as {
      status: string;
      message: string;
      runId: string;
    };
    expect(result.status).toBe("PAUSED");
    expect(result.message).toContain("等待人工输入");
    expect(result.message).toContain("请确认金额");
    expect(events.some((e) => e.type === "content" && e.delta.includes("等待人工输入"))).toBe(true);
    expect((await call(user, "GET", `/workflow/runs/${result.runId}`)).body.data.status).toBe("PAUSED");
    // A self-orchestrated reply says it in the asker's language.
    const wf = (await t.services.workflows.repo.byIds([id]))[0]!;
    const owner = { tenantId: user.tenantId, ownerId: user.id, pluginName: "确认流程" };
    const en = await runInChat(t.services.workflows, owner, wf, "released", {}, user.id, new AbortController().signal, undefined, "en");
    expect(en.answered).toContain("waiting for a person's input");
  });
});

describe("nodes that call the platform", () => {
  it("runs LLM, classifier, HTTP (safe fetch), tool and sub-workflow nodes as the owner", async () => {
    const user = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
    await seedTools(t.platform.db, { users: { member: user.id } });
    const tax = (await call(user, "POST", "/plugin/page", { pluginTypes: 1 })).body.data.content[0];
    const childId = await createWorkflow(user);
    await call(user, "PUT", `/workflow/${childId}/graph`, {
      nodes: [
        { id: "start", type: "start", data: { inputs: [{ name: "w", type: "string" }] } },
        { id: "end", type: "end", data: { outputs: { shout: "{{start.w}}!" } } },
      ],
      edges: [{ source: "start", target: "end" }],
    });
    await call(user, "POST", `/workflow/${childId}/release`);
    const id = await createWorkflow(user);
    const saved = await call(user, "PUT", `/workflow/${id}/graph`, {
      nodes: [
        { id: "start", type: "start", data: { inputs: [{ name: "q", type: "string" }] } },
        { id: "ask", type: "llm", data: { systemPrompt: "be brief", prompt: "问题：{{start.q}}" } },
        {
          id: "kind",
          type: "classifier",
          data: {
            query: "{{start.q}}",
            classes: [
              { id: "c1", name: "天气" },
              { id: "c2", name: "其他" },
            ],
          },
        },
        { id: "weather", type: "http", data: { url: `${apiBase}/weather?city={{start.q}}` } },
        { id: "other", type: "template", data: { template: "n/a" } },
        { id: "taxNode", type: "tool", data: { pluginId: tax.id, params: { salary: "20000" } } },
        { id: "child", type: "subworkflow", data: { workflowId: childId, inputs: { w: "{{ask.text}}" } } },
        {
          id: "end",
          type: "end",
          data: {
            outputs: { llm: "{{ask.text}}", w: "{{weather.json.weather}}", tax: "{{taxNode.result.tax}}", child: "{{child.shout}}" },
          },
        },
      ],
      edges: [
        { source: "start", target: "ask" },
        { source: "start", target: "kind" },
        { source: "kind", target: "weather", sourceHandle: "c1" },
        { source: "kind", target: "other", sourceHandle: "c2" },
        { source: "start", target: "taxNode" },
        { source: "ask", target: "child" },
        { source: "weather", target: "end" },
        { source: "other", target: "end" },
        { source: "taxNode", target: "end" },
        { source: "child", target: "end" },
      ],
    });
    expect(saved.body.code).toBe(200);
    llm.script({ chunks: ["晴天"] }, { chunks: ["1"] });
    const run = await finished((await call(user, "POST", `/workflow/${id}/run`, { inputs: { q: "上海" } })).body.data.runId, user);
    expect(run.error).toBeNull();
    expect(run.status).toBe("SUCCEEDED");
    expect(run.outputs).toMatchObject({ w: "晴", tax: 1590 });
    expect(typeof run.outputs.llm).toBe("string");
    expect(run.outputs.child).toBe(`${run.outputs.llm}!`);
    expect(run.nodes.find((x: { id: string }) => x.id === "other").status).toBe("SKIPPED");

    // A private address the administrator did not allow is refused by the safe fetch.
    const blocked = await createWorkflow(user);
    await call(user, "PUT", `/workflow/${blocked}/graph`, {
      nodes: [
        { id: "start", type: "start", data: {} },
        { id: "h", type: "http", data: { url: "http://127.0.0.1:9/secret" } },
        { id: "end", type: "end", data: {} },
      ],
      edges: [
        { source: "start", target: "h" },
        { source: "h", target: "end" },
      ],
    });
    const refused = await finished((await call(user, "POST", `/workflow/${blocked}/run`, { inputs: {} })).body.data.runId, user);
    expect(refused).toMatchObject({ status: "FAILED", failedNodeId: "h" });
    // Another user's plugin is not a tool of this owner's workflow.
    const foreign = await createWorkflow(other);
    await call(other, "PUT", `/workflow/${foreign}/graph`, {
      nodes: [
        { id: "start", type: "start", data: {} },
        { id: "x", type: "tool", data: { pluginId: tax.id, params: { salary: "1" } } },
        { id: "end", type: "end", data: {} },
      ],
      edges: [
        { source: "start", target: "x" },
        { source: "x", target: "end" },
      ],
    });
    const stolen = await finished((await call(other, "POST", `/workflow/${foreign}/run`, { inputs: {} })).body.data.runId, other);
    expect(stolen.status).toBe("FAILED");
    expect(stolen.error).toMatch(/does not exist/);
  });
});

describe("knowledge retrieval node", () => {
  it("searches the owner's bases only", async () => {
    const user = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
    const caller = await t.platform.callers.resolve(user.token);
    const base = await t.services.knowledge.create(caller, { name: "售后知识" });
    await t.services.knowledge.addQaPair(caller, base.id, { question: "退货政策是什么", answer: "签收后七天内无理由退货" });
    const graph = {
      nodes: [
        { id: "start", type: "start", data: { inputs: [{ name: "q", type: "string" }] } },
        { id: "kb", type: "knowledge", data: { knowledgeIds: [base.id], query: "{{start.q}}", topK: 3 } },
        { id: "end", type: "end", data: { outputs: { text: "{{kb.text}}", n: "{{kb.result}}" } } },
      ],
      edges: [
        { source: "start", target: "kb" },
        { source: "kb", target: "end" },
      ],
    };
    const id = await createWorkflow(user);
    await call(user, "PUT", `/workflow/${id}/graph`, graph);
    const run = await finished((await call(user, "POST", `/workflow/${id}/run`, { inputs: { q: "退货政策" } })).body.data.runId, user);
    expect(run.status).toBe("SUCCEEDED");
    expect(run.outputs.text).toContain("七天内无理由退货");
    // The same base id in another user's workflow finds nothing.
    const foreign = await createWorkflow(other);
    await call(other, "PUT", `/workflow/${foreign}/graph`, graph);
    const theirs = await finished(
      (await call(other, "POST", `/workflow/${foreign}/run`, { inputs: { q: "退货政策" } })).body.data.runId,
      other,
    );
    expect(theirs.outputs).toEqual({ text: "", n: [] });
  });
});

engineCases(() => t.platform.db);

// Multi-agent orchestration in the chat runtime: self-scheduling (hand-off tools) and self-orchestration (a workflow replies).
// biome-ignore lint/suspicious/noExplicitAny: test reads of many shapes
type Json = any;
async function asUser(user: TestUser, method: "GET" | "POST" | "PUT", url: string, payload?: unknown): Promise<Json> {
  const res = await t.app.inject({ method, url, headers: user.headers, payload: payload as object });
  expect(res.statusCode, res.payload).toBe(200);
  return res.json().data;
}
const newAgent = async (user: TestUser, agentName: string) =>
  (await asUser(user, "POST", "/aiagent_api/agent/quick/add", { agentName })).agentId as string;
async function patchDraft(user: TestUser, id: string, patch: (d: Json) => Json) {
  const { draft } = await asUser(user, "GET", `/aiagent_api/agent/draft/${id}`);
  await asUser(user, "PUT", `/aiagent_api/agent/draft/${id}`, patch(draft));
}
async function chatAs(user: TestUser, agentId: string, query: string) {
  const res = await t.app.inject({
    method: "POST",
    url: "/agent/agent_runtime/chat",
    payload: { token: user.token, schema_id: agentId, release: false, query },
  });
  expect(res.statusCode).toBe(200);
  const evs = parseChatEvents(res.payload);
  return { evs, text: evs.flatMap((e) => (e.type === "content" ? [e.delta] : [])).join("") };
}

describe("multi-agent orchestration", () => {
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    alice = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
    bob = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  });

  it("self-scheduling: the lead gets one hand-off tool per own bound agent, and the helper answers", async () => {
    const lead = await newAgent(alice, "主管");
    const helper = await newAgent(alice, "天气专家");
    await patchDraft(alice, helper, (d) => ({ ...d, persona: "你是天气专家" }));
    const foreign = await newAgent(bob, "别人的智能体");
    await patchDraft(alice, lead, (d) => ({
      ...d,
      orchestration: { mode: "multi", multiMode: "scheduling", agents: [helper, foreign], workflowId: null },
    }));
    const { evs } = await chatAs(alice, lead, '调用 ask_agent_1 {"query":"明天下雨吗"}');
    const end = evs.find((e) => e.type === "tool_call_end");
    expect(end).toMatchObject({ type: "tool_call_end", error: false, toolCall: { function: { name: "ask_agent_1" } } });
    const result = end?.type === "tool_call_end" ? JSON.parse(end.result) : null;
    expect(result.agent).toBe("天气专家");
    expect(result.answer).toContain("明天下雨吗");
    // The helper ran on its own persona; another owner's agent is no tool.
    const offered = llm.requests
      .filter((r) => r.body.stream === true && Array.isArray(r.body.tools))
      .flatMap((r) => (r.body.tools as { function: { name: string } }[]).map((x) => x.function.name));
    expect(offered).toContain("ask_agent_1");
    expect(offered).not.toContain("ask_agent_2");
    expect(JSON.stringify(llm.requests.map((r) => r.body.messages))).toContain("你是天气专家");
  });

  it("self-orchestration: the bound workflow answers each question; another owner's workflow is not run", async () => {
    const wf = await asUser(alice, "POST", "/aiagent_api/workflow", {
      workflowName: "编排回复",
      workflowDescription: "回复问题",
      workflowCallableName: "orchestrated_reply",
    });
    await asUser(alice, "PUT", `/aiagent_api/workflow/${wf.id}/graph`, {
      nodes: [
        { id: "start", type: "start", data: { inputs: [{ name: "query", type: "string" }] } },
        { id: "say", type: "answer", data: { text: "工作流收到：{{start.query}}" } },
        { id: "end", type: "end", data: { outputs: {} } },
      ],
      edges: [
        { source: "start", target: "say" },
        { source: "say", target: "end" },
      ],
    });
    await asUser(alice, "POST", `/aiagent_api/workflow/${wf.id}/release`);
    const agent = await newAgent(alice, "编排智能体");
    await patchDraft(alice, agent, (d) => ({
      ...d,
      bindings: { ...d.bindings, workflows: [wf.id] },
      orchestration: { mode: "multi", multiMode: "workflow", agents: [], workflowId: wf.id },
    }));
    const before = llm.requests.length;
    const { evs, text } = await chatAs(alice, agent, "你好");
    expect(text).toBe("工作流收到：你好");
    expect(evs.some((e) => e.type === "workflow_node" && e.nodeId === "say" && e.status === "SUCCEEDED")).toBe(true);
    expect(evs.at(-1)).toMatchObject({ type: "stop", status: "done" });
    expect(llm.requests.length).toBe(before);

    // Bob cannot make his agent run Alice's workflow by naming it: the model answers instead.
    const bobs = await newAgent(bob, "冒名");
    await patchDraft(bob, bobs, (d) => ({
      ...d,
      bindings: { ...d.bindings, workflows: [wf.id] },
      orchestration: { mode: "multi", multiMode: "workflow", agents: [], workflowId: wf.id },
    }));
    const other = await chatAs(bob, bobs, "你好");
    expect(other.text).not.toContain("工作流收到");
  });
});

describe("answers stream, and the agent's version picks the workflow's", () => {
  let carol: TestUser;
  beforeAll(async () => {
    carol = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  });
  const llmAnswer = (prefix: string) => ({
    nodes: [
      { id: "start", type: "start", data: { inputs: [{ name: "query", type: "string" }] } },
      { id: "write", type: "llm", data: { prompt: "{{start.query}}" } },
      { id: "say", type: "answer", data: { text: `${prefix}{{write.text}}` } },
      { id: "end", type: "end", data: { outputs: {} } },
    ],
    edges: [
      { source: "start", target: "write" },
      { source: "write", target: "say" },
      { source: "say", target: "end" },
    ],
  });
  const pieces = ["第一段，", "第二段，", "第三段，", "第四段。"];

  it("streams an answer fed by an LLM node into the chat, piece by piece before the node ends", async () => {
    const wf = await asUser(carol, "POST", "/aiagent_api/workflow", {
      workflowName: "流式回答",
      workflowDescription: "边写边答",
      workflowCallableName: "streamed_reply",
    });
    await asUser(carol, "PUT", `/aiagent_api/workflow/${wf.id}/graph`, llmAnswer("答："));
    const agent = await newAgent(carol, "流式编排");
    await patchDraft(carol, agent, (d) => ({
      ...d,
      bindings: { ...d.bindings, workflows: [wf.id] },
      orchestration: { mode: "multi", multiMode: "workflow", agents: [], workflowId: wf.id },
    }));
    llm.script({ chunks: pieces, delayMs: 40 });
    const { evs, text } = await chatAs(carol, agent, "写四段");
    expect(text).toBe(`答：${pieces.join("")}`);
    const contents = evs.flatMap((e, i) => (e.type === "content" ? [i] : []));
    const llmDone = evs.findIndex((e) => e.type === "workflow_node" && e.nodeId === "write" && e.status === "SUCCEEDED");
    const sayDone = evs.findIndex((e) => e.type === "workflow_node" && e.nodeId === "say" && e.status === "SUCCEEDED");
    // The prefix and each piece arrive on their own, all before the LLM node (and so the answer node) ends.
    expect(contents.length).toBe(pieces.length + 1);
    expect(contents.every((i) => i < llmDone)).toBe(true);
    expect(llmDone).toBeLessThan(sayDone);

    // The test-run panel's events stream gets the same pieces as delta events before the answer node's end.
    llm.script({ chunks: pieces, delayMs: 40 });
    const runId = (await asUser(carol, "POST", `/aiagent_api/workflow/${wf.id}/run`, { inputs: { query: "写四段" } })).runId;
    const events = await t.app.inject({ method: "GET", url: `${P}/workflow/runs/${runId}/events`, headers: carol.headers });
    const lines = events.body
      .split("\n\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l.replace(/^data: /, "")));
    const deltas = lines.flatMap((e, i) => (e.type === "delta" ? [i] : []));
    const answered = lines.findIndex((e) => e.type === "node" && e.node.id === "say" && e.node.status === "SUCCEEDED");
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((i) => lines[i].text).join("")).toBe(`答：${pieces.join("")}`);
    expect(deltas.every((i) => i < answered)).toBe(true);
    expect(lines.at(-1)).toMatchObject({ type: "run", status: "SUCCEEDED" });
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    "a run a worker executes in another process streams its answer into the chat like a local run",
    async () => {
      // The chat goes to a web process (it executes no runs, it queues them); this process is the worker that takes the job.
      const web = await createPeerApp(t, { ROLE: "web" });
      await web.platform.jobs.start({ work: false });
      await t.platform.jobs.start({ work: true, pollingIntervalSeconds: 0.5 });
      const executedOnWeb = new Set<string>();
      web.services.workflows.engine.listen((id) => executedOnWeb.add(id));
      try {
        const wf = await asUser(carol, "POST", "/aiagent_api/workflow", {
          workflowName: "跨进程回答",
          workflowDescription: "别的进程执行",
          workflowCallableName: "remote_reply",
        });
        await asUser(carol, "PUT", `/aiagent_api/workflow/${wf.id}/graph`, llmAnswer("远端："));
        const agent = await newAgent(carol, "跨进程编排");
        await patchDraft(carol, agent, (d) => ({
          ...d,
          bindings: { ...d.bindings, workflows: [wf.id] },
          orchestration: { mode: "multi", multiMode: "workflow", agents: [], workflowId: wf.id },
        }));
        llm.script({ chunks: pieces, delayMs: 60 });
        const res = await web.app.inject({
          method: "POST",
          url: "/agent/agent_runtime/chat",
          payload: { token: carol.token, schema_id: agent, release: false, query: "写四段" },
        });
        const evs = parseChatEvents(res.payload);
        const text = evs.flatMap((e) => (e.type === "content" ? [e.delta] : [])).join("");
        expect(text).toBe(`远端：${pieces.join("")}`);
        const node = evs.find((e) => e.type === "workflow_node");
        const runId = node?.type === "workflow_node" ? node.runId : "";
        expect(runId).not.toBe("");
        expect(executedOnWeb.has(runId)).toBe(false);
        // The pieces came on their own while the worker's LLM node wrote them, as in a local run.
        const contents = evs.flatMap((e, i) => (e.type === "content" ? [i] : []));
        const llmDone = evs.findIndex((e) => e.type === "workflow_node" && e.nodeId === "write" && e.status === "SUCCEEDED");
        expect(contents.length).toBeGreaterThan(2);
        expect(contents.filter((i) => i < llmDone).length).toBeGreaterThan(2);
        expect(evs.at(-1)).toMatchObject({ type: "stop", status: "done" });

        // The test-run panel on the web process gets the worker's answer pieces too.
        llm.script({ chunks: pieces, delayMs: 60 });
        const run = await web.app.inject({
          method: "POST",
          url: `${P}/workflow/${wf.id}/run`,
          headers: carol.headers,
          payload: { inputs: { query: "写四段" } },
        });
        const events = await web.app.inject({
          method: "GET",
          url: `${P}/workflow/runs/${run.json().data.runId}/events`,
          headers: carol.headers,
        });
        const lines = events.body
          .split("\n\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l.replace(/^data: /, "")));
        const deltas = lines.filter((e) => e.type === "delta");
        expect(deltas.length).toBeGreaterThan(2);
        expect(deltas.map((e) => e.text).join("")).toBe(`远端：${pieces.join("")}`);
        expect(lines.at(-1)).toMatchObject({ type: "run", status: "SUCCEEDED" });
      } finally {
        await t.platform.jobs.stop();
        await web.platform.jobs.stop();
        await web.close();
      }
    },
  );

  it("a stopped reply stops the workflow it runs, and is saved stopped with the text shown so far", async () => {
    const wf = await asUser(carol, "POST", "/aiagent_api/workflow", {
      workflowName: "可停的回答",
      workflowDescription: "写很久",
      workflowCallableName: "stoppable_reply",
    });
    await asUser(carol, "PUT", `/aiagent_api/workflow/${wf.id}/graph`, llmAnswer("答："));
    const agent = await newAgent(carol, "可停编排");
    await patchDraft(carol, agent, (d) => ({
      ...d,
      bindings: { ...d.bindings, workflows: [wf.id] },
      orchestration: { mode: "multi", multiMode: "workflow", agents: [], workflowId: wf.id },
    }));
    const asked = llm.requests.length;
    llm.script({ chunks: Array.from({ length: 200 }, (_, i) => `第${i}句`), delayMs: 30 });
    const chatting = t.app.inject({
      method: "POST",
      url: "/agent/agent_runtime/chat",
      payload: { token: carol.token, schema_id: agent, release: false, query: "写很久" },
    });
    await expect.poll(() => llm.requests.length, { timeout: 5000, interval: 20 }).toBeGreaterThan(asked);
    await new Promise((r) => setTimeout(r, 300));
    const [stream] = await t.platform.db
      .select()
      .from(chatStreams)
      .where(and(eq(chatStreams.userId, carol.id), isNull(chatStreams.endedAt)));
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/agent/agent_runtime/stop_reply",
          headers: carol.headers,
          payload: { uuid: stream!.id },
        })
      ).json(),
    ).toMatchObject({ code: 200 });
    const evs = parseChatEvents((await chatting).payload);
    const text = evs.flatMap((e) => (e.type === "content" ? [e.delta] : [])).join("");
    expect(evs.at(-1)).toMatchObject({ type: "stop", status: "stopped" });
    expect(text).toMatch(/^答：第0句第1句/);
    const session = evs[0]?.type === "session" ? evs[0].session_id : "";
    const saved = await asUser(carol, "GET", `/agent/agent_runtime/session/${session}`);
    expect(saved.messages.find((m: Json) => m.role === "bot")).toMatchObject({ status: "stopped", content: text });
    // The run stopped too (resumable from its history), its model call cut off.
    const node = evs.find((e) => e.type === "workflow_node");
    const runId = node?.type === "workflow_node" ? node.runId : "";
    const run = await asUser(carol, "GET", `/aiagent_api/workflow/runs/${runId}`);
    expect(run).toMatchObject({ status: "FAILED", error: expect.stringContaining("stopped") });
    await expect.poll(() => llm.requests.at(-1)?.aborted, { timeout: 3000 }).toBe(true);
  });

  it("the studio's debug run follows the workflow's draft; the released agent its released version", async () => {
    const wf = await asUser(carol, "POST", "/aiagent_api/workflow", {
      workflowName: "版本编排",
      workflowDescription: "按版本回复",
      workflowCallableName: "versioned_reply",
    });
    const say = (text: string) => ({
      nodes: [
        { id: "start", type: "start", data: { inputs: [{ name: "query", type: "string" }] } },
        { id: "say", type: "answer", data: { text } },
        { id: "end", type: "end", data: { outputs: {} } },
      ],
      edges: [
        { source: "start", target: "say" },
        { source: "say", target: "end" },
      ],
    });
    const agent = await newAgent(carol, "版本智能体");
    await patchDraft(carol, agent, (d) => ({
      ...d,
      bindings: { ...d.bindings, workflows: [wf.id] },
      orchestration: { mode: "multi", multiMode: "workflow", agents: [], workflowId: wf.id },
    }));
    // Not released yet: the debug run follows the draft.
    await asUser(carol, "PUT", `/aiagent_api/workflow/${wf.id}/graph`, say("草稿一：{{start.query}}"));
    expect((await chatAs(carol, agent, "你好")).text).toBe("草稿一：你好");
    await asUser(carol, "POST", `/aiagent_api/workflow/${wf.id}/release`);
    await asUser(carol, "PUT", `/aiagent_api/workflow/${wf.id}/graph`, say("草稿二：{{start.query}}"));
    // Released and changed since: the debug run still follows the draft...
    expect((await chatAs(carol, agent, "你好")).text).toBe("草稿二：你好");
    // ...and the released agent the released version.
    await asUser(carol, "POST", `/aiagent_api/agent/release/${agent}`, { notes: "" });
    const res = await t.app.inject({
      method: "POST",
      url: "/agent/agent_runtime/chat",
      payload: { token: carol.token, schema_id: agent, release: true, query: "你好" },
    });
    const released = res.payload
      .split("\n")
      .map(parseChatEvent)
      .flatMap((e) => (e?.type === "content" ? [e.delta] : []))
      .join("");
    expect(released).toBe("草稿一：你好");
  });
});
