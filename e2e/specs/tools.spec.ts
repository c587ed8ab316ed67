import { expect, type Page, test } from "@playwright/test";
import { apiToken, chooseLanguage, clickUntilClosed, loginAs, snap, unique } from "./helpers";

/**
 * Tools end to end (doc 2 §2): the My tools tab, the create tool modal with its §5 messages, the
 * plugin editor at /knowledge-list?id=&pluginType= (code, test run in the real sandbox, publish
 * refused before a passed test), the published plugin in the list, and delete.
 */
/** Unique per try (a module loads again in a retry's worker): a first try's plugin may still be listed. */
const NAME = `e2e加法插件${unique()}`;
const ok = /确\s*定/;
const row = (page: Page, name: string) => page.getByTestId("my-tools").locator("tr", { hasText: name });

test("logged-out visitors are sent to /login from the tools tab", async ({ page }) => {
  await page.goto("/home?types=3");
  await expect(page).toHaveURL(/\/login/);
});

test("create a JavaScript plugin, edit, test, publish, list and delete it", async ({ page }) => {
  // Both languages and many screens: past the 60 s default on a loaded machine.
  test.setTimeout(120_000);
  await loginAs(page, "member");
  await page.goto("/home?types=3&type=1");
  // The type query parameter is the initial filter: plugins, and the demo's income-tax plugin among them.
  await expect(page.getByTestId("tools-type-filter")).toContainText("插件");
  await expect(page.getByTestId("my-tools").locator("tbody tr.ant-table-row").first()).toBeVisible();
  await snap(page, "tools-list-zh");

  // The create modal: every §5 message on an empty submit.
  await page.getByRole("button", { name: "创建工具" }).click();
  const dialog = page.getByRole("dialog").filter({ has: page.getByTestId("create-tool-form") });
  await dialog.getByRole("button", { name: ok }).click();
  for (const text of ["请输入插件名称", "请选择或输入分组", "请输入描述", "请输入调用名称", "请选择插件类型", "请选择图标"])
    await expect(dialog.locator(".ant-form-item-explain-error", { hasText: text })).toBeVisible();
  await dialog.getByRole("button", { name: "自动生成" }).click();
  await expect(page.getByText("请输入插件名称或简介").first()).toBeVisible();
  await snap(page, "tools-create-zh");

  await dialog.getByLabel("插件名称").fill(NAME);
  await dialog.getByLabel("描述").fill("把两个数相加");
  await dialog.getByLabel("行业分组").fill("测试分组");
  await dialog.getByLabel("行业分组").press("Enter");
  await dialog.getByRole("button", { name: "自动生成" }).click();
  await expect(dialog.getByLabel("调用名称")).not.toHaveValue("");
  await dialog.getByLabel("插件类型").click();
  await page.locator(".ant-select-dropdown").getByTitle("JavaScript").click();
  // A click during the picker's opening animation can be lost: pick until the form shows the icon.
  const picker = page.getByRole("dialog").filter({ has: page.getByTestId("icon-gallery") });
  await expect(async () => {
    await dialog.getByTestId("icon-picker-button").click();
    await picker.getByRole("button", { name: "icon 12" }).click({ timeout: 2000 });
    await clickUntilClosed(picker, ok);
    await expect(dialog.getByTestId("agent-icon")).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await dialog.getByRole("button", { name: ok }).click();
  await expect(page.getByText("创建成功").first()).toBeVisible();
  await expect(page).toHaveURL(/\/knowledge-list\?id=.+&pluginType=JAVASCRIPT/);

  // Edit the code and save; publishing is refused until a passed test of this definition.
  const editor = page.getByTestId("plugin-editor");
  await expect(editor.getByTestId("plugin-status")).toHaveText("未发布");
  await editor.getByTestId("plugin-code").fill("function main(params) {\n  return { sum: params.a + params.b };\n}\n");
  await editor.getByTestId("plugin-save").click();
  await expect(page.getByText("保存成功").first()).toBeVisible();
  await editor.getByTestId("plugin-publish").click();
  await expect(page.getByText("请先调试成功再发布").first()).toBeVisible();

  await editor.getByTestId("test-params").fill('{"a": 2, "b": 3}');
  await editor.getByTestId("test-run").click();
  await expect(editor.getByTestId("test-result")).toContainText("成功", { timeout: 30_000 });
  await expect(editor.getByTestId("test-output")).toContainText('"sum": 5');
  await expect(editor.getByTestId("plugin-test-state")).toContainText("已测试通过");
  await snap(page, "tools-editor-zh");
  await editor.getByTestId("plugin-publish").click();
  await expect(page.getByText("发布成功").first()).toBeVisible();
  await expect(editor.getByTestId("plugin-status")).toHaveText("已发布");

  // In the list as published (status filter), then deleted.
  await page.goto("/home?types=3");
  await page.getByTestId("tools-status-filter").click();
  await page.locator(".ant-select-dropdown").getByTitle("已发布").click();
  await page.getByRole("button", { name: /查\s*询/ }).click();
  await expect(row(page, NAME)).toContainText("已发布");
  await expect(row(page, NAME)).toContainText("JavaScript");

  // English texts, then back.
  await chooseLanguage(page, "English");
  await expect(page.getByRole("button", { name: "Create tool" })).toBeVisible();
  await snap(page, "tools-list-en");
  await page.getByRole("button", { name: "Create tool" }).click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /OK|Confirm/ })
    .click();
  await expect(page.locator(".ant-form-item-explain-error", { hasText: "please enter the plugin name" })).toBeVisible();
  await snap(page, "tools-create-en");
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await row(page, NAME).dblclick();
  await expect(page.getByTestId("plugin-editor")).toContainText("The current definition passed a test");
  await snap(page, "tools-editor-en");
  await chooseLanguage(page, "中文");

  await page.goto("/home?types=3");
  await row(page, NAME)
    .getByRole("button", { name: /删\s*除/ })
    .click();
  const confirm = page.getByRole("dialog").filter({ hasText: "确认删除该工具？" });
  await clickUntilClosed(confirm, ok);
  await expect(page.getByText("删除成功").first()).toBeVisible();
  await expect(row(page, NAME)).toHaveCount(0);
});

