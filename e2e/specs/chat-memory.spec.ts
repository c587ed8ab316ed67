import { expect, type Page, test } from "@playwright/test";
import { apiToken, clickUntilClosed, loginAs, snap, unique } from "./helpers";

/**
 * Memory variables in the chat (the agent remembers per user: shown, edited, written by the model,
 * reset), and a reply that goes on while the page is reloaded: the reopened session follows it.
 * The agent is the member's own, released through the API with two memory variables.
 */
const input = (page: Page) => page.locator(".ant-sender textarea");
const lastBot = (page: Page) => page.getByTestId("msg-bot").last();
const idle = (page: Page) => expect(page.locator(".ant-sender [class*='loading-button']")).toHaveCount(0, { timeout: 30_000 });

async function releasedAgentWithMemory(request: import("@playwright/test").APIRequestContext) {
  const auth = { authorization: `Bearer ${await apiToken(request, "member")}` };
  const name = `记忆助手${unique()}`;
  const agentId = (await (await request.post("/aiagent_api/agent/quick/add", { headers: auth, data: { agentName: name } })).json()).data
    .agentId as string;
  const draft = (await (await request.get(`/aiagent_api/agent/draft/${agentId}`, { headers: auth })).json()).data.draft;
  const saved = await request.put(`/aiagent_api/agent/draft/${agentId}`, {
    headers: auth,
    data: {
      ...draft,
      persona: "你是旅行顾问，用户住在{{城市}}。",
      variables: [
        { name: "城市", default: "北京", description: "用户所在城市", scope: "user" },
        { name: "话题", default: "无", description: "本次对话的话题", scope: "session" },
      ],
    },
  });
  expect(saved.ok()).toBe(true);
  const debug = await request.post("/agent/agent_runtime/chat", {
    headers: auth,
    data: { schema_id: agentId, query: "你好", release: false },
  });
  expect(await debug.text()).toContain('"type":"stop"');
  expect((await request.post(`/aiagent_api/agent/release/${agentId}`, { headers: auth, data: { notes: "v1" } })).ok()).toBe(true);
  return agentId;
}

async function openMemory(page: Page) {
  const drawer = page.locator(".ant-drawer", { hasText: "智能体为你记住的内容" });
  await expect(async () => {
    if (!(await drawer.isVisible())) await page.getByTestId("memory-button").click();
    await expect(drawer).toBeVisible({ timeout: 2000 });
  }).toPass();
  return drawer;
}

test("memory variables: shown, edited, written by the model, reset", async ({ page, request }) => {
  test.setTimeout(120_000);
  const agentId = await releasedAgentWithMemory(request);
  await loginAs(page, "member");
  await page.goto(`/agent-execute?id=${agentId}`);
  await expect(page.getByTestId("chat-view")).toBeVisible();

  let drawer = await openMemory(page);
  const city = drawer.getByTestId("memory-城市");
  await expect(city.getByRole("textbox")).toHaveValue("北京");
  await expect(city).toContainText("默认值");
  await expect(city).toContainText("长期");
  // A session variable waits for the first message.
  await expect(drawer.getByTestId("memory-话题")).toContainText("发送第一条消息后可修改");
  await snap(page, "chat-memory");
  await city.getByRole("textbox").fill("杭州");
  await city.getByRole("button", { name: /保\s*存/ }).click();
  await expect(page.getByText("已保存")).toBeVisible();
  await expect(city).not.toContainText("默认值");
  await clickUntilClosed(drawer, /close|关闭/i);

  // The model remembers through its update_memory tool; the drawer shows the new value after the reply.
  await input(page).fill('调用 update_memory {"name":"城市","value":"成都"}');
  await input(page).press("Enter");
  await expect(lastBot(page)).toContainText("记忆");
  await idle(page);
  drawer = await openMemory(page);
  await expect(drawer.getByTestId("memory-城市").getByRole("textbox")).toHaveValue("成都");
  // Now in a session, its own variable can be set.
  const topic = drawer.getByTestId("memory-话题");
  await topic.getByRole("textbox").fill("美食");
  await topic.getByRole("button", { name: /保\s*存/ }).click();
  await expect(topic).not.toContainText("默认值");

  // Reset everything back to the defaults.
  await drawer.getByTestId("memory-reset-all").click();
  await page
    .locator(".ant-popconfirm")
    .getByRole("button", { name: /确\s*定|OK/ })
    .click();
  await expect(drawer.getByTestId("memory-城市").getByRole("textbox")).toHaveValue("北京");
  await expect(drawer.getByTestId("memory-话题").getByRole("textbox")).toHaveValue("无");

  await page.evaluate(() => localStorage.setItem("lang", "en"));
  await page.reload();
  const en = page.locator(".ant-drawer", { hasText: "What the agent remembers" });
  await expect(async () => {
    if (!(await en.isVisible())) await page.getByTestId("memory-button").click();
    await expect(en).toBeVisible({ timeout: 2000 });
  }).toPass();
  await snap(page, "chat-memory-en");
  await page.evaluate(() => localStorage.setItem("lang", "zh"));
});

