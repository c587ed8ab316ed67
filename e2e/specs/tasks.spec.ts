import { expect, test } from "@playwright/test";
import { chooseLanguage, loginAs, snap } from "./helpers";

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
  await dialog.getByTestId("task-target").click();
  // The demo agent that answers from its knowledge base: it finishes with or without a model.
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: "平台客服小助手" }).click();
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

  await chooseLanguage(page, "English");
  await expect(page.getByText("Task schedule and task management")).toBeVisible();
  await snap(page, "tasks-list-en");
  await page.getByTestId("task-create").click();
  await page.locator(".ant-modal:visible").getByTestId("task-save").click();
  await expect(page.locator(".ant-modal:visible").getByText("please enter the task name")).toBeVisible();
  await snap(page, "tasks-editor-en");
});
