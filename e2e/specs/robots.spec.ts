import { expect, test } from "@playwright/test";
import { chooseLanguage, loginAs, snap } from "./helpers";

/** Robot management: the demo robots, adding a webhook robot, its callback URL, enabling, deleting. */
test("robot management: add a webhook robot, copy its callback URL, enable, switch language, delete", async ({ page }) => {
  const name = `e2e钩子${Date.now().toString(36)}`;
  await loginAs(page, "admin");
  await page.goto("/chat-robots");
  await expect(page.getByText("企业微信公文助手")).toBeVisible();
  await snap(page, "robots-list-zh");

  await page.getByRole("button", { name: "添加机器人" }).click();
  const dialog = page.locator(".ant-modal").filter({ hasText: "添加机器人" });
  await dialog.getByLabel("机器人名称").fill(name);
  await dialog.getByRole("combobox", { name: "机器人类型" }).click();
  await page.locator(".ant-select-item-option", { hasText: "Webhook" }).click();
  await expect(dialog.getByText(/你的系统把消息 POST 到回调地址/)).toBeVisible();
  await expect(dialog.getByRole("combobox", { name: "智能体" })).toBeVisible();
  await dialog.getByRole("button", { name: /确\s*定/ }).click();
  await expect(dialog.getByText("请填写回复地址")).toBeVisible();
  await dialog.getByLabel("回复地址").fill("https://example.com/reply");
  await dialog.getByLabel("签名密钥").fill("e2e-secret");
  await snap(page, "robots-modal-zh");
  await dialog.getByRole("button", { name: /确\s*定/ }).click();
  await expect(page.getByText("保存成功")).toBeVisible();

  const row = page.locator("tr", { hasText: name });
  const url = row.getByRole("textbox", { name: "回调地址" });
  await expect(url).toHaveValue(/\/aiagent_api\/robots\/callback\/[0-9a-f-]{36}$/);
  await row.getByRole("button", { name: "复制" }).click();
  await expect(page.getByText(/复制成功！|该浏览器不支持自动复制/)).toBeVisible();
  const toggle = row.getByRole("switch");
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-checked", "false");

  await page.getByRole("button", { name: "绑定我的账号" }).click();
  await expect(page.locator(".ant-modal-confirm-title")).toHaveText(/绑定码：[A-Z0-9]{8}/);
  await page
    .locator(".ant-modal-confirm")
    .getByRole("button", { name: /确\s*定/ })
    .click();

  await chooseLanguage(page, "English");
  await expect(page.getByText("Robot management").first()).toBeVisible();
  await snap(page, "robots-list-en");
  await row.getByRole("button", { name: "Edit robot" }).click();
  const edit = page.locator(".ant-modal").filter({ hasText: "Edit robot" });
  await expect(edit.getByPlaceholder("Stored; leave empty to keep it")).toBeVisible();
  await snap(page, "robots-modal-en");
  await edit.getByRole("button", { name: "Cancel" }).click();
  await row.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("button", { name: "OK" }).click();
  await expect(page.locator("tr", { hasText: name })).toHaveCount(0);
  await chooseLanguage(page, "中文");
});
