import { expect, test } from "@playwright/test";
import { CAPTCHA_BASE_URL, snap } from "./helpers";

test.use({ baseURL: CAPTCHA_BASE_URL });

test("with the captcha on, a wrong captcha is refused and a new image is shown", async ({ page }) => {
  await page.goto("/login");
  const image = page.getByTestId("captcha-image");
  await expect(image).toBeVisible();
  const first = await image.getAttribute("src");
  expect(first).toMatch(/^data:image\/svg\+xml;base64,/);
  await snap(page, "login-captcha");

  await page.getByPlaceholder("用户名 / 邮箱 / 手机号").fill("free");
  await page.getByPlaceholder("密码").fill("demo1234");
  await page.getByRole("button", { name: "登 录" }).click();
  await expect(page.getByText("请输入验证码")).toBeVisible();

  await page.getByPlaceholder("验证码").fill("zzzz");
  await page.getByRole("button", { name: "登 录" }).click();
  await expect(page.getByTestId("login-error")).toContainText("验证码错误");
  await expect(page).toHaveURL(/\/login$/);
  await expect.poll(() => image.getAttribute("src")).not.toBe(first);
});
