import { expect, test } from "@playwright/test";
import { loginAs, snap } from "./helpers";

test("QR login: a signed-in second device confirms and the waiting page is signed in", async ({ page, browser }) => {
  await page.goto("/login");
  await page.getByRole("tab", { name: "扫码登录" }).click();
  const qr = page.getByTestId("qr-image");
  await expect(qr).toBeVisible();
  await snap(page, "login-qr");
  const url = (await qr.getAttribute("data-url")) as string;
  expect(url).toMatch(/\/qr-confirm\?id=[0-9a-f-]{36}$/);

  const phoneContext = await browser.newContext();
  const phone = await phoneContext.newPage();
  await loginAs(phone, "member");
  await phone.goto(url);
  await expect(phone.getByText("确认在另一台设备上登录账号 member？")).toBeVisible();
  await snap(phone, "qr-confirm");
  await phone.getByRole("button", { name: "确认登录" }).click();
  await expect(phone.getByText("已确认，另一台设备将自动登录")).toBeVisible();

  await expect(page).toHaveURL(/\/index$/, { timeout: 15_000 });
  await expect(page.getByTestId("user-menu")).toContainText("旗舰会员");

  // The ticket is spent: opening it again cannot sign anyone in.
  await phone.goto(url);
  await phone.getByRole("button", { name: "确认登录" }).click();
  await expect(phone.getByText("二维码已过期，请刷新")).toBeVisible();
  await phoneContext.close();
});

test("an anonymous visitor of the confirm link signs in first and comes back to it", async ({ page, browser }) => {
  await page.goto("/login");
  await page.getByRole("tab", { name: "扫码登录" }).click();
  const url = (await page.getByTestId("qr-image").getAttribute("data-url")) as string;
  const other = await browser.newContext();
  const phone = await other.newPage();
  await phone.goto(url);
  await expect(phone).toHaveURL(/\/login\?redirect=%2Fqr-confirm%3Fid%3D/);
  await phone.getByPlaceholder("用户名 / 邮箱 / 手机号").fill("free");
  await phone.getByPlaceholder("密码").fill("demo1234");
  await phone.getByRole("button", { name: "登 录" }).click();
  await expect(phone).toHaveURL(/\/qr-confirm\?id=/);
  await phone.getByRole("button", { name: "确认登录" }).click();
  await expect(page.getByTestId("user-menu")).toContainText("免费用户", { timeout: 15_000 });
  await other.close();
});
