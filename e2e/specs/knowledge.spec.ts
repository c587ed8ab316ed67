import { expect, type Page, test } from "@playwright/test";
import { apiToken, chooseLanguage, loginAs, snap } from "./helpers";

/**
 * Knowledge bases end to end (doc 2 §2, §4, §5, §8): the /home tab creates and finds a base,
 * a double-click opens /knowledge-list, the upload wizard uploads a markdown file, previews and
 * commits its segments, the file's state reaches "knowledge created", the segment browser and
 * the retrieval test find it, and the base is deleted from the tab. Screens in zh and en.
 */
const BASE = `产品手册-${Date.now().toString(36)}`;
const DOC = [
  "# 退货政策",
  "",
  "自收到商品之日起七天内，顾客可以申请无理由退货，运费由顾客承担。",
  "",
  "## 保修说明",
  "",
  "整机保修两年，电池保修一年。保修期内非人为损坏可免费维修。",
].join("\n");

test.describe.configure({ mode: "serial" });

const row = (page: Page, name: string) => page.getByTestId("knowledge-table").locator("tr", { hasText: name });

test("a knowledge base: create, upload with the wizard, watch it process, retrieval test, delete", async ({ page }) => {
  test.setTimeout(120_000);
  await loginAs(page, "member");
  await page.goto("/home?types=2");
  await expect(page.getByRole("tab", { name: "我的知识库" })).toHaveAttribute("aria-selected", "true");

  // The name is required ('please enter a name').
  await page.getByTestId("create-knowledge").click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /确\s*定/ })
    .click();
  await expect(page.getByText("请输入名称").last()).toBeVisible();
  // The embedding model: empty takes the default one.
  await expect(page.getByTestId("knowledge-form")).toContainText("向量模型");
  await snap(page, "knowledge-modal-zh");
  await page.getByTestId("knowledge-name").fill(BASE);
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /确\s*定/ })
    .click();
  await expect(page.getByText("创建成功！")).toBeVisible();
  await expect(row(page, BASE)).toContainText("文件上传");
  await expect(row(page, BASE)).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);

  // Name search narrows the table.
  await page.getByPlaceholder("请输入知识库名称").fill("没有这个知识库");
  await page.getByPlaceholder("请输入知识库名称").press("Enter");
  await expect(row(page, BASE)).toHaveCount(0);
  await page.getByPlaceholder("请输入知识库名称").fill(BASE);
  await page.getByPlaceholder("请输入知识库名称").press("Enter");
  await expect(row(page, BASE)).toHaveCount(1);
  await snap(page, "knowledge-tab-zh");

  // Double-click opens the base.
  await row(page, BASE).dblclick();
  await expect(page).toHaveURL(/\/knowledge-list\?id=/);
  await expect(page.getByTestId("knowledge-title")).toHaveText(BASE);
  // The plan's knowledge space (PER_FLAGSHIP_MONTHLY: 10240 MB) and what the member keeps in all bases.
  await expect(page.getByTestId("knowledge-space")).toHaveText(/^知识库空间：已用 [\d.]+ (B|KB|MB) \/ 10\.0 GB$/);
  await snap(page, "knowledge-files-zh");

  // Wizard step 1: upload.
  await page.getByTestId("open-wizard").click();
  await page
    .getByRole("dialog")
    .locator('input[type="file"]')
    .setInputFiles({ name: "售后政策.md", mimeType: "text/markdown", buffer: Buffer.from(DOC) });
  await expect(page.getByText("已上传 1 个文件")).toBeVisible();
  await snap(page, "knowledge-wizard-1-zh");
  await page.getByTestId("wizard-next").click();

  // Step 2: segmentation and cleaning, with the eleven methods and the preview.
  await page.getByLabel("分段方式").click();
  for (const name of ["通用", "问答", "简历", "手册", "扫描手册", "表格", "论文", "书籍", "法律法规", "演示文稿（PPT）", "全文"]) {
    await expect(page.locator(".ant-select-item-option", { hasText: name }).first()).toBeAttached();
  }
  await page.locator(".ant-select-item-option", { hasText: "书籍" }).click();
  await page.getByTestId("preview-segments").click();
  await expect(page.getByTestId("preview-segment").first()).toBeVisible();
  await expect(page.getByTestId("preview-list")).toContainText("七天内");
  await snap(page, "knowledge-wizard-2-zh");
  await page.getByTestId("wizard-next").click();

  // Step 3: segment adjustment shows what will be stored; step 4 commits.
  await expect(page.getByTestId("wizard-adjust").getByTestId("adjust-segment").first()).toBeVisible();
  await snap(page, "knowledge-wizard-3-zh");
  await page.getByTestId("wizard-next").click();
  await page.getByTestId("wizard-finish").click();
  await expect(page.getByTestId("wizard-finish-step")).toContainText("提交成功！");
  await snap(page, "knowledge-wizard-4-zh");
  await page.getByTestId("wizard-close").click();

  // The file's state moves to "knowledge created" with a full progress bar.
  const file = page.getByTestId("file-row").filter({ hasText: "售后政策.md" });
  await expect(file).toHaveAttribute("data-state", "DONE", { timeout: 60_000 });
  await expect(file.getByTestId("file-state")).toHaveText("知识已创建");
  await expect(file).toHaveAttribute("data-progress", "100");

  // The segment browser lists the stored segments; disabling one is kept.
  await file.getByTestId("file-browse").click();
  await expect(page.getByTestId("segment-item").first()).toBeVisible();
  await expect(page.getByTestId("segments-list")).toContainText("七天内");
  await snap(page, "knowledge-segments-zh");
  // Hand edits are marked; a disabled segment stays disabled.
  const first = page.getByTestId("segment-item").first();
  await first.getByRole("button", { name: "编辑" }).click();
  const editor = page.getByRole("dialog").filter({ hasText: "编辑分段" });
  await editor.getByRole("textbox").fill("退货政策：七天内无理由退货（手动修订）");
  await editor.getByRole("button", { name: /确\s*定/ }).click();
  await expect(page.getByText("保存成功！")).toBeVisible();
  await expect(first).toContainText("已编辑");
  await expect(first).toContainText("手动修订");
  await first.getByTestId("segment-enabled").click();
  await expect(first.getByTestId("segment-enabled")).toHaveAttribute("aria-checked", "false");
  await page.locator(".ant-drawer-close").click();
  await expect(page.getByTestId("segments-list")).toHaveCount(0);

  // Retrieval test: the hit carries its keyword, vector and fused scores.
  await page.getByRole("tab", { name: "检索测试" }).click();
  await page.getByTestId("retrieval-query").fill("电池保修多久");
  await page.getByTestId("retrieval-run").click();
  const hit = page.getByTestId("retrieval-hit").first();
  await expect(hit).toContainText("电池保修一年");
  await expect(hit).toContainText("关键词得分");
  await expect(hit).toContainText("向量得分");
  await expect(hit.getByTestId("hit-score")).toContainText(/综合得分 0\.\d{3}|综合得分 1\.000/);
  await snap(page, "knowledge-page-zh");

  // The same screens in English.
  await chooseLanguage(page, "English");
  await page.getByTestId("retrieval-run").click();
  await expect(page.getByTestId("retrieval-hit").first()).toContainText("Keyword score");
  await expect(file.getByTestId("file-state")).toHaveText("Knowledge created");
  await snap(page, "knowledge-page-en");
  await page.getByRole("tab", { name: "Files" }).click();
  await page.getByTestId("open-wizard").click();
  await page
    .getByRole("dialog")
    .locator('input[type="file"]')
    .setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("Warranty: two years.\n\nReturns within seven days."),
    });
  await expect(page.getByText("1 file uploaded")).toBeVisible();
  await page.getByTestId("wizard-next").click();
  await page.getByTestId("preview-segments").click();
  await expect(page.getByTestId("preview-segment").first()).toBeVisible();
  await snap(page, "knowledge-wizard-2-en");
  await page.keyboard.press("Escape");
  await page.goto("/home?types=2");
  await expect(row(page, BASE)).toContainText("file upload");
  // The name opens the base too (a double-click is not the only way).
  await row(page, BASE).getByTestId("knowledge-open").click();
  await expect(page).toHaveURL(/\/knowledge-list\?id=/);
  await page.goBack();
  await page.getByTestId("create-knowledge").click();
  await page.getByRole("dialog").getByRole("button", { name: "OK" }).click();
  await expect(page.getByText("please enter a name").last()).toBeVisible();
  await snap(page, "knowledge-tab-en");
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();

  // Delete asks first ('confirm deleting this knowledge base?').
  await row(page, BASE).getByTestId("delete-knowledge").click();
  await expect(page.getByText("confirm deleting this knowledge base?")).toBeVisible();
  await page.locator(".ant-popconfirm").getByRole("button", { name: "OK" }).click();
  await expect(page.getByText("deleted successfully!")).toBeVisible();
  await expect(row(page, BASE)).toHaveCount(0);
  await chooseLanguage(page, "中文");
});

