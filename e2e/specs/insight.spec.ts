import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import JSZip from "jszip";
import { loginAs, snap } from "./helpers";

/**
 * Report agents (issue 14): the demo's report agent on /insight, a question answered with insight
 * steps by the local test model (plan, guarded SQL over the demo orders table, findings), and the
 * report opened in a new tab with its charts; the seeded report in English.
 */

const input = (page: Page) => page.locator(".ant-sender textarea");

test("ask the report agent, watch the steps, open the report", async ({ page, context }) => {
  test.setTimeout(90_000);
  await loginAs(page, "member");
  await page.goto("/insight");
  const card = page.getByTestId("insight-agent-card").filter({ hasText: "销售数据分析师" });
  await expect(card).toBeVisible();
  await expect(page.getByTestId("insight-report-item").first()).toContainText("订单数据概览");
  await snap(page, "insight-zh");

  await card.getByRole("button", { name: /提\s*问/ }).click();
  await expect(page.getByTestId("chat-view")).toBeVisible();
  await input(page).fill(`各客户的消费额是多少？${Date.now().toString(36)}`);
  await input(page).press("Enter");
  const progress = page.getByTestId("insight-progress").last();
  await expect(progress.getByTestId("insight-step").first()).toContainText("理解问题，规划分析步骤");
  const open = progress.getByTestId("open-report");
  await expect(open).toBeVisible({ timeout: 40_000 });
  await expect(progress).toContainText("执行查询");
  await expect(progress).toContainText("王五");
  await snap(page, "insight-chat-zh");

  const [tab] = await Promise.all([context.waitForEvent("page"), open.click()]);
  await expect(tab).toHaveURL(/insight-report\?projectId=.*type=10/);
  await expect(tab.getByTestId("report-chart").first().locator("canvas")).toBeVisible();
  await expect(tab.getByTestId("report-view")).toContainText("分析结论");
  // The seeded report and this one (a retry's first try may have added another).
  await expect.poll(() => tab.getByTestId("agent-report-item").count()).toBeGreaterThanOrEqual(2);
  await snap(tab, "insight-report-zh");

  await tab.evaluate(() => localStorage.setItem("lang", "en"));
  await tab.getByTestId("agent-report-item").filter({ hasText: "订单数据概览" }).click();
  await tab.reload();
  await expect(tab.getByTestId("report-export")).toContainText("Export");
  await expect(tab.getByTestId("report-chart").first().locator("canvas")).toBeVisible();
  await snap(tab, "insight-report-en");
  await page.evaluate(() => localStorage.setItem("lang", "en"));
  await page.goto("/insight");
  await expect(page.getByText("My report agents")).toBeVisible();
  await expect.poll(() => page.getByTestId("insight-report-item").count()).toBeGreaterThanOrEqual(2);
  await snap(page, "insight-en");
  await page.evaluate(() => localStorage.setItem("lang", "zh"));
});

/** A downloaded file of the report page's export menu, read back from disk. */
async function exportAs(tab: Page, label: RegExp) {
  await tab.getByTestId("report-export").hover();
  const [download] = await Promise.all([tab.waitForEvent("download"), tab.getByRole("menuitem", { name: label }).click()]);
  return { name: download.suggestedFilename(), body: await readFile(await download.path()) };
}

