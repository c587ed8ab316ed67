import http from "node:http";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { apiToken, chooseLanguage, clickUntilClosed, loginAs, searchAndPick, snap } from "./helpers";

/**
 * Issue 11's chain on the canvas: start → knowledge retrieval → LLM → condition → HTTP request → end,
 * test-run node by node, released, bound to an agent in the studio and called from its debug chat
 * (the test model calls a tool when asked "调用 <tool> {json}"). Then a loop's body on the canvas.
 */
const PORT = Number(process.env.E2E_PORT ?? 8190);
const API_PORT = PORT + 13;
const ok = /确\s*定/;

let api: http.Server | undefined;
const seen: string[] = [];

test.beforeAll(async () => {
  api = http.createServer((req, res) => {
    seen.push(req.url ?? "");
    const city = new URL(req.url ?? "/", "http://x").searchParams.get("city") ?? "";
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ city, weather: "多云" }));
  });
  await new Promise<void>((resolve) => api?.listen(API_PORT, "127.0.0.1", resolve));
});
test.afterAll(async () => {
  api?.close();
});

async function connect(page: Page, from: string, to: string, handle?: string) {
  const edges = page.locator(".react-flow__edge");
  const before = await edges.count();
  await expect(async () => {
    const source = handle
      ? page.getByTestId(`wf-handle-${from}-${handle}`)
      : page.getByTestId(`wf-node-${from}`).locator(".react-flow__handle.source").first();
    const target = page.getByTestId(`wf-node-${to}`).locator(".react-flow__handle.target").first();
    const a = await source.boundingBox();
    const b = await target.boundingBox();
    if (!a || !b) throw new Error(`handles of ${from} → ${to} not on screen`);
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect(edges).toHaveCount(before + 1, { timeout: 1000 });
  }).toPass({ timeout: 10_000 });
}
async function choose(page: Page, select: Locator, text: string | RegExp) {
  await select.click();
  await page.locator(".ant-select-dropdown .ant-select-item-option", { hasText: text }).filter({ visible: true }).last().click();
}
async function selectNode(page: Page, id: string) {
  await page.getByTestId(`wf-node-${id}`).click({ position: { x: 60, y: 14 } });
  await expect(page.getByTestId("wf-props")).toContainText(id);
}
async function createWorkflow(page: Page, name: string, callable: string, graph: unknown) {
  const auth = { authorization: `Bearer ${await apiToken(page.request, "member")}` };
  const created = await page.request.post("/aiagent_api/workflow", {
    headers: auth,
    data: { workflowName: name, workflowDescription: "查询天气", workflowCallableName: callable, workflowTags: ["测试分组"] },
  });
  const id = (await created.json()).data.id as string;
  const saved = await page.request.put(`/aiagent_api/workflow/${id}/graph`, { headers: auth, data: graph });
  expect((await saved.json()).code, await saved.text()).toBe(200);
  return id;
}

