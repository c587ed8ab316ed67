import { expect, test } from "@playwright/test";
import { loginAs, snap, unique } from "./helpers";

/**
 * A platform administrator creates a tenant with its branding and first administrator on
 * /admin/tenants; the new tenant's login page shows the branding, its administrator signs in there,
 * and a later change of the branding shows on that page.
 */
test("the platform administrator creates a branded tenant whose first administrator signs in on its own login page", async ({
  page,
  browser,
}) => {
  // Unique per try: a retry makes another tenant.
  const domain = `e2e${unique()}`;
  await loginAs(page, "admin");
  await page.goto("/admin/tenants");
  await page.getByRole("button", { name: "新建租户" }).click();
  const dialog = page.getByRole("dialog", { name: "新建租户" });

  // A path of the platform itself is refused under the field, with the server's message.
  await dialog.getByLabel("访问地址").fill("admin");
  await dialog.getByLabel("租户名称").fill(`测试组织 ${domain}`);
  await dialog.getByLabel("备案号").fill("京ICP备12345678号");
  await dialog.getByLabel("管理员用户名").fill("boss_e2e");
  await dialog.getByLabel("初始密码").fill("first-pass-1");
  await expect(dialog.getByTestId("tenant-preview")).toContainText(`测试组织 ${domain}`);
  await dialog.getByRole("button", { name: /创\s?建/ }).click();
  await expect(dialog.getByText("该域名为平台保留路径，请换一个")).toBeVisible();
  await snap(page, "admin-tenants-create-error");

  await dialog.getByLabel("访问地址").fill(domain);
  await expect(dialog.getByText("该域名为平台保留路径，请换一个")).toHaveCount(0);
  await dialog.getByRole("button", { name: /创\s?建/ }).click();
  await expect(page.getByText("已创建租户")).toBeVisible();
  const row = page.getByRole("row", { name: new RegExp(`测试组织 ${domain}`) });
  await expect(row).toContainText(`/${domain}`);
  await expect(row.getByText("boss_e2e")).toBeVisible();

  // The branding changes; the domain field cannot.
  await row.getByRole("button", { name: `编辑 测试组织 ${domain}` }).click();
  const edit = page.getByRole("dialog", { name: `编辑「测试组织 ${domain}」` });
  await expect(edit.getByLabel("访问地址")).toBeDisabled();
  await edit.getByLabel("租户名称").fill(`新名字 ${domain}`);
  await edit.getByRole("button", { name: /保\s?存/ }).click();
  await expect(page.getByText("已保存")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(`新名字 ${domain}`) })).toBeVisible();

  // The tenant's own login page, in a fresh browser context: its name and filing number, and its administrator signs in.
  const visitor = await browser.newContext();
  const login = await visitor.newPage();
  await login.goto(`/${domain}/login`);
  await expect(login.getByText(`新名字 ${domain}`).first()).toBeVisible();
  await expect(login.getByText("京ICP备12345678号")).toBeVisible();
  // It takes no sign-ups: the page sends people to their administrator instead of a form that would refuse them.
  await expect(login.getByTestId("registration-closed")).toHaveText("没有账号？请联系组织管理员开通");
  await expect(login.getByRole("link", { name: "立即注册" })).toHaveCount(0);
  await login.getByPlaceholder("用户名 / 邮箱 / 手机号").fill("boss_e2e");
  await login.getByPlaceholder("密码").fill("first-pass-1");
  await login.getByRole("button", { name: "登 录" }).click();
  await expect(login).not.toHaveURL(/\/login/, { timeout: 30_000 });
  await visitor.close();
});
