import { expect, type Page, test } from "@playwright/test";
import { apiToken, clickUntilClosed, loginAs, openMarketAgent, registerTestModel, removeTestModels, snap, unique } from "./helpers";

/**
 * Chat flow against the real platform: the shared default LLM on the local OpenAI-compatible test
 * model (see playwright.config.ts); Model management shows a model of this spec's own.
 */
const MODEL = `本地测试模型-${unique()}`;

test.describe.configure({ mode: "serial" });

test.afterAll(async ({ request }) => {
  await removeTestModels(request, MODEL);
});

const input = (page: Page) => page.locator(".ant-sender textarea");
const lastBot = (page: Page) => page.getByTestId("msg-bot").last();

async function openChat(page: Page, name: string) {
  await openMarketAgent(page, name);
  await expect(page.getByTestId("chat-view")).toBeVisible();
}

/** Asks once the previous reply has ended (sending waits while a reply, follow-ups included, is pending). */
async function ask(page: Page, text: string) {
  await expect(page.locator(".ant-sender [class*='loading-button']")).toHaveCount(0, { timeout: 20_000 });
  await input(page).fill(text);
  await input(page).press("Enter");
}

/** A screenshot of the same page in English, then back to Chinese. */
async function enSnap(page: Page, name: string) {
  await page.evaluate(() => localStorage.setItem("lang", "en"));
  await page.reload();
  await page.waitForLoadState("networkidle");
  await snap(page, name);
  await page.evaluate(() => localStorage.setItem("lang", "zh"));
  await page.reload();
}

const sessionItem = (page: Page, title: string) => page.getByTestId("session-list").locator(".ant-conversations-item", { hasText: title });

test("administrator configures the model in Model management", async ({ page, request }) => {
  await registerTestModel(request, MODEL);
  await loginAs(page, "admin");
  await page.goto("/models");
  const row = page.getByRole("row", { name: new RegExp(MODEL) });
  await expect(row).toBeVisible();
  await row.getByRole("button", { name: "测试连接" }).click();
  await expect(page.getByText(/连接成功/)).toBeVisible();
  await snap(page, "models-list");
  await row.getByRole("button", { name: "编辑模型" }).click();
  await expect(page.getByPlaceholder("已保存，留空则不修改")).toBeVisible();
  await snap(page, "models-edit");
  await page.getByRole("button", { name: /取\s*消/ }).click();
});

