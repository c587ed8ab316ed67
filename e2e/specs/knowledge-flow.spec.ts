import { expect, type Page, test } from "@playwright/test";
import { apiToken, chooseLanguage, loginAs, snap } from "./helpers";

/**
 * A knowledge base's page in depth (issue 9): folders (create, rename, move a file in and out, delete),
 * a PDF printed by Chromium uploaded into a folder, previewed and ADJUSTED before commit (edit, merge,
 * delete: what the list shows is what gets stored), its states to "knowledge created", the segment
 * browser (hand-edited marker, add, delete), Q&A pairs (CSV import that needs a CSV, add, edit, delete),
 * the retrieval test with scores; then the base bound to an agent whose chat cites it.
 */
const suffix = Date.now().toString(36);
const BASE = `保修手册-${suffix}`;
const HTML = `<html><body style="font-family: sans-serif">
<h1>产品保修手册</h1>
<p>整机保修两年，电池保修一年。保修期内非人为损坏可免费维修，维修周期一般为五个工作日。</p>
<h2>退货政策</h2>
<p>自收到商品之日起七天内，顾客可以申请无理由退货，商品需保持完好，退货运费由顾客承担。</p>
<h2>发票说明</h2>
<p>下单时可以选择开具电子发票，发票会在发货后发送到预留的电子邮箱，也可以在订单详情页下载。</p>
<h2>售后网点</h2>
<p>全国共有三百个售后网点，可在官方网站查询离您最近的网点地址和营业时间。</p>
</body></html>`;

test.describe.configure({ mode: "serial" });

let baseId = "";

const dialog = (page: Page, title: string | RegExp) => page.getByRole("dialog").filter({ hasText: title });
const ok = (page: Page, title: string | RegExp) =>
  dialog(page, title)
    .getByRole("button", { name: /确\s*定|OK/ })
    .click();
const segmentCount = async (page: Page) =>
  Number((await page.getByTestId("adjust-list").locator(".ant-list-header").textContent())?.match(/\d+/)?.[0]);