test("a reopened session keeps the report's steps; the report exports as Word, slides and PDF", async ({ page, context }) => {
  test.setTimeout(90_000);
  await loginAs(page, "member");
  await page.goto("/insight");
  await page
    .getByTestId("insight-agent-card")
    .filter({ hasText: "销售数据分析师" })
    .getByRole("button", { name: /提\s*问/ })
    .click();
  // Short enough to be the whole session title.
  const question = `客户花费${Date.now().toString(36).slice(-5)}？`;
  await input(page).fill(question);
  await input(page).press("Enter");
  await expect(page.getByTestId("insight-progress").last().getByTestId("open-report")).toBeVisible({ timeout: 40_000 });

  // Reopened from the session list after a reload: the steps come with the stored reply.
  await page.reload();
  await page.getByTestId("session-list").locator(".ant-conversations-item", { hasText: question }).click();
  const progress = page.getByTestId("insight-progress").last();
  await expect(progress).toContainText("执行查询");
  await expect(progress).toContainText("王五");
  await expect(progress.getByTestId("open-report")).toBeVisible();
  await snap(page, "insight-reopened-zh");

  const [tab] = await Promise.all([context.waitForEvent("page"), progress.getByTestId("open-report").click()]);
  await expect(tab.getByTestId("report-view")).toContainText("分析结论");
  await tab.getByTestId("report-export").hover();
  await expect(tab.getByRole("menuitem", { name: /Word/ })).toBeVisible();
  await snap(tab, "insight-export-menu-zh");
  const docx = await exportAs(tab, /Word/);
  expect(docx.name).toMatch(/\.docx$/);
  const doc = await (await JSZip.loadAsync(docx.body)).file("word/document.xml")?.async("string");
  expect(doc).toContain("分析结论");
  expect(doc).toContain("王五");
  const pptx = await exportAs(tab, /PPT/);
  const deck = await JSZip.loadAsync(pptx.body);
  expect(Object.keys(deck.files).filter((f) => /^ppt\/charts\/chart\d+\.xml$/.test(f)).length).toBeGreaterThan(0);
  const pdf = await exportAs(tab, /PDF/);
  expect(pdf.body.subarray(0, 5).toString()).toBe("%PDF-");

  // The report builder: retitle, move the chart first and draw it as a pie; saved on the server.
  const title = `客户看板${Date.now().toString(36).slice(-5)}`;
  await tab.getByTestId("report-edit").click();
  const editor = tab.getByTestId("report-editor");
  await editor.getByTestId("report-title-input").fill(title);
  const chart = editor.getByTestId("report-editor-block").nth(1);
  await chart.getByTestId("block-title-input").fill("客户消费额");
  await chart.getByTestId("block-view").getByText("饼图").click();
  await chart.getByTestId("block-up").click();
  await snap(tab, "insight-builder-zh");
  await tab.getByTestId("report-save").click();
  await expect(tab.getByTestId("report-title")).toHaveText(title);
  const view = tab.getByTestId("report-view");
  await expect(view.locator(".ant-card-head-title").first()).toHaveText("客户消费额");
  await expect(view.getByTestId("report-chart").first()).toHaveAttribute("data-chart-type", "pie");
  await expect(tab.getByTestId("agent-report-item").filter({ hasText: title })).toBeVisible();
  // Against the latest data: the layout stays, and the page says it refreshed.
  await tab.getByTestId("report-refresh").click();
  await expect(tab.getByText("已按最新数据刷新")).toBeVisible();
  await expect(view.locator(".ant-card-head-title").first()).toHaveText("客户消费额");
  await snap(tab, "insight-builder-saved-zh");
  await tab.reload();
  await expect(tab.getByTestId("report-title")).toHaveText(title);
  await expect(tab.getByTestId("report-view").getByTestId("report-chart").first()).toHaveAttribute("data-chart-type", "pie");

  await tab.evaluate(() => localStorage.setItem("lang", "en"));
  await tab.reload();
  await tab.getByTestId("report-edit").click();
  await expect(tab.getByTestId("report-editor").getByText("Pie").first()).toBeVisible();
  await snap(tab, "insight-builder-en");
  await tab.getByRole("button", { name: "Cancel" }).click();
  await tab.getByTestId("report-export").hover();
  await expect(tab.getByRole("menuitem", { name: "Export as slides (.pptx)" })).toBeVisible();
  await snap(tab, "insight-export-menu-en");
  await tab.evaluate(() => localStorage.setItem("lang", "zh"));
});