test("chat from the marketplace: streaming, follow-up, stop, rename, delete, upload, share", async ({ page, browser, baseURL }) => {
  // About 45 s alone; on a loaded machine past the 60 s default.
  test.setTimeout(120_000);
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
  // Sending waits while a reply is pending (its follow-up questions come last).
  await expect(page.locator(".ant-sender [class*='loading-button']")).toHaveCount(0);

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
  await enSnap(visitor, "share-page-en");
  // The share view leads into the product.
  await visitor.getByTestId("share-to-market").click();
  await expect(visitor).toHaveURL(/\/index/);
  await fresh.close();
  // Opening the popover again shows the same link (the live token is reused).
  await page.getByRole("button", { name: "分享" }).first().click();
  await expect(link).toHaveValue(url);
  await page.keyboard.press("Escape");

  // agent details
  await page.getByRole("button", { name: "智能体详情" }).click();
  await expect(page.locator(".ant-drawer").getByText("计算器", { exact: true })).toBeVisible();
  await snap(page, "chat-agent-details", 400);
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

test("switching sessions while a reply streams: the view, the highlight and the send target stay one session", async ({
  page,
  request,
}) => {
  // Titles unique per run: a retry of this serial file runs on the same platform.
  const tag = Math.random().toString(36).slice(2, 5);
  const coffeeQ = `写一句咖啡广告${tag}`;
  const storyQ = `讲一个 long 故事吧${tag}`;
  await loginAs(page, "member");
  await openChat(page, "营销文案大师");
  await ask(page, coffeeQ);
  await expect(lastBot(page)).toContainText(`你好！你的问题是：${coffeeQ}`);
  await expect(page.getByTestId("chat-suggestions")).toBeVisible();

  // A new session streams a long reply, and is listed at once.
  await page.getByRole("button", { name: "新建对话" }).click();
  await ask(page, storyQ);
  await expect(lastBot(page)).toContainText("第3段");
  await expect(sessionItem(page, storyQ)).toBeVisible();
  await expect(lastBot(page).getByTestId("chat-progress")).toContainText("生成结果中");

  // Back to the first session while it streams: that session is on screen and gets the next question.
  await sessionItem(page, coffeeQ).click();
  await expect(sessionItem(page, coffeeQ)).toHaveClass(/active/);
  await expect(page.getByTestId("chat-view")).toContainText(coffeeQ);
  await expect(page.getByTestId("chat-view")).not.toContainText("第3段");
  await ask(page, "再来一句");
  await expect(lastBot(page)).toContainText("你好！你的问题是：再来一句");
  await expect(page.getByTestId("msg-user")).toHaveCount(2);

  // The story still arrives in its own session.
  await sessionItem(page, storyQ).click();
  await expect(page.getByTestId("chat-view")).toContainText("第");
  await expect(page.getByTestId("chat-view")).not.toContainText("再来一句");

  const token = await apiToken(request, "member");
  const list = (
    await (
      await request.get("/agent/agent_runtime/session_list?page_number=1&page_size=100", { headers: { authorization: `Bearer ${token}` } })
    ).json()
  ).data.list as { session_id: string; title: string }[];
  const coffee = list.find((s) => s.title === coffeeQ);
  const detail = (
    await (
      await request.get(`/agent/agent_runtime/session/${coffee?.session_id}`, { headers: { authorization: `Bearer ${token}` } })
    ).json()
  ).data;
  expect(detail.messages.map((m: { content: string }) => m.content)).toContain("再来一句");
});

test("reply stages, a failure with retry in the page's language, the tool-round limit, a file alone", async ({ page }) => {
  await loginAs(page, "member");
  await openChat(page, "营销文案大师");
  // A title of its own, so a retry of this test does not find the first try's session too.
  const first = `慢慢查 现在几点 ${Date.now() % 100000}`;

  // Each stage the reply reaches is named, from the first moment.
  await ask(page, first);
  const progress = lastBot(page).getByTestId("chat-progress");
  await expect(progress).toContainText("思考中");
  await snap(page, "chat-stage-thinking");
  await expect(progress).toContainText("搜索信息中");
  await snap(page, "chat-stage-searching");
  await expect(progress).toContainText("分析中");
  await expect(progress).toContainText("生成结果中");
  await expect(lastBot(page)).toContainText("告诉你了");

  // A failed reply says so, in words, and offers a retry; the same from history, and in English.
  // The test model fails a question the first time it sees it: unique per try, as it lives for the run.
  const failing = `失败一次的问题 ${unique()}`;
  await ask(page, failing);
  await expect(progress).toContainText("回复失败");
  await expect(progress).not.toContainText("生成结果中");
  await expect(lastBot(page).getByRole("alert")).toContainText("模型服务暂时无法连接，请稍后重试");
  await expect(lastBot(page)).not.toContainText("10.1.2.3");
  await snap(page, "chat-failed");
  await page.reload();
  await sessionItem(page, first).click();
  await expect(lastBot(page).getByTestId("chat-progress")).toContainText("回复失败");
  await page.evaluate(() => localStorage.setItem("lang", "en"));
  await page.reload();
  await sessionItem(page, first).click();
  await expect(lastBot(page).getByRole("alert")).toContainText("The model service cannot be reached right now");
  await expect(lastBot(page).getByTestId("chat-progress")).toContainText("Reply failed");
  await snap(page, "chat-failed-en");
  await page.evaluate(() => localStorage.setItem("lang", "zh"));
  await page.reload();
  await sessionItem(page, first).click();
  await lastBot(page)
    .getByRole("alert")
    .getByRole("button", { name: /重\s*试/ })
    .click();
  await expect(lastBot(page)).toContainText(`你好！你的问题是：${failing}`);
  await expect(lastBot(page).getByRole("alert")).toHaveCount(0);

  // The tool rounds run out: the reply says so.
  await ask(page, "一直算 1+1");
  await expect(lastBot(page).getByRole("alert")).toContainText("已达到工具调用次数上限", { timeout: 20_000 });

  // A file can be sent without text.
  const fileInput = page.locator(".ant-sender input[type=file]");
  await fileInput.setInputFiles({ name: "附件.txt", mimeType: "text/plain", buffer: Buffer.from("只有附件") });
  await expect(page.getByTestId("chat-pending-files").locator(".anticon-loading")).toHaveCount(0);
  await expect(page.locator(".ant-sender [class*='loading-button']")).toHaveCount(0);
  await input(page).press("Enter");
  await expect(page.getByTestId("msg-user").last()).toContainText("附件.txt");
  await expect(lastBot(page).getByTestId("chat-progress")).toContainText(/深度反思完成|生成结果中/);
});

test("back from a chat opened first, clear and rename confirmations, HTML and diagrams in replies", async ({ page, context }) => {
  const errors: string[] = [];
  await loginAs(page, "member");
  await openChat(page, "营销文案大师");
  const chatUrl = page.url().replace(/&source=\d/, "&source=0");

  // Opened as the first page of a tab: back stays in the product.
  const first = await context.newPage();
  first.on("pageerror", (e) => errors.push(e.message));
  await first.goto(chatUrl);
  await expect(first.getByTestId("chat-view")).toBeVisible();
  await first.getByRole("button", { name: "返回" }).click();
  await expect(first).toHaveURL(/\/index/);
  await first.goto(chatUrl.replace("&source=0", "&source=1"));
  await first.getByRole("button", { name: "返回" }).click();
  await expect(first).toHaveURL(/\/home/);

  await first.goto(chatUrl);
  await ask(first, '前 <b>粗体</b> 后 <svg><script>alert(1)</script></svg>\n```mermaid\ngraph TD\nA["<img src=x>"] --> B\n```');
  const reply = first.getByTestId("msg-bot").last();
  await expect(reply.locator("b")).toHaveText("粗体");
  await expect(reply).not.toContainText("alert(1)");
  await expect(reply).not.toContainText("<b>");
  await expect(reply.locator(".chat-mermaid svg")).toBeVisible();
  await expect(reply.locator(".chat-mermaid img")).toHaveCount(0);
  await snap(first, "chat-html");

  // An invalid rename is shown under the field, nothing is thrown.
  const session = first.getByTestId("session-list").locator(".ant-conversations-item").first();
  await session.hover();
  await session.locator(".ant-conversations-menu-icon, [class*='menu-icon']").first().click();
  await first.getByRole("menuitem", { name: "重命名" }).click();
  await first.locator(".ant-modal input").fill("   ");
  await first
    .locator(".ant-modal")
    .getByRole("button", { name: /确\s*定|OK/ })
    .click();
  await expect(first.getByText("名称不能为空")).toBeVisible();
  await first
    .locator(".ant-modal")
    .getByRole("button", { name: /取\s*消|Cancel/ })
    .click();

  // Clearing the history asks first.
  await first.getByRole("button", { name: "清空历史" }).click();
  await expect(first.getByText("确定清空当前对话的历史记录吗？")).toBeVisible();
  await first
    .locator(".ant-popconfirm")
    .getByRole("button", { name: /确\s*定|OK/ })
    .click();
  await expect(first.getByText("已清空")).toBeVisible();
  await expect(first.getByTestId("msg-bot")).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("a priced agent shows its price and asks once before the first charged send", async ({ page }) => {
  await loginAs(page, "member");
  await openChat(page, "保险条款解读");
  await expect(page.getByTestId("price-per-use")).toHaveText("¥9.90/次");
  await ask(page, "等待期是多久");
  const dialog = page.locator(".ant-modal-confirm");
  await expect(dialog).toContainText("本次对话将扣费");
  await expect(dialog).toContainText("¥9.90");
  await snap(page, "chat-charge-confirm");
  await clickUntilClosed(dialog, /取\s*消|Cancel/);
  await expect(page.getByTestId("msg-user")).toHaveCount(0);
  await expect(input(page)).toHaveValue("等待期是多久");
  await input(page).press("Enter");
  await clickUntilClosed(dialog, /确认发送/);
  await expect(lastBot(page)).toContainText("你好！你的问题是：等待期是多久");
  await expect(page.getByTestId("chat-suggestions")).toBeVisible();
  // Within the charging period the next question goes without asking.
  await ask(page, "免责条款有哪些");
  await expect(lastBot(page)).toContainText("你好！你的问题是：免责条款有哪些");
  await expect(dialog).toHaveCount(0);
  await enSnap(page, "chat-price-en");
  await snap(page, "chat-price");
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

test("sessions past the first 100 load as the list scrolls, and the search finds them by title", async ({ page, request }) => {
  test.setTimeout(180_000);
  await loginAs(page, "member");
  await openChat(page, "政务办事指南");
  const schema_id = new URL(page.url()).searchParams.get("id");
  const token = await apiToken(request, "member");
  const ask = (n: number) =>
    request.post("/agent/agent_runtime/chat", { data: { token, schema_id, release: true, query: `办事咨询${n}号` } }).then((r) => {
      expect(r.status()).toBe(200);
      return r.text();
    });
  // The five oldest are asked one by one first: in a parallel batch any of them could end last.
  for (let n = 1; n <= 5; n++) await ask(n);
  for (let n = 6; n <= 105; n += 20) await Promise.all(Array.from({ length: 20 }, (_, i) => ask(n + i)));

  await page.reload();
  const items = page.getByTestId("session-list").locator(".ant-conversations-item");
  await expect(items).toHaveCount(100);
  await expect(page.getByTestId("session-list")).not.toContainText("办事咨询1号");
  await page.getByTestId("session-scroll").evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(items).toHaveCount(105);
  await expect(page.getByTestId("session-list")).toContainText("办事咨询1号");

  await page.getByTestId("session-search").locator("input").fill("咨询7号");
  await page.getByTestId("session-search").locator("input").press("Enter");
  await expect(items).toHaveCount(1);
  await items.first().click();
  await expect(page.getByTestId("msg-user")).toContainText("办事咨询7号");
  await snap(page, "chat-session-search");
  // Clearing the search shows the whole list again, as far as it was loaded.
  await page.getByTestId("session-search").locator("input").fill("");
  await expect(items).toHaveCount(105);
});
