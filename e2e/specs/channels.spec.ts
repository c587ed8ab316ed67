import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "@playwright/test";
import { apiToken, clickUntilClosed, loginAs, snap } from "./helpers";

/**
 * An agent as an MCP server: the owner makes a key on the MCP access page, and an MCP client (the
 * SDK's) asks the agent through the platform's streamable HTTP endpoint.
 */

test("create a key on the MCP access page, then ask the agent from an MCP client", async ({ page, request, baseURL }) => {
  // A released agent of the member's own: created, debugged once, released (through the API).
  const auth = { authorization: `Bearer ${await apiToken(request, "member")}` };
  const name = `MCP 助手 ${Date.now().toString(36)}`;
  const agentId = (await (await request.post("/aiagent_api/agent/quick/add", { headers: auth, data: { agentName: name } })).json()).data
    .agentId as string;
  const debug = await request.post("/agent/agent_runtime/chat", {
    headers: auth,
    data: { schema_id: agentId, query: "你好", release: false },
  });
  expect(await debug.text()).toContain("stop");
  expect((await request.post(`/aiagent_api/agent/release/${agentId}`, { headers: auth, data: { notes: "v1" } })).ok()).toBe(true);

  await loginAs(page, "member");
  // From the agent's menu in My agents.
  await page.goto("/home");
  await page.getByTestId("mine-search").locator("input").fill(name);
  await page.getByTestId("mine-search").locator("input").press("Enter");
  const card = page.getByTestId("my-agent-card").filter({ hasText: name });
  await expect(card).toHaveCount(1);
  await expect(async () => {
    await card.getByTestId("agent-more").hover();
    await page.getByRole("menuitem", { name: /MCP 接入/ }).click({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await expect(page).toHaveURL(new RegExp(`/mcp-access\\?id=${agentId}`));
  await expect(page.getByTestId("mcp-http-url")).toContainText(`/mcp/${agentId}`);
  await expect(page.getByText("还没有密钥")).toBeVisible();
  await page.getByTestId("mcp-create-key").click();
  await page.getByTestId("mcp-key-name").fill("e2e 客户端");
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /确\s*定/ })
    .click();
  const keyBox = page.getByTestId("mcp-new-key");
  await expect(keyBox).toContainText("afk_");
  const key = ((await keyBox.locator("code").textContent()) ?? "").trim();
  await expect(page.getByRole("dialog", { name: "创建密钥" })).toBeHidden();
  await snap(page, "channels-key-created");
  await page.getByTestId("mcp-key-close").click();
  await expect(keyBox).toBeHidden();
  await expect(page.getByRole("cell", { name: "e2e 客户端" })).toBeVisible();
  // Limits per minute are changed in place (0 means none).
  await page.getByTestId("mcp-edit-key").click();
  const edit = page.getByRole("dialog", { name: "编辑密钥" });
  await edit.getByRole("spinbutton").first().fill("30");
  await clickUntilClosed(edit, /确\s*定/);
  await expect(page.getByRole("cell", { name: "30 / 不限 / 不限" })).toBeVisible();
  await expect(edit).toBeHidden();
  await snap(page, "channels-mcp-access");

  const client = new Client({ name: "e2e", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseURL}/mcp/${agentId}`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  const result = await client.callTool({ name: "ask", arguments: { question: "你好，MCP" } });
  expect(result.isError).toBeFalsy();
  expect((result.content as { text: string }[])[0].text.length).toBeGreaterThan(0);
  await client.close();

  // Revoked in the page: the client is refused.
  await page.getByTestId("mcp-revoke-key").click();
  await page.getByRole("button", { name: /确\s*定/ }).click();
  await expect(page.getByText("还没有密钥")).toBeVisible();
  const refused = new Client({ name: "e2e", version: "1" });
  await expect(
    refused.connect(
      new StreamableHTTPClientTransport(new URL(`${baseURL}/mcp/${agentId}`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    ),
  ).rejects.toThrow();

  await page.evaluate(() => localStorage.setItem("lang", "en"));
  await page.reload();
  await expect(page.getByText("MCP access").first()).toBeVisible();
  await snap(page, "channels-mcp-access-en");
  await page.evaluate(() => localStorage.setItem("lang", "zh"));
});
