import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { apiToken, chooseLanguage, clickUntilClosed, loginAs, searchAndPick, snap } from "./helpers";

/**
 * Tools end to end with real services beside the platform: an MCP server (the reference
 * `server-everything`, streamable HTTP) added from the create modal, and an HTTP plugin made in the
 * UI against a local API, tested, published, bound in the studio and called in its debug chat. Both
 * services listen on loopback, which the platform refuses unless the administrator's allow-list
 * (NET_ALLOW_HOSTS in playwright.config.ts) names them.
 */
const PORT = Number(process.env.E2E_PORT ?? 8190);
const MCP_PORT = PORT + 4;
const API_PORT = PORT + 5;
const ok = /确\s*定/;

let mcp: ChildProcess | undefined;
let api: http.Server | undefined;
const apiSeen: string[] = [];

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  const everything = path.join(
    path.dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/package.json")),
    "dist/index.js",
  );
  mcp = spawn(process.execPath, [everything, "streamableHttp"], { env: { ...process.env, PORT: String(MCP_PORT) }, stdio: "ignore" });
  api = http.createServer((req, res) => {
    apiSeen.push(`${req.method} ${req.url}`);
    const city = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname.split("/").pop() ?? "");
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ city, weather: "多云", max: 26 }));
  });
  await new Promise<void>((resolve) => api?.listen(API_PORT, "127.0.0.1", resolve));
  await expect
    .poll(
      async () => {
        try {
          return (await fetch(`http://127.0.0.1:${MCP_PORT}/mcp`, { method: "GET" })).status > 0;
        } catch {
          return false;
        }
      },
      { timeout: 30_000 },
    )
    .toBe(true);
});

test.afterAll(async () => {
  mcp?.kill();
  api?.close();
});

const row = (page: Page, name: string) => page.getByTestId("my-tools").locator("tr", { hasText: name });

