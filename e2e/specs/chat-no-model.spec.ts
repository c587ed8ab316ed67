import { expect, test } from "@playwright/test";
import { BARE_BASE_URL, loginAs, openMarketAgent, snap } from "./helpers";

// A platform nobody has given a model: the shared one gets models from other specs in parallel.
test.use({ baseURL: BARE_BASE_URL });

test("without a model a send explains where to configure one", async ({ page }) => {
  await loginAs(page, "member");
  await openMarketAgent(page, "营销文案大师");
  await expect(page.getByTestId("chat-view")).toBeVisible();
  const input = page.locator(".ant-sender textarea");
  await input.fill("你好");
  await input.press("Enter");
  await expect(page.getByTestId("msg-bot").last().getByRole("alert")).toContainText("模型管理");
  await snap(page, "chat-no-model");
});
