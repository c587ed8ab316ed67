import { expect, type Page, test } from "@playwright/test";
import { apiToken, chooseLanguage, escapeUntilClosed, loginAs, snap } from "./helpers";

/** A mistyped first path segment is this app's page not found, never a tenant of that name. */
async function expectNotFound(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByText("404", { exact: true })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect(page.getByText("租户不存在")).toHaveCount(0);
}

test("the login page, in Chinese and English", async ({ page }) => {
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "登 录" })).toBeVisible();
  await snap(page, "login");
  await chooseLanguage(page, "English");
  await expect(page.getByRole("button", { name: /Sign in|Log in/ })).toBeVisible();
  await snap(page, "login-en");
  await chooseLanguage(page, "中文");
});

test("an unknown first path segment is the default tenant's 404 with a way home, signed in or not", async ({ page }) => {
  for (const path of ["/indx", "/home-create", "/no-such-tenant/login"]) await expectNotFound(page, path);
  await expect(page.getByTestId("tenant-name")).toHaveCount(0);
  await snap(page, "not-found-anonymous");
  // Home is the marketplace, which asks an anonymous visitor to sign in first.
  await page.getByRole("button", { name: "智能体广场" }).click();
  await expect(page).toHaveURL(/\/login\?redirect=%2Findex$/);

  await loginAs(page, "member");
  await expectNotFound(page, "/indx");
  // Still the default tenant and still signed in: the header is this app's, not a tenant's.
  await expect(page.getByTestId("user-menu")).toContainText("旗舰会员");
  await expect(page.getByRole("banner")).toContainText("Agentfair 智能体平台");
  await snap(page, "not-found");
  await chooseLanguage(page, "English");
  await expect(page.getByRole("button", { name: "Marketplace" })).toBeVisible();
  await snap(page, "not-found-en");
  await chooseLanguage(page, "中文");
});

test("a real tenant domain is still a route base", async ({ page }) => {
  // Anonymous on a tenant's page: its login page, branded.
  await page.goto("/acme/index");
  await expect(page).toHaveURL(/\/acme\/login\?redirect=%2Findex$/);
  await expect(page.getByTestId("tenant-name")).toHaveText("Acme 智能科技");
  // A mistyped page under a tenant: that tenant's page not found.
  await page.goto("/acme/indx");
  await expect(page.getByText("404", { exact: true })).toBeVisible();
  await expect(page.getByRole("banner")).toContainText("Acme 智能科技");
});

test("no page warns about a missing HydrateFallback", async ({ page }) => {
  const warnings: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "warning" || m.type() === "error") warnings.push(m.text());
  });
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "登 录" })).toBeVisible();
  await loginAs(page, "member");
  await page.goto("/user-order");
  await expect(page.getByTestId("user-menu")).toBeVisible();
  expect(warnings.filter((w) => w.includes("HydrateFallback"))).toEqual([]);
});

/** How many lines of text a table cell shows (text boxes more than a few px apart vertically). */
const wrappedCells = (page: Page) =>
  page.locator(".ant-table").evaluate((table) => {
    const lines = (cell: Element) => {
      const tops: number[] = [];
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!n.textContent?.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        for (const r of range.getClientRects()) if (r.width > 0 && !tops.some((t) => Math.abs(t - r.top) < 8)) tops.push(r.top);
      }
      return tops.length;
    };
    return [...table.querySelectorAll("th, td")].filter((c) => lines(c) > 1).map((c) => c.textContent);
  });

test("the models table keeps every header and cell on one line at 1280 and 1440 px", async ({ page, request }) => {
  const auth = { authorization: `Bearer ${await apiToken(request, "admin")}` };
  const name = `Qwen2.5 72B Instruct ${Date.now().toString(36)}`;
  // Disabled and not default: the other specs' chats on this shared platform never use it.
  const created = await request.post("/agent_api/api/models", {
    headers: auth,
    data: {
      name,
      type: "EMBEDDING",
      baseUrl: "https://dashscope.aliyuncs.com/compatible-mode/v1",
      apiKey: "sk-test",
      modelId: "qwen2.5-72b-instruct",
      enabled: false,
      rpmLimit: 60000,
      inputTpmLimit: 1000000,
      outputTpmLimit: 200000,
    },
  });
  expect(created.ok()).toBe(true);
  try {
    await loginAs(page, "admin");
    for (const lang of ["中文", "English"] as const) {
      if (lang === "English") await chooseLanguage(page, "English");
      for (const width of [1280, 1440]) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto("/models");
        await expect(page.locator(".ant-table-row", { hasText: name })).toBeVisible();
        await snap(page, `models-${width}${lang === "English" ? "-en" : ""}`);
        expect(await wrappedCells(page), `${lang} at ${width}px`).toEqual([]);
      }
      // A local model server needs the private-address switch: the form says so beside the Base URL.
      await page.getByRole("button", { name: lang === "English" ? "Add model" : "添加模型" }).click();
      const dialog = page.getByRole("dialog");
      await expect(
        dialog.getByText(lang === "English" ? /Ollama http:\/\/127\.0\.0\.1:11434\/v1/ : /需开启下方「允许内网地址」/),
      ).toBeVisible();
      await snap(page, `models-add${lang === "English" ? "-en" : ""}`, 500);
      await escapeUntilClosed(page, dialog);
    }
    await chooseLanguage(page, "中文");
  } finally {
    await request.delete(`/agent_api/api/models/${(await created.json()).data.id}`, { headers: auth });
  }
});

test("on a phone the header keeps its menu: the items that do not fit are under its …", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await loginAs(page, "member");
  const more = page.locator(".ant-layout-header .ant-menu-overflow-item-rest");
  await expect(more).toBeVisible();
  await more.click();
  await page.getByRole("menuitem", { name: "会员中心" }).click();
  await expect(page).toHaveURL(/\/recharge/);
  // Only the avatar stands for the user: their name would push the menu off the header.
  await expect(page.getByTestId("user-menu")).toHaveText("");
  await snap(page, "phone-header");
});