test("the chain start → knowledge → LLM → condition → HTTP → end, run, released and called by an agent in chat", async ({ page }) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  const name = `天气链路${suffix}`;
  const callable = `e2e_chain_${suffix}`;
  await loginAs(page, "member");
  const id = await createWorkflow(page, name, callable, {
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, data: { inputs: [{ name: "city", type: "string", required: true }] } },
      { id: "end", type: "end", position: { x: 900, y: 0 }, data: { outputs: {} } },
    ],
    edges: [{ source: "start", target: "end" }],
  });
  await page.goto(`/knowledge-list?id=${id}&pluginType=WORKFLOW`);
  await expect(page.getByTestId("wf-node-start")).toBeVisible();
  await page.locator(".react-flow__edge").first().click({ force: true });
  await page.keyboard.press("Delete");
  await expect(page.locator(".react-flow__edge")).toHaveCount(0);
  for (const type of ["knowledge", "llm", "condition", "http"]) await page.getByTestId(`palette-${type}`).click();
  await page.getByTestId("wf-layout").click();
  await connect(page, "start", "knowledge1");
  await connect(page, "knowledge1", "llm1");
  await connect(page, "llm1", "condition1");
  await connect(page, "condition1", "http1", "case_1");
  await connect(page, "condition1", "end", "else");
  await connect(page, "http1", "end");
  await page.getByTestId("wf-layout").click();

  await selectNode(page, "knowledge1");
  await choose(page, page.getByTestId("knowledge-bases"), "Agentfair 使用帮助");
  await page.keyboard.press("Escape");
  await page.getByTestId("knowledge-query").fill("{{start.city}}");
  await selectNode(page, "llm1");
  await page.getByTestId("llm-prompt").fill("查询{{start.city}}的天气，资料：{{knowledge1.text}}");
  await selectNode(page, "condition1");
  await choose(page, page.getByTestId("cond-0-0-left"), "大模型 · text");
  await choose(page, page.getByTestId("cond-0-0-op"), /^包含$/);
  await page.getByTestId("cond-0-0-right").fill("天气");
  await selectNode(page, "http1");
  await page.getByTestId("http-url").fill(`http://127.0.0.1:${API_PORT}/weather?city={{start.city}}`);
  await selectNode(page, "end");
  await page.getByTestId("end-outputs-add").click();
  await page.getByTestId("end-outputs-name-0").fill("weather");
  await choose(page, page.getByTestId("end-outputs-value-0"), "HTTP 请求 · json");
  await expect(page.getByTestId("wf-issues")).toHaveText(/校验问题 0/);
  await page.getByTestId("wf-save").click();
  await expect(page.getByTestId("wf-dirty")).toHaveText("已保存");

  await page.getByTestId("wf-side").getByText("试运行").click();
  await page.getByTestId("run-input-city").fill("杭州");
  await page.getByTestId("run-start").click();
  await expect(page.getByTestId("run-panel").getByTestId("run-status").first()).toHaveAttribute("data-status", "SUCCEEDED", {
    timeout: 30_000,
  });
  for (const n of ["start", "knowledge1", "llm1", "condition1", "http1", "end"])
    await expect(page.getByTestId(`wf-node-${n}`)).toHaveAttribute("data-status", "SUCCEEDED");
  await expect(page.getByTestId("run-outputs")).toContainText("多云");
  expect(seen.some((u) => u.includes("city=%E6%9D%AD%E5%B7%9E") || u.includes("杭州"))).toBe(true);
  await snap(page, "workflows-chain-run-zh");

  await page.getByTestId("wf-release").click();
  await clickUntilClosed(page.getByRole("dialog").filter({ hasText: "确认发布" }), ok);
  await expect(page.getByTestId("wf-status")).toContainText("已发布");

  // Bound to an agent in the studio, the debug chat's model calls it by its callable name.
  await page.goto("/studio?new=1");
  await page.getByTestId("studio-name").fill(`链路智能体${suffix}`);
  await searchAndPick(page, page.getByTestId("studio-workflows"), name);
  await page.keyboard.press("Escape");
  await page.getByTestId("studio-save").click();
  await expect(page.getByText("已保存").first()).toBeVisible();
  const pane = page.getByTestId("studio-debug-pane");
  const input = pane.locator(".ant-sender textarea");
  await input.fill(`调用 ${callable} {"city":"上海"}`);
  await input.press("Enter");
  const bot = pane.getByTestId("msg-bot").last();
  await expect(bot.locator(".chat-tool-calls")).toContainText(callable, { timeout: 30_000 });
  await expect(bot).toContainText("多云", { timeout: 30_000 });
  expect(seen.some((u) => u.includes("city=%E4%B8%8A%E6%B5%B7") || u.includes("上海"))).toBe(true);
  await snap(page, "workflows-chain-chat-zh");
});

test("a loop's body on the canvas: nodes added into an iteration, its panel with the parallelism cap (zh and en)", async ({ page }) => {
  const suffix = Date.now().toString(36);
  await loginAs(page, "member");
  const id = await createWorkflow(page, `迭代${suffix}`, `e2e_iter_${suffix}`, {
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, data: { inputs: [{ name: "items", type: "array" }] } },
      {
        id: "iteration1",
        type: "iteration",
        position: { x: 280, y: 0 },
        data: { items: "{{start.items}}", parallelism: 3, output: "{{code1.double}}" },
      },
      {
        id: "code1",
        type: "code",
        parentId: "iteration1",
        position: { x: 24, y: 72 },
        data: {
          code: "function main(params) {\n  return { double: params.x * 2 };\n}\n",
          params: { x: "{{iteration1.item}}" },
          outputs: [{ name: "double", type: "number" }],
        },
      },
      { id: "end", type: "end", position: { x: 900, y: 0 }, data: { outputs: { all: "{{iteration1.results}}" } } },
    ],
    edges: [
      { source: "start", target: "iteration1" },
      { source: "iteration1", target: "end" },
    ],
  });
  await page.goto(`/knowledge-list?id=${id}&pluginType=WORKFLOW`);
  await expect(page.getByTestId("wf-node-code1")).toBeVisible();
  // With the iteration selected, a palette click adds the node inside its box.
  await selectNode(page, "iteration1");
  await page.getByTestId("palette-template").click();
  const box = await page.getByTestId("wf-node-iteration1").boundingBox();
  const inner = await page.getByTestId("wf-node-template1").boundingBox();
  expect(box && inner && inner.x > box.x && inner.y > box.y && inner.x + inner.width <= box.x + box.width + 1).toBe(true);
  await connect(page, "code1", "template1");
  await selectNode(page, "template1");
  await page.getByTestId("template-text-var").click();
  await expect(page.getByRole("menuitem", { name: /迭代 · item/ })).toBeVisible();
  await page.getByRole("menuitem", { name: /代码 · double/ }).click();
  await page.getByTestId("wf-save").click();
  await expect(page.getByTestId("wf-dirty")).toHaveText("已保存");
  await selectNode(page, "iteration1");
  await expect(page.getByTestId("iteration-parallelism")).toHaveValue("3");
  await snap(page, "workflows-iteration-zh");
  // More of the new panels: outside the loop (nothing selected), a classifier and a list operation.
  await page.getByTestId("wf-canvas").click({ position: { x: 40, y: 40 } });
  await page.getByTestId("palette-classifier").click();
  await expect(page.getByTestId("classifier-classes")).toBeVisible();
  await page.getByTestId("classifier-class-0").fill("天气");
  await expect(page.getByTestId("wf-node-classifier1")).toContainText("天气");
  await snap(page, "workflows-classifier-zh");
  await page.getByTestId("wf-canvas").click({ position: { x: 40, y: 40 } });
  await page.getByTestId("palette-list").click();
  await choose(page, page.getByTestId("list-operation"), "排序");
  await expect(page.getByText("排序字段")).toBeVisible();
  // The auto-layout lays each loop body out inside its box and the box among the top-level nodes.
  await page.getByTestId("wf-layout").click();
  await expect(page.locator(".ant-select-dropdown").filter({ visible: true })).toHaveCount(0);
  await snap(page, "workflows-list-zh");
  await chooseLanguage(page, "English");
  await selectNode(page, "iteration1");
  await expect(page.getByTestId("wf-props")).toContainText("Items run at once, at most 10");
  await snap(page, "workflows-iteration-en");
  await selectNode(page, "classifier1");
  await expect(page.getByTestId("wf-props")).toContainText("Each class is a branch");
  await snap(page, "workflows-classifier-en");
  await selectNode(page, "list1");
  await expect(page.getByTestId("wf-props")).toContainText("Sort by");
  await snap(page, "workflows-list-en");
  await chooseLanguage(page, "中文");
});

