import path from "node:path";
import { expect, type Page } from "@playwright/test";

export const DEMO_PASSWORD = "demo1234";

/** Signs in through the login form (CAPTCHA=off server) and waits for the landing page. */
export async function loginAs(page: Page, username: string, opts: { tenant?: string } = {}) {
  await page.goto(`${opts.tenant ? `/${opts.tenant}` : ""}/login`);
  await page.getByPlaceholder("用户名 / 邮箱 / 手机号").fill(username);
  await page.getByPlaceholder("密码").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "登 录" }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

/** Screenshots land in .tmp/screens for people to look at. */
export async function snap(page: Page, name: string) {
  await page.screenshot({ path: path.resolve(import.meta.dirname, `../../.tmp/screens/${name}.png`), fullPage: true });
}