/** Fills the create modal's group and icon (shared by both flows). */
async function groupAndIcon(page: Page) {
  const dialog = page.getByRole("dialog").filter({ has: page.getByTestId("create-tool-form") });
  await dialog.getByLabel("行业分组").fill("测试分组");
  await dialog.getByLabel("行业分组").press("Enter");
  const picker = page.getByRole("dialog").filter({ has: page.getByTestId("icon-gallery") });
  await expect(async () => {
    await dialog.getByTestId("icon-picker-button").click();
    await picker.getByRole("button", { name: "icon 7" }).click({ timeout: 2000 });
    await clickUntilClosed(picker, ok);
    await expect(dialog.getByTestId("agent-icon")).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  return dialog;
}

test("add an MCP server from the create modal; its tools are listed, viewed and run", async ({ page, request }) => {
  test.setTimeout(90_000);
  const auth = { authorization: `Bearer ${await apiToken(request, "member")}` };
  /** The member's tools of this spec's MCP server. */
  const serverTools = async () => {
    const listed = await request.post("/aiagent_api/plugin/page", { headers: auth, data: { pluginTypes: 3, pageSize: 100 } });
    return ((await listed.json()).data.content as { id: string; pluginName: string; mcp: { serverUrl: string } }[]).filter((p) =>
      p.mcp.serverUrl.includes(`:${MCP_PORT}/`),
    );
  };
  // A retry starts without the first try's tools (their rows would be listed twice).
  for (const p of await serverTools()) await request.delete(`/aiagent_api/plugin/${p.id}`, { headers: auth });
  await loginAs(page, "member");
  await page.goto("/home?types=3");
  await page.getByRole("button", { name: "创建工具" }).click();
  const dialog = page.getByRole("dialog").filter({ has: page.getByTestId("create-tool-form") });
  // The server names and describes its tools: the form asks only for the server. (A pick made
  // while the list is still opening can be lost: picked until the form changes.)
  await expect(async () => {
    if ((await page.locator(".ant-select-dropdown:visible").count()) === 0) await dialog.getByLabel("插件类型").click();
    await page.locator(".ant-select-dropdown:visible").getByTitle("MCP").click({ timeout: 2000 });
    await expect(dialog.getByLabel("插件名称")).toHaveCount(0, { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await dialog.getByLabel("MCP 服务地址").fill(`http://127.0.0.1:${MCP_PORT}/mcp`);
  await groupAndIcon(page);
  await snap(page, "tools-mcp-create-zh");
  await dialog.getByRole("button", { name: ok }).click();
  // The state, not the toast (gone after 3 s): the dialog closes once the server's tools are added.
  await expect(dialog).toBeHidden({ timeout: 30_000 });

  // The list switches to MCP tools: no publish status, no edit.
  await expect(page.getByTestId("tools-type-filter")).toContainText("MCP");
  const echo = row(page, "echo").first();
  await expect(echo).toContainText("MCP");
  await expect(echo).not.toContainText("未发布");
  await expect(echo.getByRole("button", { name: /编\s*辑/ })).toHaveCount(0);
  await snap(page, "tools-mcp-list-zh");

  // Its server settings and a test run, read-only.
  const mine = await serverTools();
  const echoId = mine.find((p) => p.pluginName === "echo")?.id;
  await page.goto(`/knowledge-list?id=${echoId}&pluginType=MCP`);
  const editor = page.getByTestId("plugin-editor");
  await expect(editor.getByTestId("mcp-settings")).toContainText("MCP 服务设置");
  await expect(editor.getByTestId("mcp-settings").locator("input").first()).toHaveValue(`http://127.0.0.1:${MCP_PORT}/mcp`);
  await expect(editor).toContainText("MCP和内置插件不允许修改");
  await editor.getByTestId("test-params").fill('{"message": "你好 MCP"}');
  await editor.getByTestId("test-run").click();
  await expect(editor.getByTestId("test-result")).toContainText("成功", { timeout: 30_000 });
  await expect(editor.getByTestId("test-output")).toContainText("你好 MCP");
  await snap(page, "tools-mcp-editor-zh");
  await chooseLanguage(page, "English");
  await expect(editor.getByTestId("mcp-settings")).toContainText("MCP server settings");
  await snap(page, "tools-mcp-editor-en");
  await chooseLanguage(page, "中文");

  for (const p of mine) await request.delete(`/aiagent_api/plugin/${p.id}`, { headers: auth });
});

test("an HTTP plugin made in the UI: tested, published, bound in the studio and called in chat", async ({ page }) => {
  test.setTimeout(150_000);
  const suffix = Date.now().toString(36);
  const name = `e2e天气${suffix}`;
  await loginAs(page, "member");
  await page.goto("/home?types=3");
  await page.getByRole("button", { name: "创建工具" }).click();
  const dialog = page.getByRole("dialog").filter({ has: page.getByTestId("create-tool-form") });
  await dialog.getByLabel("插件名称").fill(name);
  await dialog.getByLabel("描述").fill("查询城市天气");
  await dialog.getByLabel("调用名称").fill(`weather_${suffix}`);
  await dialog.getByLabel("插件类型").click();
  await page.locator(".ant-select-dropdown").getByTitle("HTTP").click();
  await dialog.getByLabel("接口地址").fill(`http://127.0.0.1:${API_PORT}/weather/{city}`);
  await groupAndIcon(page);
  await dialog.getByRole("button", { name: ok }).click();
  await expect(page).toHaveURL(/pluginType=HTTP/);

  // The path variable the URL names, then a test run against the local API and publish.
  const editor = page.getByTestId("plugin-editor");
  await editor.getByRole("tab", { name: "路径变量" }).click();
  await editor.getByTestId("rows-pathVariables").getByRole("button", { name: "添加" }).click();
  await editor.getByTestId("rows-pathVariables").locator("tbody input").first().fill("city");
  await editor.getByTestId("rows-pathVariables").locator("tbody .ant-checkbox-input").first().check();
  await editor.getByTestId("plugin-save").click();
  // Saved: the button is disabled again once nothing is left unsaved.
  await expect(editor.getByTestId("plugin-save")).toBeDisabled();
  await editor.getByTestId("test-params").fill('{"city": "杭州"}');
  await editor.getByTestId("test-run").click();
  await expect(editor.getByTestId("test-result")).toContainText("成功", { timeout: 30_000 });
  await expect(editor.getByTestId("test-output")).toContainText("多云");
  expect(apiSeen).toContain(`GET /weather/${encodeURIComponent("杭州")}`);
  await snap(page, "tools-http-editor-zh");
  await editor.getByTestId("plugin-publish").click();
  await expect(editor.getByTestId("plugin-status")).toHaveText("已发布");

  // Bound in the studio; the debug chat shows the call and its result.
  await page.goto("/studio?new=1");
  await page.getByTestId("studio-name").fill(`天气助手${suffix}`);
  // The standard tools are offered for binding too (searched: the list only renders the options in view).
  const plugins = page.getByTestId("studio-plugins");
  await plugins.click();
  await plugins.locator("input").fill("网页读取");
  await expect(page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: "网页读取" })).toHaveCount(1);
  await searchAndPick(page, plugins, name);
  await page.keyboard.press("Escape");
  await expect(plugins).toContainText(name);
  await page.getByTestId("studio-save").click();
  await expect(page.getByText("已保存").first()).toBeVisible();
  const pane = page.getByTestId("studio-debug-pane");
  await pane.locator(".ant-sender textarea").fill(`请调用 weather_${suffix} {"city":"上海"}`);
  await pane.locator(".ant-sender textarea").press("Enter");
  const bot = pane.getByTestId("msg-bot").last();
  await expect(bot.locator(".chat-tool-calls")).toContainText(name, { timeout: 30_000 });
  await expect(bot).toContainText("多云", { timeout: 30_000 });
  // checkPluginsList: the plugins the reply called, by name.
  await expect(bot.getByTestId("chat-check-plugins")).toContainText(name);
  expect(apiSeen).toContain(`GET /weather/${encodeURIComponent("上海")}`);
  await snap(page, "tools-http-chat-zh");
});