test("an LLM's answer shows in the test-run panel's reply, and a sub-workflow's outputs are pickable (zh and en)", async ({ page }) => {
  test.setTimeout(90_000);
  const suffix = Date.now().toString(36);
  await loginAs(page, "member");
  const auth = { authorization: `Bearer ${await apiToken(page.request, "member")}` };
  const sub = await createWorkflow(page, `子流程${suffix}`, `sub_${suffix}`, {
    nodes: [
      { id: "start", type: "start", data: { inputs: [{ name: "q", type: "string" }] } },
      { id: "end", type: "end", data: { outputs: { summary: "{{start.q}}", score: "{{start.q}}" } } },
    ],
    edges: [{ source: "start", target: "end" }],
  });
  expect((await (await page.request.post(`/aiagent_api/workflow/${sub}/release`, { headers: auth })).json()).code).toBe(200);
  const id = await createWorkflow(page, `流式回答${suffix}`, `reply_${suffix}`, {
    nodes: [
      { id: "start", type: "start", data: { inputs: [{ name: "q", type: "string" }] }, position: { x: 0, y: 120 } },
      { id: "llm1", type: "llm", data: { prompt: "{{start.q}}" }, position: { x: 260, y: 40 } },
      { id: "answer1", type: "answer", data: { text: "答：{{llm1.text}}" }, position: { x: 520, y: 40 } },
      { id: "subworkflow1", type: "subworkflow", data: { workflowId: sub, inputs: { q: "{{start.q}}" } }, position: { x: 260, y: 240 } },
      { id: "end", type: "end", data: { outputs: {} }, position: { x: 780, y: 120 } },
    ],
    edges: [
      { source: "start", target: "llm1" },
      { source: "llm1", target: "answer1" },
      { source: "answer1", target: "end" },
      { source: "start", target: "subworkflow1" },
      { source: "subworkflow1", target: "end" },
    ],
  });
  await page.goto(`/knowledge-list?id=${id}&pluginType=WORKFLOW`);
  // Opening the sub-workflow node takes its released outputs; the end node's picker then offers them.
  await selectNode(page, "subworkflow1");
  await expect(page.getByTestId("subworkflow-outputs")).toContainText("summary");
  await expect(page.getByTestId("subworkflow-outputs")).toContainText("score");
  await selectNode(page, "end");
  await page.getByTestId("end-outputs-add").click();
  await page.getByTestId("end-outputs-name-0").fill("summary");
  await choose(page, page.getByTestId("end-outputs-value-0"), "子工作流 · summary");
  await page.getByTestId("wf-save").click();
  await expect(page.getByTestId("wf-dirty")).toHaveText("已保存");

  await page.getByTestId("wf-side").getByText("试运行").click();
  await page.getByTestId("run-input-q").fill("流式");
  await page.getByTestId("run-start").click();
  await expect(page.getByTestId("run-panel").getByTestId("run-status").first()).toHaveAttribute("data-status", "SUCCEEDED", {
    timeout: 30_000,
  });
  await expect(page.getByTestId("run-reply")).toHaveText("答：你好！你的问题是：流式");
  await expect(page.getByTestId("run-outputs")).toContainText("流式");
  await snap(page, "workflows-reply-zh");
  await selectNode(page, "subworkflow1");
  await snap(page, "workflows-subworkflow-zh");

  await chooseLanguage(page, "English");
  await expect(page.getByTestId("subworkflow-outputs")).toContainText("summary");
  await snap(page, "workflows-subworkflow-en");
  await page.getByTestId("wf-side").getByText("Test run").click();
  await snap(page, "workflows-reply-en");
  await chooseLanguage(page, "中文");
});
