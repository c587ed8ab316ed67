import { expect, test } from "@playwright/test";
import { chooseLanguage, loginAs, signInWithForm, snap } from "./helpers";

test("login page shows the default branding and signs a demo user in", async ({ page }) => {
  await page.goto("/login");
  await expect(page.getByTestId("tenant-name")).toHaveText("Agentfair 智能体平台");
  await expect(page.getByTestId("record-filing")).toHaveText("京ICP备2024000001号-3");
  await snap(page, "login");
  await signInWithForm(page, "free");
  await expect(page).toHaveURL(/\/index$/);
  await expect(page.getByTestId("user-menu")).toContainText("免费用户");
});

test("a wrong password is refused with a clear message", async ({ page }) => {
  await page.goto("/login");
  await page.getByPlaceholder("用户名 / 邮箱 / 手机号").fill("free");
  await page.getByPlaceholder("密码").fill("not-the-password");
  await page.getByRole("button", { name: "登 录" }).click();
  await expect(page.getByTestId("login-error")).toContainText("用户名或密码错误");
  await expect(page).toHaveURL(/\/login$/);
});

test("the login form validates before it calls", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "登 录" }).click();
  await expect(page.getByText("请输入用户名")).toBeVisible();
  await expect(page.getByText("请输入密码")).toBeVisible();
});

test("anonymous visitors go to /login and come back after signing in", async ({ page }) => {
  await page.goto("/home?types=2");
  await expect(page).toHaveURL(/\/login\?redirect=%2Fhome%3Ftypes%3D2$/);
  await page.getByPlaceholder("用户名 / 邮箱 / 手机号").fill("member");
  await page.getByPlaceholder("密码").fill("demo1234");
  await page.getByRole("button", { name: "登 录" }).click();
  await expect(page).toHaveURL(/\/home\?types=2$/);
  await expect(page.getByTestId("user-menu")).toContainText("旗舰会员");
});

test("public pages need no sign-in", async ({ page }) => {
  for (const path of ["/register", "/forget"]) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`${path}$`));
  }
});

test("a signed-in user opening /login goes to /index, the home username to /home", async ({ page, browser }) => {
  await loginAs(page, "member");
  await page.goto("/login");
  await expect(page).toHaveURL(/\/index$/);

  const context = await browser.newContext();
  const admin = await context.newPage();
  await loginAs(admin, "admin");
  await expect(admin).toHaveURL(/\/home$/);
  await admin.goto("/login");
  await expect(admin).toHaveURL(/\/home$/);
  await context.close();
});

test("logout revokes the session and returns to /login", async ({ page }) => {
  await loginAs(page, "free");
  const token = (await page.context().cookies()).find((c) => c.name === "Admin-Token")?.value;
  expect(token).toBeTruthy();
  await expect(async () => {
    await page.getByTestId("user-menu").hover();
    await page.getByText("退出登录").click({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/login$/);
  expect((await page.context().cookies()).find((c) => c.name === "Admin-Token")?.value ?? "").toBe("");
  // The old token is dead on the server too.
  const res = await page.request.get("/agent_api/api/userinfo/findUserInfo", { headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(403);
  await page.goto("/index");
  await expect(page).toHaveURL(/\/login\?redirect=%2Findex$/);
});

test("a session revoked elsewhere warns that the user info expired and signs out", async ({ page, request }) => {
  await loginAs(page, "free");
  const token = (await page.context().cookies()).find((c) => c.name === "Admin-Token")?.value;
  // Another device (its own cookie jar) ends the session.
  await request.post("/agent_api/api/auth/logout", { headers: { authorization: `Bearer ${token}` } });
  await page.reload();
  await expect(page.getByText("用户信息已过期，请重新登录！")).toBeVisible();
  await expect(page).toHaveURL(/\/login(\?redirect=%2Findex)?$/);
  expect(await page.evaluate(() => localStorage.getItem("userInfo"))).toBeNull();
});

test("the language switch turns the app to English and keeps it after a reload", async ({ page }) => {
  await loginAs(page, "member");
  await chooseLanguage(page, "English");
  await expect(async () => {
    await page.getByTestId("user-menu").hover();
    await expect(page.getByText("Log out")).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await page.reload();
  await expect(page.getByTestId("language-switch")).toContainText("English");
  // The seeded default tenant's name and the page title follow the language.
  await expect(page.locator(".ant-layout-header")).toContainText("Agentfair Agent Platform");
  await expect(page).toHaveTitle("Agentfair Agent Platform");
  await page.goto("/login");
  await page.goto("/register");
  await expect(page.getByRole("button", { name: "Register" })).toBeVisible();
  await snap(page, "register-en");
  await chooseLanguage(page, "中文");
  await expect(page.getByRole("button", { name: "注 册" })).toBeVisible();
  await expect(page.getByTestId("tenant-name")).toHaveText("Agentfair 智能体平台");
  await expect(page).toHaveTitle("Agentfair 智能体平台");
});
