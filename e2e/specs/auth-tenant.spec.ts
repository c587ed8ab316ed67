import { expect, test } from "@playwright/test";
import { loginAs, signInWithForm, snap } from "./helpers";

test("/acme/login shows acme's name, logo, colours and record filing", async ({ page }) => {
  await page.goto("/acme/login");
  await expect(page.getByTestId("tenant-name")).toHaveText("Acme 智能科技");
  await expect(page.getByTestId("tenant-logo")).toHaveAttribute("src", "/tenant-logos/acme.svg");
  await expect(page.getByTestId("record-filing")).toHaveText("沪ICP备2025000042号-1");
  // The tenant's primary colour on the main button, its background colour behind the card.
  await expect(page.getByRole("button", { name: "登 录" })).toHaveCSS("background-color", "rgb(212, 56, 13)");
  await expect(page.getByTestId("auth-background")).toHaveCSS("background-image", /rgb\(255, 242, 232\)/);
  await snap(page, "login-acme");
  await page.goto("/login");
  await expect(page.getByTestId("tenant-name")).toHaveText("Agentfair 智能体平台");
  await expect(page.getByRole("button", { name: "登 录" })).toHaveCSS("background-color", "rgb(22, 119, 255)");
});

test("the acme user signs in at /acme/login and stays under /acme", async ({ page }) => {
  await signInWithForm(page, "acme", { tenant: "acme" });
  await expect(page).toHaveURL(/\/acme\/index$/);
  await expect(page.getByTestId("user-menu")).toContainText("Acme 员工");
  await expect(page.getByRole("banner")).toContainText("Acme 智能科技");
  await snap(page, "layout-acme");
});

test("the acme user cannot sign in at the default tenant, nor a default user at acme: each is told where to sign in", async ({ page }) => {
  for (const [path, username, said] of [
    ["/login", "acme", "该账号属于「Acme 智能科技」，请在其登录页 /acme/login 登录"],
    ["/acme/login", "member", "该账号属于「Agentfair 智能体平台」，请在其登录页 /login 登录"],
  ]) {
    await page.goto(path);
    await page.getByPlaceholder("用户名 / 邮箱 / 手机号").fill(username);
    await page.getByPlaceholder("密码").fill("demo1234");
    await page.getByRole("button", { name: "登 录" }).click();
    await expect(page.getByTestId("login-error")).toHaveText(said);
    await expect(page).toHaveURL(new RegExp(`${path}$`));
  }
  // A wrong password says nothing of where the account is.
  await page.getByPlaceholder("密码").fill("not-the-password");
  await page.getByRole("button", { name: "登 录" }).click();
  await expect(page.getByTestId("login-error")).toHaveText("用户名或密码错误");
});

test("a default-tenant session opened under /acme is another tenant's: warned and sent to acme's login", async ({ page }) => {
  await loginAs(page, "member");
  await page.goto("/acme/index");
  await expect(page.getByText("用户信息已过期，请重新登录！")).toBeVisible();
  // Acme's login, possibly with the way back to the page asked for.
  await expect(page).toHaveURL(/\/acme\/login(\?redirect=%2Findex)?$/);
  await expect(page.getByTestId("tenant-name")).toHaveText("Acme 智能科技");
});