test("a reply goes on while the page reloads, and the reopened session follows it to the end", async ({ page, request }) => {
  test.setTimeout(120_000);
  const agentId = await releasedAgentWithMemory(request);
  await loginAs(page, "member");
  await page.goto(`/agent-execute?id=${agentId}`);
  const question = `long ${unique()}`;
  await input(page).fill(question);
  await input(page).press("Enter");
  await expect(lastBot(page)).toContainText("第5段");
  // The open session is in the address: the reload reopens it, highlighted, and its reply streams on.
  await expect(page).toHaveURL(/[?&]sessionId=/);
  await page.reload();
  await expect(
    page.getByTestId("session-list").locator(".ant-conversations-item-active", { hasText: question.slice(0, 15) }),
  ).toBeVisible();
  await expect(lastBot(page)).toContainText("第1段");
  await expect(page.locator(".ant-sender [class*='loading-button']")).toHaveCount(1);
  await snap(page, "chat-resumed");
  await expect(lastBot(page)).toContainText("第300段", { timeout: 60_000 });
  await idle(page);
  // Whole and once: the saved reply is what was shown.
  const text = (await lastBot(page).textContent()) ?? "";
  expect(text.match(/第1段/g)).toHaveLength(1);
  // An address naming a session that is not there opens a new chat instead.
  await page.goto(`/agent-execute?id=${agentId}&sessionId=nope`);
  await expect(page).not.toHaveURL(/sessionId=/);
  await expect(page.getByTestId("msg-bot")).toHaveCount(0);
  await expect(page.getByTestId("msg-user")).toHaveCount(0);
});

test("the studio's debug pane: its memory drawer, and a reply followed on after a reload", async ({ page, request }) => {
  test.setTimeout(120_000);
  const agentId = await releasedAgentWithMemory(request);
  await loginAs(page, "member");
  await page.goto(`/studio?id=${agentId}`);
  const pane = page.getByTestId("studio-debug-pane");
  await expect(pane.locator(".ant-sender textarea")).toBeVisible();
  // The draft's memory, as the chat page shows it.
  await pane.getByTestId("memory-button").click();
  const drawer = page.locator(".ant-drawer", { hasText: "智能体为你记住的内容" });
  await expect(drawer.getByTestId("memory-城市").getByRole("textbox")).toHaveValue("北京");
  await snap(page, "studio-debug-memory");
  await clickUntilClosed(drawer, /close|关闭/i);

  const question = `long ${unique()}`;
  await pane.locator(".ant-sender textarea").fill(question);
  await pane.locator(".ant-sender textarea").press("Enter");
  const bot = pane.getByTestId("msg-bot").last();
  await expect(bot).toContainText("第5段");
  await page.reload();
  // The same debug conversation, its reply still streaming.
  await expect(pane.getByTestId("msg-user").last()).toContainText(question);
  await expect(bot).toContainText("第1段");
  await snap(page, "studio-debug-resumed");
  await expect(bot).toContainText("第300段", { timeout: 60_000 });
  await expect(pane.locator(".ant-sender [class*='loading-button']")).toHaveCount(0, { timeout: 30_000 });
  expect(((await bot.textContent()) ?? "").match(/第1段/g)).toHaveLength(1);
  // A new debug chat starts empty.
  await pane.getByTestId("studio-debug-new").click();
  await expect(pane.getByTestId("msg-bot")).toHaveCount(0);

  await page.evaluate(() => localStorage.setItem("lang", "en"));
  await page.reload();
  await pane.getByTestId("memory-button").click();
  await expect(page.locator(".ant-drawer", { hasText: "What the agent remembers" })).toBeVisible();
  await snap(page, "studio-debug-memory-en");
  await page.evaluate(() => localStorage.setItem("lang", "zh"));
});