test("the HTTP editor's request tables and the import modal", async ({ page, request }) => {
  // Both languages and many screens: past the 60 s default on a loaded machine.
  test.setTimeout(120_000);
  const token = await apiToken(request, "member");
  // Unique per try: a callable name is unique per owner, and a failed first try leaves its plugin.
  const stamp = unique();
  const res = await request.post("/aiagent_api/plugin", {
    headers: { authorization: `Bearer ${token}` },
    data: {
      pluginName: `e2e天气查询${stamp}`,
      pluginDescription: "按城市查询天气",
      pluginTags: ["测试分组"],
      pluginCallableName: `e2e_weather_${stamp}`,
      pluginType: "HTTP",
      pluginIcon: "3",
      url: "https://weather.example.com/v1/{city}",
      method: "GET",
      pathVariables: [{ name: "city", description: "城市", required: true }],
    },
  });
  expect(res.ok()).toBe(true);
  const id = (await res.json()).data.id as string;

  await loginAs(page, "member");
  await page.goto(`/knowledge-list?id=${id}&pluginType=HTTP`);
  const editor = page.getByTestId("plugin-editor");
  await editor.getByRole("tab", { name: "请求头" }).click();
  await editor.getByTestId("rows-headers").getByRole("button", { name: "添加" }).click();
  await editor.getByTestId("rows-headers").locator("tbody input").first().fill("X-Trace");
  await editor.getByTestId("plugin-save").click();
  await expect(page.getByText("保存成功").first()).toBeVisible();
  await page.reload();
  await editor.getByRole("tab", { name: "请求头" }).click();
  await expect(editor.getByTestId("rows-headers").locator("tbody input").first()).toHaveValue("X-Trace");
  await editor.getByRole("tab", { name: "路径变量" }).click();
  await expect(editor.getByTestId("rows-pathVariables").locator("tbody input").first()).toHaveValue("city");
  await snap(page, "tools-editor-http-zh");

  // The import modal's own messages; a loopback document URL is refused by the safe fetch's rule.
  await page.goto("/home?types=3");
  await page.getByRole("button", { name: "导入工具" }).click();
  const dialog = page.getByRole("dialog").filter({ hasText: "OpenAPI" });
  await dialog.getByRole("button", { name: "一键获取" }).click();
  await expect(dialog.locator(".ant-form-item-explain-error", { hasText: "请输入baseUrl" })).toBeVisible();
  await dialog.getByPlaceholder("https://").first().fill("http://127.0.0.1:9/openapi.json");
  await dialog.getByLabel("baseUrl").fill("https://pets.example.com");
  await dialog.getByRole("button", { name: "一键获取" }).click();
  await expect(page.getByText("不允许访问该地址：127.0.0.1").first()).toBeVisible();

  // A pasted document: two operations found; one edited in the detail editor, the other removed.
  await dialog.getByRole("radio", { name: "JSON" }).check();
  await dialog.locator("textarea").fill(
    JSON.stringify({
      openapi: "3.0.0",
      info: { title: "pets", version: "1" },
      paths: {
        "/pets": { get: { operationId: "listPets", summary: "列出宠物", responses: { 200: { description: "ok" } } } },
        "/pets/{petId}": {
          delete: {
            operationId: "deletePet",
            summary: "删除宠物",
            parameters: [{ name: "petId", in: "path", required: true, schema: { type: "string" } }],
            responses: { 200: { description: "ok" } },
          },
        },
      },
    }),
  );
  await dialog.getByRole("button", { name: "一键获取" }).click();
  const found = dialog.getByTestId("import-found");
  await expect(found.locator("tbody tr.ant-table-row")).toHaveCount(2);
  await found
    .locator("tr", { hasText: "删除宠物" })
    .getByRole("button", { name: /删\s*除/ })
    .click();
  await expect(found.locator("tbody tr.ant-table-row")).toHaveCount(1);
  await found.getByRole("button", { name: /编\s*辑/ }).click();
  const detail = page.getByRole("dialog").filter({ has: page.getByTestId("import-detail") });
  const petName = `e2e宠物列表${Date.now() % 100000}`;
  await detail.getByLabel("插件名称").fill(petName);
  await detail.getByLabel("描述").fill("按物种列出宠物");
  await detail.getByRole("tab", { name: "请求头" }).click();
  await detail.getByTestId("import-rows-headers").getByRole("button", { name: "添加" }).click();
  await detail.getByTestId("import-rows-headers").locator("tbody input").first().fill("X-Shop");
  await detail.getByRole("tab", { name: "Body" }).click();
  await expect(detail.getByLabel("Body 类型")).toBeVisible();
  await snap(page, "tools-import-detail-zh");
  await clickUntilClosed(detail, ok);
  await expect(found.locator("tbody tr.ant-table-row")).toContainText(petName);
  await snap(page, "tools-import-zh");
  await dialog.getByRole("button", { name: /保\s*存/ }).click();
  await expect(page.getByText("保存成功！").first()).toBeVisible();
  const saved = await request.post("/aiagent_api/plugin/page", {
    headers: { authorization: `Bearer ${token}` },
    data: { pluginName: petName },
  });
  const [pet] = (await saved.json()).data.content;
  expect(pet).toMatchObject({ pluginName: petName, pluginDescription: "按物种列出宠物", url: "https://pets.example.com/pets" });
  expect(pet.headers[0].name).toBe("X-Shop");
  await request.delete(`/aiagent_api/plugin/${pet.id}`, { headers: { authorization: `Bearer ${token}` } });

  // The detail editor in English.
  await chooseLanguage(page, "English");
  await page.getByRole("button", { name: "Import tool" }).click();
  const en = page.getByRole("dialog").filter({ hasText: "OpenAPI" });
  await en.getByRole("radio", { name: "JSON" }).check();
  await en.locator("textarea").fill(
    JSON.stringify({
      openapi: "3.0.0",
      info: { title: "p", version: "1" },
      paths: { "/pets": { get: { summary: "List pets", responses: {} } } },
    }),
  );
  await en.getByLabel("baseUrl").fill("https://pets.example.com");
  await en.getByRole("button", { name: "fetch in one click" }).click();
  await en.getByTestId("import-found").getByRole("button", { name: "Edit" }).click();
  await expect(page.getByTestId("import-detail")).toContainText("Path variables");
  await snap(page, "tools-import-detail-en", 500);
  await page.goto("/home?types=3");
  await chooseLanguage(page, "中文");

  await request.delete(`/aiagent_api/plugin/${id}`, { headers: { authorization: `Bearer ${token}` } });
});
