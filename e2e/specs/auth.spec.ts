import { expect, test } from "@playwright/test";
import { loginAs, snap } from "./helpers";

test("login page shows the default branding and signs a demo user in", async ({ page }) => {
  await page.goto("/login");
  await expect(page.getByTestId("tenant-name")).toHaveText("Agentfair 智能体平台");
  await snap(page, "login");
  await loginAs(page, "free");
  await expect(page.getByTestId("user-menu")).toContainText("免费用户");
});
