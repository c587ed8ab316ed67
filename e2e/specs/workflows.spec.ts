import { expect, type Locator, type Page, test } from "@playwright/test";
import { apiToken, chooseLanguage, clickUntilClosed, loginAs, searchAndPick, snap } from "./helpers";

/**
 * Workflows on the canvas (issue 11): created from the create tool modal's workflow type, built as
 * start → code → condition → template → end by clicking the palette and dragging handles, saved, test-run
 * with every node turning green (the skipped branch grey), released, then bound to an agent in the studio
 * with the multi-agent self-orchestration mode.
 */
const ok = /确\s*定/;

/** Drags from a node's out handle (a condition's case handle when given) to another node's in handle. */
async function connect(page: Page, from: string, to: string, handle?: string) {
  const edges = page.locator(".react-flow__edge");
  const before = await edges.count();
  await expect(async () => {
    await drag(page, from, to, handle);
    await expect(edges).toHaveCount(before + 1, { timeout: 1000 });
  }).toPass({ timeout: 10_000 });
}

async function drag(page: Page, from: string, to: string, handle?: string) {
  const source = handle
    ? page.getByTestId(`wf-handle-${from}-${handle}`)
    : page.getByTestId(`wf-node-${from}`).locator(".react-flow__handle.source");
  const target = page.getByTestId(`wf-node-${to}`).locator(".react-flow__handle.target");
  const a = await source.boundingBox();
  const b = await target.boundingBox();
  if (!a || !b) throw new Error(`handles of ${from} → ${to} not on screen`);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
}

/** Picks an option of the antd select inside `scope` by its text. */
async function choose(page: Page, select: Locator, text: string | RegExp) {
  await select.click();
  // A dropdown that is closing still matches :visible for a moment: take the option that is shown.
  await page.locator(".ant-select-dropdown .ant-select-item-option", { hasText: text }).filter({ visible: true }).last().click();
}

async function selectNode(page: Page, id: string) {
  await page.getByTestId(`wf-node-${id}`).click();
  await expect(page.getByTestId("wf-props")).toContainText(id);
}