test("folders, a PDF adjusted before commit, its states, segments, Q&A pairs and the retrieval test", async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(180_000);
  const auth = { authorization: `Bearer ${await apiToken(request, "member")}` };
  baseId = (await (await request.post("/wendao_api/wendao/knowledge", { headers: auth, data: { name: BASE } })).json()).data.id;

  // A PDF with Chinese text, printed by Chromium.
  const printer = await browser.newPage();
  await printer.setContent(HTML);
  const pdf = await printer.pdf({ format: "A5" });
  await printer.close();

  await loginAs(page, "member");
  await page.goto(`/knowledge-list?id=${baseId}`);
  await expect(page.getByTestId("knowledge-title")).toHaveText(BASE);

  // Folders: the name must not be empty nor contain a slash.
  await page.getByTestId("folder-create").click();
  await ok(page, "新建文件夹");
  await expect(page.getByText("文件夹名称不能为空，且不能包含斜杠")).toBeVisible();
  await page.getByTestId("folder-name").fill("制度/文件");
  await ok(page, "新建文件夹");
  await expect(page.getByText("文件夹名称不能为空，且不能包含斜杠")).toBeVisible();
  await page.getByTestId("folder-name").fill("售后文件");
  await ok(page, "新建文件夹");
  await expect(page.getByText("创建成功！")).toBeVisible();
  const folder = page.getByTestId("folders-panel").getByRole("menuitem", { name: /售后文件/ });
  await folder.click();
  await page.getByTestId("folder-rename").click();
  await page.getByTestId("folder-name").fill("售后");
  await ok(page, "重命名文件夹");
  await expect(page.getByTestId("folders-panel").getByRole("menuitem", { name: /售后\s*0/ })).toBeVisible();

  // Upload the PDF into the selected folder; step 2 previews, step 3 adjusts.
  await page.getByTestId("open-wizard").click();
  await page
    .getByRole("dialog")
    .locator('input[type="file"]')
    .setInputFiles({ name: "保修手册.pdf", mimeType: "application/pdf", buffer: pdf });
  await expect(page.getByText("已上传 1 个文件")).toBeVisible();
  await page.getByTestId("wizard-next").click();
  await page.getByTestId("chunk-size").fill("48");
  await page.getByTestId("wizard-next").click();
  await expect(page.getByTestId("adjust-segment").first()).toBeVisible({ timeout: 30_000 });
  const before = await segmentCount(page);
  expect(before).toBeGreaterThanOrEqual(3);
  // Edit the first segment: it is marked edited.
  await page.getByTestId("adjust-segment").first().getByTestId("adjust-edit").click();
  await page.getByTestId("adjust-text").fill("整机保修两年，电池保修一年（已人工核对）。");
  await ok(page, "编辑分段");
  await expect(page.getByTestId("adjust-segment").first()).toContainText("已人工核对");
  await expect(page.getByTestId("adjust-segment").first().getByTestId("adjust-edited")).toBeVisible();
  // Merge the second with the third, delete the last.
  const third = (await page.getByTestId("adjust-segment").nth(2).locator("div.ant-typography").textContent()) ?? "";
  await page.getByTestId("adjust-segment").nth(1).getByTestId("adjust-merge").click();
  await expect.poll(() => segmentCount(page)).toBe(before - 1);
  await expect(page.getByTestId("adjust-segment").nth(1)).toContainText(third.slice(0, 8));
  await page.getByTestId("adjust-segment").last().getByTestId("adjust-delete").click();
  await expect.poll(() => segmentCount(page)).toBe(before - 2);
  const approved = await page.getByTestId("adjust-segment").allInnerTexts();
  await snap(page, "knowledge-adjust-zh");
  await page.getByTestId("wizard-next").click();
  await page.getByTestId("wizard-finish").click();
  await expect(page.getByTestId("wizard-finish-step")).toContainText("提交成功！");
  await page.getByTestId("wizard-close").click();

  // The file is in the folder; its state moves on to "knowledge created" with the approved number of segments.
  const file = page.getByTestId("file-row").filter({ hasText: "保修手册.pdf" });
  await expect(file.getByTestId("file-state")).toHaveText(/排队中|上传完成|向量处理中|向量处理完成|知识已创建/);
  await expect(file).toHaveAttribute("data-state", "DONE", { timeout: 60_000 });
  await expect(file.getByTestId("file-state")).toHaveText("知识已创建");
  await expect(file).toHaveAttribute("data-progress", "100");
  await expect(file.locator("td").nth(5)).toHaveText(String(before - 2));
  await snap(page, "knowledge-folders-zh");

  // The segment browser holds exactly what was approved; the edit is marked; add and delete segments.
  await file.getByTestId("file-browse").click();
  const items = page.getByTestId("segment-item");
  await expect(items).toHaveCount(before - 2);
  await expect(items.first()).toContainText("已人工核对");
  await expect(items.first().getByTestId("segment-edited")).toBeVisible();
  expect((await items.allInnerTexts()).map((t) => t.includes("已人工核对"))).toEqual(approved.map((t) => t.includes("已人工核对")));
  await page.getByTestId("segment-add").click();
  await page.getByRole("dialog").filter({ hasText: "添加分段" }).getByRole("textbox").fill("客服热线：400-800-1234，工作日九点到十八点。");
  await ok(page, "添加分段");
  await expect(items).toHaveCount(before - 1);
  await expect(items.last()).toContainText("客服热线");
  await expect(items.last().getByTestId("segment-edited")).toBeVisible();
  await expect(page.locator(".ant-modal-wrap:visible")).toHaveCount(0);
  await snap(page, "knowledge-segments-browser-zh", 500);
  await items.nth(1).getByTestId("segment-delete").click();
  await page
    .locator(".ant-popconfirm")
    .getByRole("button", { name: /确\s*定/ })
    .click();
  await expect(items).toHaveCount(before - 2);
  await page.locator(".ant-drawer-close").click();

  // Move the file out of the folder, then delete the folder.
  await page.getByTestId("file-move").click();
  await page.getByRole("menuitem", { name: "最外层（不在文件夹中）" }).click();
  await expect(page.getByText("移动成功！")).toBeVisible();
  await expect(page.getByTestId("file-row")).toHaveCount(0);
  await page.getByTestId("folder-delete").click();
  await page
    .locator(".ant-popconfirm")
    .getByRole("button", { name: /确\s*定/ })
    .click();
  await expect(page.getByTestId("folders-panel")).not.toContainText("售后");
  await expect(page.getByTestId("file-row")).toHaveCount(1);

  // Q&A pairs: the CSV import needs a CSV; then add, edit and delete a pair.
  await page.getByRole("tab", { name: "问答对" }).click();
  await expect(page.getByTestId("qa-panel")).toContainText("暂无问答对");
  await page.getByTestId("qa-import").click();
  await ok(page, "导入 CSV");
  await expect(page.getByTestId("qa-csv-required")).toHaveText("必须选择CSV文件");
  await page
    .getByRole("dialog")
    .locator('input[type="file"]')
    .setInputFiles({
      name: "faq.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("问题,答案\n怎么申请退货？,在订单详情页点击申请退货。\n发票多久送达？,发货后一天内发送到邮箱。\n"),
    });
  await ok(page, "导入 CSV");
  await expect(page.getByText("已导入 2 条问答对")).toBeVisible();
  await expect(page.getByTestId("qa-row")).toHaveCount(2);
  await page.getByTestId("qa-add").click();
  await page.getByTestId("qa-question").fill("保修期多久？");
  await ok(page, "添加问答对");
  await expect(page.getByText("问题和答案不能为空").first()).toBeVisible();
  await page.getByTestId("qa-answer").fill("整机两年，电池一年。");
  await ok(page, "添加问答对");
  await expect(page.getByTestId("qa-row")).toHaveCount(3);
  await page.getByTestId("qa-row").filter({ hasText: "保修期多久？" }).getByTestId("qa-edit").click();
  await page.getByTestId("qa-answer").fill("整机保修两年，电池保修一年。");
  await ok(page, "编辑问答对");
  await expect(page.getByTestId("qa-row").filter({ hasText: "保修期多久？" })).toContainText("电池保修一年");
  await expect(page.locator(".ant-modal-wrap:visible")).toHaveCount(0);
  await snap(page, "knowledge-qa-zh");
  await page.getByTestId("qa-row").filter({ hasText: "发票多久送达？" }).getByTestId("qa-delete").click();
  await page
    .locator(".ant-popconfirm")
    .getByRole("button", { name: /确\s*定/ })
    .click();
  await expect(page.getByTestId("qa-row")).toHaveCount(2);

  // Retrieval test: hits with keyword, vector and fused scores; the edited PDF segment is found.
  await page.getByRole("tab", { name: "检索测试" }).click();
  await page.getByTestId("retrieval-query").fill("电池保修多久");
  await page.getByTestId("retrieval-run").click();
  const hits = page.getByTestId("retrieval-hit");
  await expect(hits.first()).toBeVisible();
  await expect(page.getByTestId("retrieval-hits")).toContainText("已人工核对");
  await expect(hits.first()).toContainText("关键词得分");
  await expect(hits.first().getByTestId("hit-score")).toContainText(/综合得分 [01]\.\d{3}/);
  await snap(page, "knowledge-retrieval-zh");

  // The same screens in English.
  await chooseLanguage(page, "English");
  await page.getByRole("tab", { name: "Q&A pairs" }).click();
  await expect(page.getByTestId("qa-panel")).toContainText("Question");
  await snap(page, "knowledge-qa-en");
  await page.getByTestId("qa-import").click();
  await ok(page, "Import CSV");
  await expect(page.getByTestId("qa-csv-required")).toHaveText("a CSV file must be chosen");
  await snap(page, "knowledge-qa-import-en");
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("tab", { name: "Files" }).click();
  await page.getByTestId("folder-create").click();
  await page.getByTestId("folder-name").fill("a/b");
  await ok(page, "New folder");
  await expect(page.getByText("the folder name must not be empty or contain a slash")).toBeVisible();
  await snap(page, "knowledge-folders-en");
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await page.getByTestId("file-row").getByTestId("file-browse").click();
  await expect(page.getByTestId("segment-item").first().getByTestId("segment-edited")).toHaveText("Edited");
  // The picture only: let the drawer finish sliding in.
  await snap(page, "knowledge-segments-browser-en", 500);
  await page.locator(".ant-drawer-close").click();
  // The adjustment step in English, on a small text file.
  await page.getByTestId("open-wizard").click();
  await page
    .getByRole("dialog")
    .locator('input[type="file"]')
    .setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from(
        [
          "Warranty: the device is covered for two years and the battery for one year, repairs are free of charge.",
          "Returns: within seven days of delivery any product may be returned without a reason, shipping paid by the buyer.",
          "Invoices: an electronic invoice is sent by e-mail after shipping and can be downloaded from the order page.",
        ].join("\n\n"),
      ),
    });
  await expect(page.getByText("1 file uploaded")).toBeVisible();
  await page.getByTestId("wizard-next").click();
  await page.getByTestId("chunk-size").fill("32");
  await page.getByTestId("wizard-next").click();
  await page.getByTestId("adjust-segment").first().getByTestId("adjust-merge").click();
  await expect(page.getByTestId("adjust-segment").first().getByTestId("adjust-edited")).toHaveText("Edited");
  await snap(page, "knowledge-adjust-en");
  await page.keyboard.press("Escape");
  await chooseLanguage(page, "中文");
});

test("the knowledge base bound to an agent: the chat's answer cites its passages", async ({ page }) => {
  test.setTimeout(120_000);
  expect(baseId).not.toBe("");
  await loginAs(page, "member");
  await page.goto("/studio?new=1");
  await page.getByTestId("studio-name").fill(`保修助手${suffix}`);
  await page.getByTestId("studio-knowledge-bases").click();
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: BASE }).first().click();
  await page.keyboard.press("Escape");
  await page.getByTestId("studio-save").click();
  await expect(page.getByText("已保存").first()).toBeVisible();

  // The local test model calls the retrieval tool; the passages stream as docs and are cited.
  const pane = page.getByTestId("studio-debug-pane");
  await pane.locator(".ant-sender textarea").fill('请调用 knowledge_search {"query":"电池保修多久"}');
  await pane.locator(".ant-sender textarea").press("Enter");
  const bot = pane.getByTestId("msg-bot").last();
  await expect(bot.locator(".chat-docs")).toBeVisible({ timeout: 30_000 });
  await expect(bot.locator(".chat-docs")).toContainText("[1]");
  await expect(bot).toContainText("电池保修一年", { timeout: 30_000 });
  await snap(page, "knowledge-chat-citations-zh");
});