test("a file that cannot be read: the wizard's preview says why, in place", async ({ page, request }) => {
  const headers = { authorization: `Bearer ${await apiToken(request, "member")}` };
  const created = await request.post("/wendao_api/wendao/knowledge", {
    headers,
    data: { name: `${BASE}-损坏`, visibility: "private", uri: "" },
  });
  const id = (await created.json()).data.id as string;
  await loginAs(page, "member");
  await page.goto(`/knowledge-list?id=${id}`);
  await page.getByTestId("open-wizard").click();
  await page
    .getByRole("dialog")
    .locator('input[type="file"]')
    .setInputFiles({ name: "损坏的文件.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.7\n损坏的内容") });
  await expect(page.getByText("已上传 1 个文件")).toBeVisible();
  await page.getByTestId("wizard-next").click();
  await page.getByTestId("preview-segments").click();
  // The toast fades; the reason stays where the segments would be.
  await expect(page.getByTestId("preview-error")).toContainText("文件无法读取");
  await snap(page, "knowledge-wizard-preview-error-zh");
  await request.delete("/wendao_api/wendao/knowledge", { headers, data: [id] });
});

test("logged-out visitors get an empty list, not an error", async ({ request }) => {
  const res = await request.get("/wendao_api/wendao/knowledge/page?page=1&limit=10");
  expect(res.ok()).toBe(true);
  expect(await res.json()).toMatchObject({ code: 0, data: { list: [], total: 0 } });
});
