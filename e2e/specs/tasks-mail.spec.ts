import { expect, test } from "@playwright/test";
import { chooseLanguage, loginAs, snap } from "./helpers";

/**
 * The task form's e-mail trigger and robot delivery (issue 16): the mailbox's required fields with
 * their messages, the robot picker; screenshots in zh and en. (Polling a mailbox is route-tested
 * against a local IMAP server: apps/server/src/modules/tasks/tasks.mail.test.ts.)
 */
test("the task form asks for the mailbox of an e-mail trigger and offers delivery by robot", async ({ page }) => {
  await loginAs(page, "member");
  await page.goto("/tasks");
  await page.getByTestId("task-create").click();
  const dialog = page.locator(".ant-modal:visible");
  await dialog.getByText("收到邮件", { exact: true }).click();
  await dialog.getByText("机器人", { exact: true }).click();
  await dialog.getByTestId("task-save").click();
  await expect(dialog.getByText("请输入服务器地址")).toBeVisible();
  await expect(dialog.getByText("请输入邮箱账号")).toBeVisible();
  await expect(dialog.getByText("请输入邮箱密码")).toBeVisible();
  await expect(dialog.getByText("请选择机器人")).toBeVisible();
  await dialog.getByTestId("task-mail-host").fill("imap.example.com");
  await dialog.getByTestId("task-robot").click();
  // The member's robots (or the hint to create one first).
  await expect(page.locator(".ant-select-dropdown:visible")).toBeVisible();
  await page.keyboard.press("Escape");
  await snap(page, "tasks-mail-editor-zh");
  await dialog.locator(".ant-modal-close").click();

  await chooseLanguage(page, "English");
  await page.getByTestId("task-create").click();
  await dialog.getByText("E-mail arrives", { exact: true }).click();
  await dialog.getByText("Robot", { exact: true }).click();
  await expect(dialog.getByText("Server address")).toBeVisible();
  await snap(page, "tasks-mail-editor-en");
});
