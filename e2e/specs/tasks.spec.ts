import { expect, test } from "@playwright/test";
import { chooseLanguage, clickUntilClosed, loginAs, searchAndPick, snap, unique } from "./helpers";

/**
 * Scheduled tasks (issue 16): the form's required-field messages, a task made with a cron
 * expression (its next times previewed), run now through the job queue to an ended run in its
 * history, and its notice; the demo tasks in the list; screenshots in zh and en.
 */
test("create a cron task, run it now and see its history and notice", async ({ page }) => {
  test.setTimeout(60_000);
  const name = `e2e任务${Date.now().toString(36)}`;
  await loginAs(page, "member");
  await page.goto("/tasks");
  await expect(page.getByText("每日早报")).toBeVisible();
  await snap(page, "tasks-list-zh");

  await page.getByTestId("task-create").click();
  const dialog = page.locator(".ant-modal:visible");
  await dialog.getByTestId("task-save").click();
  await expect(dialog.getByText("请输入任务名称")).toBeVisible();
  await expect(dialog.getByText("请选择智能体或工作流")).toBeVisible();
  await expect(dialog.getByText("请输入提示词")).toBeVisible();
  await dialog.getByTestId("task-name").fill(name);
  // The demo agent that answers from its knowledge base: it finishes with or without a model.
  await searchAndPick(page, dialog.getByTestId("task-target"), "平台客服小助手");
  await dialog.getByTestId("task-prompt").fill("说一句早安");
  await dialog.getByText("cron 表达式", { exact: true }).click();
  await dialog.getByTestId("task-save").click();
  await expect(dialog.getByText("请输入cron表达式")).toBeVisible();
  await dialog.getByTestId("task-cron").fill("0 9 * * 1");
  await expect(dialog.getByTestId("task-cron-next")).toBeVisible();
  await snap(page, "tasks-editor-zh");
  await dialog.getByTestId("task-save").click();
  await expect(dialog).toBeHidden();

  const row = page.locator("tr", { hasText: name });
  await expect(row).toContainText("0 9 * * 1");
  await row.getByTestId("task-run").click();
  const drawer = page.locator(".ant-drawer:visible");
  await expect(drawer.getByTestId("task-run-status").first()).toHaveText("成功", { timeout: 20_000 });
  await snap(page, "tasks-history-zh");
  await drawer.locator(".ant-drawer-close").click();
  await page.getByTestId("task-notices").click();
  await expect(page.locator(".ant-drawer:visible").getByText(name).first()).toBeVisible();
  await page.locator(".ant-drawer:visible .ant-drawer-close").click();
  // The run's session opens in the chat page: its prompt and the reply.
  await row.getByTestId("task-history").click();
  await page.locator(".ant-drawer:visible").getByRole("link", { name: "查看会话" }).click();
  await expect(page.getByTestId("msg-user").first()).toContainText("说一句早安");
  await expect(page.getByTestId("msg-bot").first()).not.toBeEmpty();
  await page.goto("/tasks");

  await chooseLanguage(page, "English");
  await expect(page.getByText("Task schedule and task management")).toBeVisible();
  // The long English subtitle runs under the search box and the buttons, not squeezed beside them.
  const subtitle = await page.getByTestId("tasks-subtitle").boundingBox();
  const actions = await page.getByTestId("tasks-actions").boundingBox();
  expect(subtitle && actions && subtitle.y >= actions.y + actions.height).toBe(true);
  await snap(page, "tasks-list-en");
  await page.getByTestId("task-create").click();
  await page.locator(".ant-modal:visible").getByTestId("task-save").click();
  await expect(page.locator(".ant-modal:visible").getByText("please enter the task name")).toBeVisible();
  await snap(page, "tasks-editor-en");
});

/**
 * An API-triggered task (the spec's apikey): the key is shown once with a call to copy; a caller
 * with it starts a run over HTTP (its input beside the prompt), a wrong key is refused; a new key
 * replaces the old one.
 */