test("build a workflow on the canvas, test-run it node by node, release it and bind it in the studio", async ({ page }) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  const name = `e2e工作流${suffix}`;
  await loginAs(page, "member");

  // The create tool modal's workflow type: §5's workflow messages, then the editor.
  await page.goto("/home?types=3");
  await page.getByRole("button", { name: "创建工具" }).click();
  const dialog = page.getByRole("dialog").filter({ has: page.getByTestId("create-tool-form") });
  // A click during the modal's opening animation can be lost: the type is picked until the form changes.
  await expect(async () => {
    await dialog.getByText("工作流", { exact: true }).click({ timeout: 2000 });
    await expect(dialog.getByLabel("工作流名称")).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await dialog.getByRole("button", { name: "自动生成" }).click();
  await expect(page.getByText("请输入工作流名称或简介").first()).toBeVisible();
  await dialog.getByRole("button", { name: ok }).click();
  await expect(dialog.locator(".ant-form-item-explain-error", { hasText: "请输入工作流名称" })).toBeVisible();
  await dialog.getByLabel("工作流名称").fill(name);
  await dialog.getByLabel("描述").fill("把数字翻倍并按大小分支");
  await dialog.getByLabel("行业分组").fill("测试分组");
  await dialog.getByLabel("行业分组").press("Enter");
  await dialog.getByLabel("调用名称").fill(`e2e_wf_${suffix}`);
  const picker = page.getByRole("dialog").filter({ has: page.getByTestId("icon-gallery") });
  await expect(async () => {
    await dialog.getByTestId("icon-picker-button").click();
    await picker.getByRole("button", { name: "icon 7" }).click({ timeout: 2000 });
    await clickUntilClosed(picker, ok);
    await expect(dialog.getByTestId("agent-icon")).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await dialog.getByRole("button", { name: ok }).click();
  await expect(page).toHaveURL(/\/knowledge-list\?id=.+&pluginType=WORKFLOW/);
  const editorUrl = page.url();
  const editor = page.getByTestId("workflow-editor");
  await expect(editor.getByTestId("wf-name")).toHaveText(name);
  await expect(page.getByTestId("wf-node-start")).toBeVisible();

  // §8: the start node cannot be deleted.
  await selectNode(page, "start");
  await page.keyboard.press("Delete");
  await expect(page.getByText("初始节点不能删除").first()).toBeVisible();
  await expect(page.getByTestId("wf-node-start")).toBeVisible();

  // Start input n; the new draft's start → end edge goes.
  await page.getByTestId("start-input-add").click();
  await page.getByTestId("start-input-name-0").fill("n");
  await page.locator(".react-flow__edge").first().click({ force: true });
  await page.keyboard.press("Delete");
  await expect(page.locator(".react-flow__edge")).toHaveCount(0);
  await page.getByTestId("wf-undo").click();
  await expect(page.locator(".react-flow__edge")).toHaveCount(1);
  await page.getByTestId("wf-redo").click();
  await expect(page.locator(".react-flow__edge")).toHaveCount(0);

  // Nodes from the palette (clicked or dragged), spread by the auto-layout, then connected by their handles.
  for (const type of ["code", "condition", "template"]) await page.getByTestId(`palette-${type}`).click();
  // Each click finds a free spot: no node covers another (nor the start and end nodes).
  const boxes = await Promise.all(
    ["start", "end", "code1", "condition1", "template1"].map((id) => page.getByTestId(`wf-node-${id}`).boundingBox()),
  );
  for (const [i, a] of boxes.entries())
    for (const b of boxes.slice(i + 1)) {
      if (!a || !b) throw new Error("a node is not drawn");
      expect(a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y).toBe(true);
    }
  // The last one dragged from the palette onto the canvas.
  await page.getByTestId("palette-template").dragTo(page.getByTestId("wf-canvas"), { targetPosition: { x: 120, y: 120 } });
  await expect(page.getByTestId("wf-node-template2")).toBeVisible();
  await page.getByTestId("wf-layout").click();
  await connect(page, "start", "code1");
  await connect(page, "code1", "condition1");
  await connect(page, "condition1", "template1", "case_1");
  await connect(page, "condition1", "template2", "else");
  await connect(page, "template1", "end");
  await connect(page, "template2", "end");
  await expect(page.locator(".react-flow__edge")).toHaveCount(6);
  await page.getByTestId("wf-layout").click();
  // Empty required settings are issues: the condition has no variable, both templates are empty.
  await expect(page.getByTestId("wf-issues")).toHaveText(/校验问题 3/);

  // Code: a parameter from the start node (variable picker), the code, its returned fields.
  await selectNode(page, "code1");
  await page.getByTestId("code-params-add").click();
  await page.getByTestId("code-params-name-0").fill("n");
  await choose(page, page.getByTestId("code-params-value-0"), "n");
  await page.getByTestId("code-editor").fill("function main(params) {\n  return { doubled: Number(params.n) * 2 };\n}\n");
  // Its declared outputs are what later nodes may pick: the default field is renamed to the returned one.
  await page.getByTestId("code-output-name-0").fill("doubled");
  await expect(page.getByTestId("code-output-name-0")).toHaveValue("doubled");

  // Condition: doubled > 10 takes case_1, else the other template.
  await selectNode(page, "condition1");
  await choose(page, page.getByTestId("cond-0-0-left"), "doubled");
  await choose(page, page.getByTestId("cond-0-0-op"), /^大于$/);
  await page.getByTestId("cond-0-0-right").fill("10");
  await expect(page.getByTestId("cond-0-0-op")).toContainText(/^大于$/);

  // Templates insert variables at the cursor; the end node outputs the first one.
  await selectNode(page, "template1");
  await page.getByTestId("template-text").fill("大：");
  await page.getByTestId("template-text-var").click();
  await page.getByRole("menuitem", { name: /doubled/ }).click();
  await expect(page.getByTestId("template-text")).toHaveValue("大：{{code1.doubled}}");
  await selectNode(page, "template2");
  await page.getByTestId("template-text").fill("小");
  await selectNode(page, "end");
  await page.getByTestId("end-outputs-add").click();
  await page.getByTestId("end-outputs-name-0").fill("text");
  await choose(page, page.getByTestId("end-outputs-value-0"), "template1");
  await expect(page.getByTestId("wf-issues")).toHaveText(/校验问题 0/);

  await page.getByTestId("wf-save").click();
  await expect(page.getByText("草稿已保存").first()).toBeVisible();
  await expect(page.getByTestId("wf-dirty")).toHaveText("已保存");
  // Undo back to the saved graph is saved again.
  await page.getByTestId("palette-answer").click();
  await expect(page.getByTestId("wf-dirty")).toHaveText("有未保存的修改");
  await page.getByTestId("wf-undo").click();
  await expect(page.getByTestId("wf-node-answer1")).toHaveCount(0);
  await expect(page.getByTestId("wf-dirty")).toHaveText("已保存");
  await snap(page, "workflows-editor-zh");

  // Test run: nodes light up; the branch not taken is skipped.
  await page.getByTestId("wf-side").getByText("试运行").click();
  await page.getByTestId("run-input-n").fill("8");
  await page.getByTestId("run-start").click();
  await expect(page.getByTestId("run-panel").getByTestId("run-status").first()).toHaveAttribute("data-status", "SUCCEEDED", {
    timeout: 30_000,
  });
  for (const id of ["start", "code1", "condition1", "template1", "end"])
    await expect(page.getByTestId(`wf-node-${id}`)).toHaveAttribute("data-status", "SUCCEEDED");
  await expect(page.getByTestId("wf-node-template2")).toHaveAttribute("data-status", "SKIPPED");
  await expect(page.getByTestId("run-outputs")).toContainText("大：16");
  await page.getByTestId("trace-code1").click();
  await expect(page.getByTestId("trace-output-code1")).toContainText('"doubled": 16');
  // The trace names nodes as the canvas does: untitled ones by their type's name, not their id.
  await expect(page.getByTestId("trace-condition1")).toContainText("条件分支");
  await expect(page.getByTestId("trace-condition1")).not.toContainText("condition1");
  await snap(page, "workflows-run-zh");
  // A second run takes the other branch.
  await page.getByTestId("run-input-n").fill("2");
  await page.getByTestId("run-start").click();
  await expect(page.getByTestId("wf-node-template2")).toHaveAttribute("data-status", "SUCCEEDED", { timeout: 30_000 });
  await expect(page.getByTestId("wf-node-template1")).toHaveAttribute("data-status", "SKIPPED");

  // History: the runs and their traces; the canvas shows the path of the run being viewed.
  await page.getByTestId("wf-side").getByText("运行记录").click();
  await expect(page.getByTestId("history-item")).toHaveCount(2);
  await page.getByTestId("history-item").nth(1).getByRole("button").click();
  await expect(page.getByTestId("history-detail")).toContainText("模板转换");
  await expect(page.getByTestId("history-detail")).not.toContainText("template1");
  await expect(page.getByTestId("wf-node-template1")).toHaveAttribute("data-status", "SUCCEEDED");
  await expect(page.getByTestId("wf-node-template2")).toHaveAttribute("data-status", "SKIPPED");
  await snap(page, "workflows-history-zh");

  // Release.
  await page.getByTestId("wf-release").click();
  await clickUntilClosed(page.getByRole("dialog").filter({ hasText: "确认发布" }), ok);
  await expect(page.getByText("发布成功").first()).toBeVisible();
  await expect(page.getByTestId("wf-status")).toContainText("已发布");

  // Studio: bind the workflow, switch to multi-agent self-orchestration with it, save, reload.
  await page.goto("/studio?new=1");
  await page.getByTestId("studio-name").fill(`工作流智能体${suffix}`);
  await searchAndPick(page, page.getByTestId("studio-workflows"), name);
  await page.keyboard.press("Escape");
  const orchestration = page.getByTestId("studio-orchestration");
  await orchestration.getByText("多智能体").click();
  await orchestration.getByText("自主编排").click();
  // Its only option is the bound workflow, active when the list opens.
  await page.getByTestId("studio-orchestration-workflow").click();
  await page.keyboard.press("Enter");
  await page.getByTestId("studio-save").click();
  await expect(page.getByText("已保存").first()).toBeVisible();
  // the first save creates the agent and leaves /studio?new=1 (a reload there opens a blank draft)
  await expect(page).not.toHaveURL(/new=1/);
  await page.reload();
  await expect(page.getByTestId("studio-workflows")).toContainText(name);
  await expect(page.getByTestId("studio-orchestration-workflow")).toContainText(name);
  await snap(page, "workflows-studio-zh");

  // English screens of the same editor, with a run of the released workflow's draft.
  await page.goto(editorUrl);
  await chooseLanguage(page, "English");
  await page.getByTestId("wf-side").getByText("Test run").click();
  await page.getByTestId("run-input-n").fill("8");
  await page.getByTestId("run-start").click();
  await expect(page.getByTestId("wf-node-end")).toHaveAttribute("data-status", "SUCCEEDED", { timeout: 30_000 });
  await snap(page, "workflows-run-en");
  await page.getByTestId("wf-side").getByText("Run history").click();
  await snap(page, "workflows-history-en");
  await page.getByTestId("wf-side").getByText("Properties").click();
  await selectNode(page, "condition1");
  await snap(page, "workflows-editor-en");
});

test("a failed run resumes from its failed node after the fix, then pauses for a human answer", async ({ page, request }) => {
  test.setTimeout(90_000);
  const auth = { authorization: `Bearer ${await apiToken(request, "member")}` };
  const suffix = Date.now().toString(36);
  const created = await request.post("/aiagent_api/workflow", {
    headers: auth,
    data: {
      workflowName: `e2e恢复${suffix}`,
      workflowDescription: "失败后从失败节点继续",
      workflowIcon: "4",
      workflowCallableName: `e2e_resume_${suffix}`,
      workflowTags: ["测试分组"],
    },
  });
  const id = (await created.json()).data.id as string;
  const graph = {
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 }, data: { inputs: [{ name: "n", type: "number", required: true }] } },
      {
        id: "code1",
        type: "code",
        position: { x: 300, y: 0 },
        data: { code: "function main(params) {\n  return { half: missing / 2 };\n}\n", params: { n: "{{start.n}}" } },
      },
      {
        id: "human1",
        type: "human",
        position: { x: 600, y: 0 },
        data: { prompt: "批准 {{code1.half}} 吗？", fields: [{ name: "ok", type: "string", label: "意见", required: true }] },
      },
      { id: "end", type: "end", position: { x: 900, y: 0 }, data: { outputs: { half: "{{code1.half}}", ok: "{{human1.ok}}" } } },
    ],
    edges: [
      { source: "start", target: "code1" },
      { source: "code1", target: "human1" },
      { source: "human1", target: "end" },
    ],
  };
  const saved = await request.put(`/aiagent_api/workflow/${id}/graph`, { headers: auth, data: graph });
  expect((await saved.json()).code, await saved.text()).toBe(200);

  await loginAs(page, "member");
  await page.goto(`/knowledge-list?id=${id}&pluginType=WORKFLOW`);
  await page.getByTestId("wf-side").getByText("试运行").click();
  await page.getByTestId("run-input-n").fill("8");
  await page.getByTestId("run-start").click();
  const status = page.getByTestId("run-panel").getByTestId("run-status").first();
  await expect(status).toHaveAttribute("data-status", "FAILED", { timeout: 30_000 });
  await expect(page.getByTestId("wf-node-code1")).toHaveAttribute("data-status", "FAILED");
  await expect(page.getByTestId("run-error")).toContainText("missing");

  // Fix the code, save, resume: the start node is not run again, the run waits at the human node.
  await page.getByTestId("wf-side").getByText("属性").click();
  await selectNode(page, "code1");
  await page.getByTestId("code-editor").fill("function main(params) {\n  return { half: params.n / 2 };\n}\n");
  await page.getByTestId("wf-save").click();
  await expect(page.getByText("草稿已保存").first()).toBeVisible();
  await page.getByTestId("wf-side").getByText("试运行").click();
  await page.getByTestId("run-resume").click();
  await expect(status).toHaveAttribute("data-status", "PAUSED", { timeout: 30_000 });
  await expect(page.getByTestId("run-waiting")).toContainText("批准 4 吗？");
  await page.getByTestId("run-answer-ok").fill("同意");
  await page.getByTestId("run-answer-submit").click();
  await expect(status).toHaveAttribute("data-status", "SUCCEEDED", { timeout: 30_000 });
  await expect(page.getByTestId("run-outputs")).toContainText('"ok": "同意"');
  await expect(page.getByTestId("wf-node-human1")).toHaveAttribute("data-status", "SUCCEEDED");
  await snap(page, "workflows-resumed-zh");
});
