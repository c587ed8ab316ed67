import { expect, type Page, test } from "@playwright/test";
import { clickUntilClosed, loginAs, openMarketAgent, registerTestModel, removeTestModels, snap, startTestModel } from "./helpers";

/**
 * Chat flow against the real platform: a local OpenAI-compatible test model (its own process),
 * configured through Model management by the administrator.
 */
const LLM_PORT = Number(process.env.E2E_PORT ?? 8190) + 8;
let llm: { stop(): void } | undefined;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  llm = await startTestModel(LLM_PORT);
});

test.afterAll(async ({ request }) => {
  await removeTestModels(request, "本地测试模型");
  llm?.stop();
});

const input = (page: Page) => page.locator(".ant-sender textarea");
const lastBot = (page: Page) => page.getByTestId("msg-bot").last();

async function openChat(page: Page, name: string) {
  await openMarketAgent(page, name);
  await expect(page.getByTestId("chat-view")).toBeVisible();
}

test("administrator configures the model in Model management", async ({ page, request }) => {
  await registerTestModel(request, "本地测试模型", LLM_PORT);
  await loginAs(page, "admin");
  await page.goto("/models");
  await expect(page.getByText("本地测试模型")).toBeVisible();
  await page.getByRole("button", { name: "测试连接" }).first().click();
  await expect(page.getByText(/连接成功/)).toBeVisible();
  await snap(page, "models-list");
  await page.getByRole("button", { name: "编辑模型" }).first().click();
  await expect(page.getByPlaceholder("已保存，留空则不修改")).toBeVisible();
  await snap(page, "models-edit");
  await page.getByRole("button", { name: /取\s*消/ }).click();
});

