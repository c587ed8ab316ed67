import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { apiToken, clickUntilClosed, loginAs, snap, unique } from "./helpers";

/**
 * Tenant administrators: the platform administrator sees acme's administrator (the demo seed
 * makes `acme` one), revokes and grants the role again, and the acme administrator then adds a
 * model for acme on /acme/models, without the private-address switch.
 */
/** Unique per try: a first try that failed before deleting its model leaves it in the list. */
const MODEL = `Acme 专属模型 ${unique()}`;

/** The administration pages are a group of the header: it opens on a click. */
const openAdminMenu = (page: Page) => page.getByRole("banner").getByText("管理后台").click();

/** The demo's state (acme administers acme), set again so that a retry starts where the first try did. */
async function grantAcme(request: APIRequestContext) {
  const auth = { authorization: `Bearer ${await apiToken(request, "admin")}` };
  const acmeId = (await (await request.get("/agent_api/api/auth/reg/getTenantInfo?domain=acme")).json()).data.tenantId;
  const granted = await request.put(`/agent_api/api/admin/tenants/${acmeId}/role`, {
    headers: auth,
    data: { username: "acme", role: "admin" },
  });
  expect(granted.ok()).toBe(true);
  return { auth, acmeId: acmeId as string };
}

test("the platform administrator revokes and grants acme's tenant administrator on /admin/tenants", async ({ page, request }) => {
  await grantAcme(request);
  await loginAs(page, "admin");
  await openAdminMenu(page);
  await page.getByRole("link", { name: "租户管理" }).click();
  await expect(page).toHaveURL(/\/admin\/tenants$/);
  const row = page.getByRole("row", { name: /Acme 智能科技/ });
  await expect(row).toContainText("/acme");
  await expect(row.getByText("Acme 员工 (acme)")).toBeVisible();
  // The demo tenant takes sign-ups (not toggled here: other specs register into acme meanwhile).
  await expect(row.getByTestId("tenant-registration-acme")).toBeChecked();
  await snap(page, "admin-tenants");

  await row.getByLabel("撤销 acme").click();
  const confirm = page.getByRole("dialog", { name: "确定撤销 acme 的租户管理员权限吗？" });
  await expect(confirm).toBeVisible();
  await clickUntilClosed(confirm, /撤\s?销/);
  // acme's tag goes (the tenant-members spec makes acme administrators of its own meanwhile: not "none").
  await expect(row.getByText("Acme 员工 (acme)")).toHaveCount(0);

  // an unknown username is refused with the server's message
  await row.getByRole("button", { name: "添加管理员" }).click();
  const dialog = page.getByRole("dialog", { name: "为「Acme 智能科技」添加租户管理员" });
  await dialog.getByLabel("用户名").fill("member");
  await dialog.getByRole("button", { name: /确\s?定/ }).click();
  await expect(dialog.getByText("该租户下没有此用户")).toBeVisible();
  await dialog.getByLabel("用户名").fill("acme");
  await expect(dialog.getByText("该租户下没有此用户")).toHaveCount(0);
  await snap(page, "admin-tenants-grant");
  await dialog.getByRole("button", { name: /确\s?定/ }).click();
  await expect(page.getByText("已设为租户管理员")).toBeVisible();
  await expect(row.getByText("Acme 员工 (acme)")).toBeVisible();
});

test("the acme administrator adds, tests and removes a model of acme on /acme/models", async ({ page, request }) => {
  const { auth, acmeId } = await grantAcme(request);
  await loginAs(page, "acme", { tenant: "acme" });
  await openAdminMenu(page);
  await expect(page.getByRole("link", { name: "租户管理" })).toHaveCount(0);
  await page.getByRole("link", { name: "模型管理" }).click();
  await expect(page).toHaveURL(/\/acme\/models$/);
  await expect(page.getByText(/配置本租户专用的模型服务/)).toBeVisible();
  // The header labels the tenant's administrator as one (the demo nickname says 员工).
  await expect(page.getByTestId("user-role")).toHaveText("租户管理员");
  // With no models of its own the tenant chats on the platform's (a retry may find its first try's model).
  if ((await page.getByRole("row", { name: /Acme 专属模型/ }).count()) === 0)
    await expect(page.getByText("本租户还没有自己的模型，目前使用平台的模型对话。", { exact: false })).toBeVisible();
  await snap(page, "models-tenant-empty");

  await page.getByRole("button", { name: "添加模型" }).click();
  const dialog = page.getByRole("dialog", { name: "添加模型" });
  await dialog.getByLabel("模型名称").fill(MODEL);
  await dialog.getByLabel("Base URL").fill("http://127.0.0.1:9/v1");
  await dialog.getByLabel("ApiKey").fill("sk-acme-e2e");
  await dialog.getByLabel("模型 ID").fill("acme-chat");
  await expect(dialog.getByText("允许内网地址")).toHaveCount(0);
  await dialog.getByRole("button", { name: /确\s?定/ }).click();
  await expect(page.getByText("保存成功")).toBeVisible();
  const row = page.getByRole("row", { name: new RegExp(MODEL) });
  await expect(row).toContainText("acme-chat");
  await snap(page, "models-tenant-admin");

  // a private address is refused for a tenant's model: safe fetch never connects
  await row.getByLabel("测试连接").click();
  await expect(page.getByText("模型地址指向内网或本机地址，未被允许访问")).toBeVisible();

  // the model is acme's: the platform administrator sees it with acme's tenant id
  const all = (await (await request.get("/agent_api/api/models", { headers: auth })).json()).data as {
    name: string;
    tenantId: string | null;
    allowPrivate: boolean;
  }[];
  expect(all.find((m) => m.name === MODEL)).toMatchObject({ tenantId: acmeId, allowPrivate: false });

  await row.getByLabel("删除").click();
  await page
    .getByRole("tooltip")
    .getByRole("button", { name: /确\s?定/ })
    .click();
  await expect(page.getByText("删除成功")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(MODEL) })).toHaveCount(0);
});

test("a member of the public platform has no model management", async ({ page }) => {
  await loginAs(page, "member");
  await expect(page.getByRole("banner").getByText("管理后台")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "模型管理" })).toHaveCount(0);
  await page.goto("/models");
  await expect(page.getByText("403")).toBeVisible();
  await expect(page.getByRole("button", { name: "添加模型" })).toHaveCount(0);
});
