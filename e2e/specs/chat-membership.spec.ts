import { expect, test } from "@playwright/test";
import { BARE_BASE_URL, loginAs, openMarketAgent, snap } from "./helpers";

// The bare platform: no other spec buys the free demo user a plan there.
test.use({ baseURL: BARE_BASE_URL });

test("a FREE user on a priced agent is offered membership instead of a chat that would fail", async ({ page }) => {
  await loginAs(page, "free");
  await openMarketAgent(page, "A股行情分析师");
  const notice = page.locator(".chat-blocked");
  await expect(notice).toContainText("会员权益功能，请先开通会员!");
  await expect(page.locator(".ant-sender textarea")).toHaveCount(0);
  await snap(page, "chat-membership-required");
  // A preset question is not sent: no session appears.
  await page.getByText("如何看市盈率和市净率？").click();
  await expect(page.locator(".ant-message")).toContainText("会员权益功能，请先开通会员!");
  await expect(page.getByTestId("msg-user")).toHaveCount(0);
  await notice.getByRole("button", { name: "开通会员" }).click();
  await expect(page).toHaveURL(/\/recharge/);
});