test("chat from the marketplace: streaming, follow-up, stop, rename, delete, upload, share", async ({ page, browser, baseURL }) => {
  // A new session's row is written just after the stream starts: the page must not ask for it before.
  const runtime404: string[] = [];
  page.on("response", (r) => {
    if (r.status() === 404 && r.url().includes("/agent/agent_runtime/")) runtime404.push(r.url());
  });
  await loginAs(page, "member");
  await openChat(page, "营销文案大师");
  await snap(page, "chat-prologue");

  // streaming reply with follow-up questions
  await input(page).fill("写一句奶茶广告");
  await input(page).press("Enter");
  await expect(lastBot(page)).toContainText("你好！你的问题是：写一句奶茶广告");
  await expect(page.getByTestId("chat-suggestions")).toBeVisible();
  await expect(page.getByTestId("chat-suggestions").getByRole("button")).toHaveCount(3);
  await snap(page, "chat-reply");

  // a follow-up question sends itself
  await page.getByTestId("chat-suggestions").getByRole("button").first().click();
  await expect(lastBot(page)).toContainText("你好！你的问题是：能再详细解释一下吗？");
  // Sending waits while a reply is pending: its follow-up questions come last.
  await expect(lastBot(page).getByTestId("chat-suggestions")).toBeVisible();

  // a tool call through the registry
  await input(page).fill("请计算 (3+4)*6");
  await input(page).press("Enter");
  await expect(lastBot(page)).toContainText("调用工具：计算器");
  await expect(lastBot(page)).toContainText('"result":42');
  expect(runtime404).toEqual([]);

  // stop mid-reply
  await input(page).fill("讲一个 long 故事");
  await input(page).press("Enter");
  await expect(lastBot(page)).toContainText("第5段");
  await page.locator(".ant-sender [class*='loading-button']").click();
  await expect(lastBot(page).getByTestId("chat-progress")).toContainText("对话已终止");
  const partial = await lastBot(page).textContent();
  await page.waitForTimeout(800);
  expect(await lastBot(page).textContent()).toBe(partial);
  await snap(page, "chat-stopped");

  // upload: a wrong type is refused, a text file goes along with the question
  const fileInput = page.locator(".ant-sender input[type=file]");
  await fileInput.setInputFiles({ name: "run.exe", mimeType: "application/octet-stream", buffer: Buffer.from("MZ") });
  await expect(page.getByText("请上传 image、word、excel、pdf、audio、zip 等类型文件")).toBeVisible();
  await fileInput.setInputFiles({ name: "需求.txt", mimeType: "text/plain", buffer: Buffer.from("需求：夏季新品推广，预算 5 万") });
  await expect(page.getByTestId("chat-pending-files")).toContainText("需求.txt");
  await expect(page.getByTestId("chat-pending-files").locator(".anticon-loading")).toHaveCount(0);
  await input(page).fill("根据附件写文案");
  await input(page).press("Enter");
  await expect(page.getByTestId("msg-user").last()).toContainText("需求.txt");
  await expect(lastBot(page)).toContainText("根据附件写文案");
  await snap(page, "chat-upload");

  // share link, opened in a fresh context by another user
  await page.getByRole("button", { name: "分享" }).first().click();
  const link = page.getByTestId("share-link");
  await expect(link).not.toHaveValue("");
  const url = await link.inputValue();
  expect(url).toContain("/share-page#/?id=");
  await snap(page, "chat-share-popover");
  await page.keyboard.press("Escape");

  const fresh = await browser.newContext({ baseURL, locale: "zh-CN" });
  const visitor = await fresh.newPage();
  await visitor.goto(url);
  await expect(visitor).toHaveURL(/\/login\?redirect=/);
  await visitor.getByPlaceholder("用户名 / 邮箱 / 手机号").fill("free");
  await visitor.getByPlaceholder("密码").fill("demo1234");
  await visitor.getByRole("button", { name: "登 录" }).click();
  await expect(visitor.getByTestId("share-view")).toBeVisible();
  await expect(visitor.getByTestId("msg-user").first()).toContainText("写一句奶茶广告");
  await expect(visitor.locator(".ant-sender")).toHaveCount(0);
  await expect(visitor.getByRole("button", { name: "重试" })).toHaveCount(0);
  await expect(visitor.getByRole("button", { name: "分享" })).toHaveCount(0);
  await snap(visitor, "share-page");
  await fresh.close();

  // agent details
  await page.getByRole("button", { name: "智能体详情" }).click();
  await expect(page.locator(".ant-drawer").getByText("计算器", { exact: true })).toBeVisible();
  await page.waitForTimeout(400);
  await snap(page, "chat-agent-details");
  await page.locator(".ant-drawer-close").click();

  // rename (rules) and delete the session
  const session = page.getByTestId("session-list").locator(".ant-conversations-item").first();
  await session.hover();
  await session.locator(".ant-conversations-menu-icon, [class*='menu-icon']").first().click();
  await page.getByRole("menuitem", { name: "重命名" }).click();
  const title = page.locator(".ant-modal input");
  await title.fill("一二三四五六七八九十一二三四五六");
  await page
    .locator(".ant-modal")
    .getByRole("button", { name: /确\s*定|OK/ })
    .click();
  await expect(page.getByText("输入内容不能超过15个字符")).toBeVisible();
  await title.fill("奶茶文案");
  await page
    .locator(".ant-modal")
    .getByRole("button", { name: /确\s*定|OK/ })
    .click();
  await expect(page.getByText("修改成功")).toBeVisible();
  await expect(page.getByTestId("session-list")).toContainText("奶茶文案");
  await snap(page, "chat-renamed");
  const renamed = page.getByTestId("session-list").locator(".ant-conversations-item", { hasText: "奶茶文案" });
  await renamed.hover();
  await renamed.locator(".ant-conversations-menu-icon, [class*='menu-icon']").first().click();
  await page.getByRole("menuitem", { name: "删除" }).click();
  await clickUntilClosed(page.locator(".ant-modal-confirm"), /确\s*定|OK/);
  await expect(page.getByText("删除成功")).toBeVisible();
  await expect(page.getByTestId("session-list")).not.toContainText("奶茶文案");
});

test("the studio debug pane chats with the draft and unlocks release", async ({ page }) => {
  // The administrator, not member: agents.spec counts member's own agents while this runs in parallel.
  await loginAs(page, "admin");
  await page.goto("/studio");
  await page.getByTestId("studio-create").click();
  // A new agent is created on its first save; until then the pane asks for it.
  const pane = page.getByTestId("studio-debug-pane");
  await expect(pane.getByTestId("studio-save-to-debug")).toBeVisible();
  await page.getByTestId("studio-save").click();
  await expect(pane.getByTestId("studio-debug-needed")).toBeVisible();
  await pane.locator(".ant-sender textarea").fill("调试一下");
  await pane.locator(".ant-sender textarea").press("Enter");
  await expect(pane.getByTestId("msg-bot").last()).toContainText("你好！你的问题是：调试一下");
  await expect(pane.getByTestId("studio-debug-needed")).toHaveCount(0);
  await snap(page, "studio-debug");
});