test("chat insight: the owner turns it on in the studio and reads the conversation's analysis on /insight", async ({ page }) => {
  test.setTimeout(90_000);
  await loginAs(page, "member");
  const name = `洞察助手${Date.now().toString(36)}`;
  await page.goto("/studio?new=1");
  await page.getByTestId("studio-name").fill(name);
  const card = page.getByTestId("studio-chat-insight-card");
  await card.getByTestId("studio-chat-insight").click();
  await card.getByText("主题").click();
  await card.getByText("情绪").click();
  await card.scrollIntoViewIfNeeded();
  await snap(page, "studio-chat-insight-zh");
  await page.getByTestId("studio-save").click();
  await expect(page.getByText("已保存").first()).toBeVisible();

  const pane = page.getByTestId("studio-debug-pane");
  await pane.locator(".ant-sender textarea").fill("怎么退货？我对物流很不满意");
  await pane.locator(".ant-sender textarea").press("Enter");
  await expect(pane.getByTestId("msg-bot").last()).toContainText("你好！", { timeout: 30_000 });

  await page.goto("/insight");
  const panel = page.getByTestId("chat-insight-panel");
  await panel.getByTestId("chat-insight-agent").click();
  await page.locator(".ant-select-dropdown").getByText(name).click();
  const item = panel.getByTestId("chat-insight-item").first();
  await expect(item).toContainText("用户询问了：怎么退货？", { timeout: 30_000 });
  await expect(item.getByTestId("chat-insight-sentiment")).toContainText("消极");
  await panel.scrollIntoViewIfNeeded();
  await snap(page, "insight-chat-insight-zh");

  await page.evaluate(() => localStorage.setItem("lang", "en"));
  await page.reload();
  await panel.getByTestId("chat-insight-agent").click();
  await page.locator(".ant-select-dropdown").getByText(name).click();
  await expect(panel.getByTestId("chat-insight-item").first().getByTestId("chat-insight-sentiment")).toContainText("Negative");
  await expect(panel).toContainText("only the agent's owner reads the results");
  await snap(page, "insight-chat-insight-en");
  await page.evaluate(() => localStorage.setItem("lang", "zh"));
});

test("report templates: hire ChatWord on /insight, ask, download its Word report; the demo's chat insight", async ({ page }) => {
  test.setTimeout(90_000);
  await loginAs(page, "member");
  await page.goto("/insight");
  const templates = page.getByTestId("insight-templates");
  // Each template shows its special category (doc 1 §9) as a tag.
  for (const [name, category] of [
    ["ChatBI 问数", "chatBi"],
    ["对话仪表盘", "chat dashboard"],
    ["ChatWord 报告", "chatWord"],
    ["ChatPPT 演示", "chatPPT"],
    ["行业报告生成", "industry report"],
  ])
    await expect(templates.getByTestId("market-card").filter({ hasText: name }).getByTestId("insight-category")).toHaveText(category);
  await snap(page, "insight-templates-zh");

  await templates
    .getByTestId("market-card")
    .filter({ hasText: "ChatWord 报告" })
    .getByRole("button", { name: /立即雇佣/ })
    .click();
  await expect(page.getByTestId("chat-view")).toBeVisible();
  await input(page).fill(`写一份订单数据分析报告${Date.now().toString(36)}`);
  await input(page).press("Enter");
  const progress = page.getByTestId("insight-progress").last();
  const download = progress.getByTestId("download-report");
  await expect(download).toBeVisible({ timeout: 40_000 });
  await expect(progress).toContainText("Word 报告已生成，可下载");
  await expect(progress.getByTestId("open-report")).toBeVisible();
  await snap(page, "insight-chatword-zh");
  const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
  expect(file.suggestedFilename()).toMatch(/\.docx$/);
  const doc = await (await JSZip.loadAsync(await readFile(await file.path()))).file("word/document.xml")?.async("string");
  expect(doc).toContain("分析结论");

  // The demo's after-sales agent comes with one analysed conversation.
  await page.goto("/insight");
  const panel = page.getByTestId("chat-insight-panel");
  // Found by name: the owner's older agents are past the list's first page.
  await panel.getByTestId("chat-insight-agent").click();
  await page.keyboard.type("售后客服");
  await page.locator(".ant-select-dropdown").getByText("售后客服助手").click();
  const item = panel.getByTestId("chat-insight-item").filter({ hasText: "你们的退货政策是什么" });
  await expect(item).toBeVisible();
  await expect(item.getByTestId("chat-insight-sentiment")).toContainText("消极");

  await page.evaluate(() => localStorage.setItem("lang", "en"));
  await page.reload();
  await expect(page.getByText("Report templates")).toBeVisible();
  await expect(templates.getByTestId("market-card").filter({ hasText: "ChatPPT 演示" })).toBeVisible();
  await snap(page, "insight-templates-en");
  await page.evaluate(() => localStorage.setItem("lang", "zh"));
});

test("the administrator, who listed every report template, is told they are theirs", async ({ page }) => {
  await loginAs(page, "admin");
  await page.goto("/insight");
  await expect(page.getByText("广场上的报告模板都是你发布的，它们在下方你的报告智能体中")).toBeVisible();
  await snap(page, "insight-admin-templates");
});