test("an API-triggered task: its apikey starts a run over HTTP, a new key replaces the old one", async ({ page, request }) => {
  test.setTimeout(90_000);
  const name = `e2e接口${unique()}`;
  await loginAs(page, "member");
  await page.goto("/tasks");
  await page.getByTestId("task-create").click();
  const dialog = page.locator(".ant-modal:visible");
  await dialog.getByTestId("task-name").fill(name);
  await searchAndPick(page, dialog.getByTestId("task-target"), "平台客服小助手");
  await dialog.getByTestId("task-prompt").fill("回答调用方的问题");
  await dialog.getByText("API 调用", { exact: true }).click();
  await dialog.getByTestId("task-api-limit").fill("5");
  await snap(page, "tasks-api-editor-zh");
  await dialog.getByTestId("task-save").click();

  const shown = page.locator(".ant-modal:visible", { hasText: "任务密钥（apikey）" });
  const key = ((await shown.getByTestId("task-api-key").textContent()) ?? "").trim();
  expect(key).toMatch(/^aft_/);
  await expect(shown.getByTestId("task-api-snippet")).toContainText(`Bearer ${key}`);
  const url = ((await shown.getByTestId("task-api-snippet").textContent()) ?? "").match(/'(http[^']+\/trigger)'/)?.[1] as string;
  await snap(page, "tasks-api-key-zh");
  await shown.getByRole("button", { name: /OK|确\s*定/ }).click();
  await expect(shown).toBeHidden();
  const row = page.locator("tr", { hasText: name });
  await expect(row).toContainText(key.slice(0, 10));

  // The caller: no session, only the key.
  expect((await request.post(url, { headers: { authorization: "Bearer aft_wrong" }, data: { input: "x" } })).status()).toBe(401);
  const started = await request.post(url, { headers: { authorization: `Bearer ${key}` }, data: { input: "营业时间是几点？" } });
  expect(started.ok()).toBe(true);
  const runId = (await started.json()).data.id as string;
  await expect
    .poll(
      async () =>
        (await (await request.get(`${url}/${runId}`, { headers: { authorization: `Bearer ${key}` } })).json()).data.status as string,
      { timeout: 30_000 },
    )
    .toBe("SUCCEEDED");
  await row.getByTestId("task-history").click();
  const drawer = page.locator(".ant-drawer:visible");
  await expect(drawer.getByText("API 调用", { exact: true }).first()).toBeVisible();
  await expect(drawer.getByTestId("task-run-status").first()).toHaveText("成功");
  await drawer.locator(".ant-drawer-close").click();
  await expect(drawer).toBeHidden();

  // A new key: shown once, and the old one stops working.
  await row.getByRole("button", { name: "编辑任务" }).click();
  await expect(dialog.getByTestId("task-api-prefix")).toBeVisible();
  await dialog.getByTestId("task-api-new-key").click();
  // A click during the confirmation's opening is lost: clicked until it closes.
  await clickUntilClosed(page.locator(".ant-popconfirm:visible"), /OK|确\s*定/);
  const renewed = page.locator(".ant-modal:visible", { hasText: "任务密钥（apikey）" });
  const fresh = ((await renewed.getByTestId("task-api-key").textContent()) ?? "").trim();
  expect(fresh).not.toBe(key);
  expect((await request.post(url, { headers: { authorization: `Bearer ${key}` } })).status()).toBe(401);
  expect((await request.post(url, { headers: { authorization: `Bearer ${fresh}` } })).ok()).toBe(true);
  await renewed.getByRole("button", { name: /OK|确\s*定/ }).click();

  await chooseLanguage(page, "English");
  await page.locator("tr", { hasText: name }).getByRole("button", { name: "Edit task" }).click();
  await expect(page.locator(".ant-modal:visible").getByText("Calls per minute")).toBeVisible();
  await snap(page, "tasks-api-editor-en");
  await page
    .locator(".ant-modal:visible")
    .getByRole("button", { name: /Cancel/ })
    .click();
  // Tidy up: the member's tasks are limited in number.
  await page.locator("tr", { hasText: name }).getByRole("button", { name: "delete" }).click();
  await clickUntilClosed(page.locator(".ant-popconfirm:visible"), /OK/);
  await expect(page.locator("tr", { hasText: name })).toHaveCount(0);
});

test("a refused action shows the server's message and leaves no error in the page", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await loginAs(page, "member");
  await page.goto("/tasks");
  await page.route("**/aiagent_api/task/*/run", (route) =>
    route.fulfill({
      status: 400,
      contentType: "application/json",
      body: JSON.stringify({ code: 400, msg: "任务正在运行，请稍后再试", data: null }),
    }),
  );
  await page.locator("tr", { hasText: "每日早报" }).getByTestId("task-run").click();
  await expect(page.getByText("任务正在运行，请稍后再试")).toBeVisible();
  await page.waitForTimeout(300);
  expect(errors).toEqual([]);
});
