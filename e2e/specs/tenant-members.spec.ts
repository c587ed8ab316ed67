import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { apiToken, clickUntilClosed, snap, unique } from "./helpers";

/**
 * A tenant's administrator manages its members on /acme/tenant/members: adds an account with a
 * first password (the member signs in on acme's login page), stops it (its sign-in is refused),
 * restarts it and sets a new password.
 *
 * The administrator is one of this spec's own, made by the demo's `acme` through the API: the
 * tenant-models spec revokes and grants `acme`'s role meanwhile, which must not stop this flow.
 * Names are unique per try, so a retry starts clean; the end demotes and stops the spec's administrator.
 */
const ADMIN_PASSWORD = "admin-pass-1";
const FIRST_PASSWORD = "first-pass-1";
const NEW_PASSWORD = "second-pass-2";

/** Calls the members API as the demo's `acme`, again while the tenant-models spec has revoked its role for a moment. */
async function asAcme(request: APIRequestContext, method: "POST" | "PUT", path: string, data: object) {
  let body: { data: { id: string } } | undefined;
  await expect(async () => {
    const res = await request.fetch(`/agent_api/api/tenant/members${path}`, {
      method,
      headers: { authorization: `Bearer ${await apiToken(request, "acme", "acme")}` },
      data,
    });
    expect(res.status(), await res.text()).toBe(200);
    body = await res.json();
  }).toPass({ timeout: 30_000 });
  return body!.data;
}

async function makeAdmin(request: APIRequestContext) {
  const username = `boss_${unique()}`;
  const { id } = await asAcme(request, "POST", "", { username, nickname: "成员管理员", password: ADMIN_PASSWORD, role: "admin" });
  // An account made for the spec has answered the first-login survey.
  const login = await request.post("/agent_api/api/auth/login", { data: { username, password: ADMIN_PASSWORD, domain: "acme" } });
  const token = (await login.json()).data.token as string;
  const done = await request.post("/agent_api/api/userinfo/firstLoginDone", {
    headers: { authorization: `Bearer ${token}` },
    data: { survey: "skipped" },
  });
  expect(done.ok()).toBe(true);
  return { id, username };
}

/** Fills acme's login form; the caller checks where it leads. */
async function submitLogin(page: Page, username: string, password: string) {
  await page.goto("/acme/login");
  await page.getByPlaceholder("用户名 / 邮箱 / 手机号").fill(username);
  await page.getByPlaceholder("密码").fill(password);
  await page.getByRole("button", { name: "登 录" }).click();
}

async function signIn(page: Page, username: string, password: string) {
  await submitLogin(page, username, password);
  await expect(page).toHaveURL(/\/acme\/index$/, { timeout: 30_000 });
}

async function signOut(page: Page) {
  await expect(async () => {
    await page.getByTestId("user-menu").hover();
    await page.getByRole("menuitem", { name: "退出登录" }).click({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/acme\/login$/);
}

test("an acme administrator adds a member, stops and restarts them and sets a new password", async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const { id: adminId, username: admin } = await makeAdmin(request);
  const username = `mem_${unique()}`;

  // The administrator opens the members page from the header's administration menu.
  await signIn(page, admin, ADMIN_PASSWORD);
  await page.getByRole("banner").getByText("管理后台").click();
  await page.getByRole("link", { name: "成员管理" }).click();
  await expect(page).toHaveURL(/\/acme\/tenant\/members$/);
  await expect(page.getByText(/成员在本组织的登录页 http:\/\/127\.0\.0\.1:\d+\/acme\/login 登录/)).toBeVisible();
  const own = page.getByRole("row", { name: new RegExp(admin) });
  await expect(own).toContainText("管理员");
  await expect(own.getByRole("button", { name: /停\s?用/ })).toHaveCount(0);

  // A taken username is refused under the field; a new one is added.
  await page.getByRole("button", { name: /添加成员/ }).click();
  const dialog = page.getByRole("dialog", { name: "添加成员" });
  await dialog.getByLabel("用户名").fill("acme");
  await dialog.getByLabel("初始密码").fill(FIRST_PASSWORD);
  await dialog.getByRole("button", { name: /确\s?定/ }).click();
  await expect(dialog.getByText("用户名已存在")).toBeVisible();
  await snap(page, "tenant-members-add-taken");
  await dialog.getByLabel("用户名").fill(username);
  await expect(dialog.getByText("用户名已存在")).toHaveCount(0);
  await clickUntilClosed(dialog, /确\s?定/);
  await expect(page.getByText(`已添加成员 ${username}`)).toBeVisible();
  const row = page.getByRole("row", { name: new RegExp(username) });
  await expect(row).toContainText("成员");
  await expect(row).toContainText("正常");
  await expect(row).toContainText("从未登录");
  await snap(page, "tenant-members");

  // The new member signs in on acme's login page (in a browser of their own) and signs out.
  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  await signIn(member, username, FIRST_PASSWORD);
  const survey = member.getByRole("dialog", { name: "使用意向调查问卷" });
  await survey.getByRole("button", { name: "跳过问卷" }).click();
  await expect(survey).toBeHidden();
  await signOut(member);

  // Stopped: the member's sign-in is refused.
  await row.getByRole("button", { name: /停\s?用/ }).click();
  await page
    .locator(".ant-popconfirm")
    .getByRole("button", { name: /停\s?用/ })
    .click();
  await expect(page.getByText(`已停用 ${username}`)).toBeVisible();
  await expect(row).toContainText("已停用");
  await submitLogin(member, username, FIRST_PASSWORD);
  await expect(member.getByTestId("login-error")).toContainText("账号已停用，请联系组织管理员");

  // Restarted with a new password, which the member signs in with (the old one's refusal is the
  // server tests': a wrong password here would spend the suite's shared failed sign-ins per IP).
  await row.getByRole("button", { name: /启\s?用/ }).click();
  await expect(page.getByText(`已启用 ${username}`)).toBeVisible();
  await expect(row).toContainText("正常");
  await row.getByRole("button", { name: "重置密码" }).click();
  const reset = page.getByRole("dialog", { name: `重置 ${username} 的密码` });
  await reset.getByLabel("新密码").fill(NEW_PASSWORD);
  await clickUntilClosed(reset, /确\s?定/);
  await expect(page.getByText(`已重置 ${username} 的密码`)).toBeVisible();

  await signIn(member, username, NEW_PASSWORD);
  await memberContext.close();
  await asAcme(request, "PUT", `/${adminId}`, { role: "member", disabled: true });
});
