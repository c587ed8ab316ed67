import { expect, test } from "@playwright/test";
import { apiToken, loginAs, snap } from "./helpers";

/**
 * Rules and data tables (issue 13): a data table made and filled by import (with the rejected-rows
 * report), a rule written in the editor with completion, tested, saved and saved as, an expression
 * generated from the remark by the local test model, and the rule bound in the studio and evaluated
 * in the debug chat.
 */
const suffix = Date.now().toString(36);
const ruleKey = `spend_discount_${suffix}`;

test.describe.configure({ mode: "serial" });

test("create a data table, import rows and see the rejected ones", async ({ page }) => {
  test.setTimeout(90_000);
  const name = `e2e_orders_${suffix}`;
  await loginAs(page, "member");
  await page.goto("/datatables");
  await page.getByTestId("datatable-create").click();
  const dialog = page.locator(".ant-modal:visible");
  await dialog.getByTestId("datatable-name").fill(name);
  await dialog.getByTestId("field-name").first().fill("customer");
  await dialog.getByTestId("field-label").first().fill("客户");
  await dialog.getByTestId("field-add").click();
  await dialog.getByTestId("field-name").nth(1).fill("amount");
  await dialog.getByTestId("field-label").nth(1).fill("金额");
  await dialog.getByTestId("field-type").nth(1).click();
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: "数字" }).click();
  await snap(page, "datatables-create-zh");
  await dialog.getByTestId("datatable-save").click();
  await expect(page.getByText("保存成功").first()).toBeVisible();

  const rows = page.getByTestId("datatable-rows");
  await expect(rows).toContainText(name);
  await rows.locator("input[type=file]").setInputFiles({
    name: "orders.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("客户,金额\n张三,1200\n李四,abc\n王五,300\n"),
  });
  const report = page.getByTestId("import-result");
  await expect(report).toContainText("成功导入 2 行");
  await expect(report).toContainText("拒绝 1 行");
  await expect(report).toContainText("“abc”不是有效的数字");
  await snap(page, "datatables-import-zh", 500);
  await page.keyboard.press("Escape");
  await expect(rows).toContainText("张三");

  // The read-only SQL box over the tenant's tables.
  await page.getByTestId("query-sql").fill(`SELECT sum(amount) AS total FROM ${name}`);
  await page.getByTestId("query-run").click();
  await expect(page.getByText("1500").first()).toBeVisible();
  await page.getByTestId("query-sql").fill(`DELETE FROM ${name}`);
  await page.getByTestId("query-run").click();
  await expect(page.getByText("只允许执行一条只读的 SELECT 查询").first()).toBeVisible();
  await snap(page, "datatables-zh");

  await page.evaluate(() => localStorage.setItem("lang", "en"));
  await page.reload();
  await page.getByText(name).first().click();
  await expect(page.getByTestId("datatable-rows")).toContainText("Import xlsx / csv");
  await snap(page, "datatables-en");
  await page.evaluate(() => localStorage.setItem("lang", "zh"));
});

test("write a rule with completion, test it, save as, generate an expression, bind it and see it in chat", async ({ page, request }) => {
  test.setTimeout(150_000);
  const project = `e2e规则项目${suffix}`;
  await loginAs(page, "member");
  await page.goto("/rules");
  await page.getByTestId("rule-new-project").click();
  await page.getByTestId("name-input").fill(project);
  await page.getByTestId("name-save").click();
  await page.getByTestId("rule-tree").getByText(project).click();
  await page.getByTestId("rule-new").click();

  const dialog = page.locator(".ant-modal:visible");
  await expect(dialog).toContainText("新增规则");
  await dialog.getByTestId("rule-name").fill("消费折扣");
  await dialog.getByTestId("rule-key").fill(ruleKey);
  await dialog.getByTestId("rule-description").fill("按消费金额计算折后价");
  await dialog.getByTestId("param-name").first().fill("amount");
  await dialog.getByTestId("param-description").first().fill("消费金额");

  // Completion from the function list, syntax errors inline.
  const editor = dialog.getByTestId("rule-expression");
  await editor.click();
  await editor.pressSequentially("ROU");
  await expect(page.getByTestId("formula-suggestions")).toContainText("ROUNDUP");
  await editor.press("Enter");
  await expect(editor).toHaveValue("ROUND(");
  await expect(dialog.getByTestId("formula-error")).toContainText("表达式不完整");
  await editor.pressSequentially("amou");
  await editor.press("Enter");
  await editor.pressSequentially(" * IF(amount >= 1000, 0.8, 1), 2)");
  await expect(editor).toHaveValue("ROUND(amount * IF(amount >= 1000, 0.8, 1), 2)");
  await expect(dialog.getByTestId("formula-error")).toHaveCount(0);

  await dialog.getByTestId("test-value-amount").fill("1500");
  await dialog.getByTestId("rule-test").click();
  await expect(page.getByText("测试成功").first()).toBeVisible();
  await expect(dialog.getByTestId("rule-test-result")).toContainText("1200");
  await page.screenshot({ path: ".tmp/screens/rules-dialog-full-zh.png" });
  await snap(page, "rules-dialog-zh");

  await dialog.getByTestId("rule-save").click();
  await expect(page.getByText("保存成功").first()).toBeVisible();
  await expect(dialog).toContainText("编辑规则");
  await expect(dialog.getByTestId("rule-expression-cn")).toContainText("四舍五入");

  // Save as: the copy suffix, no id and no key until a new one is entered.
  await dialog.getByTestId("rule-save-as").click();
  await expect(dialog.getByTestId("rule-name")).toHaveValue("消费折扣-副本");
  await expect(dialog.getByTestId("rule-key")).toHaveValue("");
  await expect(dialog).toContainText("新增规则");
  await dialog.getByTestId("rule-key").fill(`${ruleKey}_copy`);

  // AI expression from the remark, then a remark edit marks it stale.
  await dialog.getByTestId("rule-remark").fill("消费满1000为VIP，否则为普通");
  await dialog.getByTestId("rule-ai-expression").click();
  await expect(editor).toHaveValue('IF(amount >= 1000, "VIP", "普通")', { timeout: 20_000 });
  await expect(dialog.getByTestId("rule-stale")).toHaveCount(0);
  await dialog.getByTestId("rule-remark").fill("消费满2000为VIP");
  await expect(dialog.getByTestId("rule-stale")).toBeVisible();
  await dialog.getByTestId("rule-save").click();
  await expect(page.getByText("请先生成规则").first()).toBeVisible();
  await dialog.getByTestId("rule-ai-expression").click();
  await expect(dialog.getByTestId("rule-stale")).toHaveCount(0);
  await dialog.getByTestId("rule-save").click();
  await expect(page.getByText("保存成功").first()).toBeVisible();
  await snap(page, "rules-dialog-ai-zh");
  await page.keyboard.press("Escape");

  const tree = page.getByTestId("rule-tree");
  await expect(tree).toContainText("消费折扣-副本");
  await tree.getByText("消费折扣", { exact: true }).click();
  await expect(page.getByTestId("rule-detail-expression")).toHaveText("ROUND(amount * IF(amount >= 1000, 0.8, 1), 2)");
  await page.getByTestId("rule-public").click();
  await expect(page.getByTestId("rule-public")).toHaveClass(/ant-switch-checked/);
  await snap(page, "rules-zh");

  await page.evaluate(() => localStorage.setItem("lang", "en"));
  await page.reload();
  await page.getByTestId("rule-tree").getByText("消费折扣", { exact: true }).click();
  await page.getByTestId("rule-edit").click();
  await expect(page.locator(".ant-modal:visible")).toContainText("Edit rule");
  await snap(page, "rules-dialog-en");
  await page.keyboard.press("Escape");
  await snap(page, "rules-en");
  await page.evaluate(() => localStorage.setItem("lang", "zh"));

  // Bind the rule in the studio and see the model evaluate it in the debug chat.
  await page.goto("/studio?new=1");
  await page.getByTestId("studio-name").fill(`规则助手${suffix}`);
  const card = page.getByTestId("studio-rules-card");
  await card.scrollIntoViewIfNeeded();
  const picker = card.getByTestId("studio-rules");
  // The tree loads while the dropdown opens: pick again until the choice shows in the field.
  await expect(async () => {
    if (!(await picker.textContent())?.includes(`(${ruleKey})`)) {
      await picker.click();
      await page
        .locator(".ant-select-dropdown:visible .ant-select-tree-title", { hasText: `消费折扣 (${ruleKey})` })
        .click({ timeout: 3000 });
    }
    await expect(picker).toContainText(`消费折扣 (${ruleKey})`, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await page.keyboard.press("Escape");
  await snap(page, "rules-studio-zh");
  await page.getByTestId("studio-save").click();
  await expect(page.getByText("已保存").first()).toBeVisible();
  const agentId = await page.evaluate(() => sessionStorage.getItem("studioAgentId"));
  const auth = { authorization: `Bearer ${await apiToken(request, "member")}` };
  const draft = (await (await request.get(`/aiagent_api/agent/draft/${agentId}`, { headers: auth })).json()).data.draft;
  expect(draft.bindings.rules).toHaveLength(1);

  const pane = page.getByTestId("studio-debug-pane");
  const input = pane.locator(".ant-sender textarea");
  await input.fill(`请调用 evaluate_rule {"ruleKey":"${ruleKey}","inputs":{"amount":1500}}`);
  await input.press("Enter");
  const bot = pane.getByTestId("msg-bot").last();
  await expect(bot.locator(".chat-tool-calls")).toContainText("规则引擎", { timeout: 30_000 });
  await expect(bot).toContainText('"value":1200', { timeout: 30_000 });
  await snap(page, "rules-chat-zh");
});

test("configure a rule from the chat (fast config): the reply asks, the confirmation saves it", async ({ page }) => {
  test.setTimeout(90_000);
  const key = `chat_vip_${suffix}`;
  await loginAs(page, "member");
  await page.goto("/studio?new=1");
  await page.getByTestId("studio-name").fill(`快速配置${suffix}`);
  const fast = page.getByTestId("studio-fast-config-rule");
  await fast.scrollIntoViewIfNeeded();
  await fast.click();
  await expect(fast).toHaveClass(/ant-switch-checked/);
  await page.getByTestId("studio-save").click();
  await expect(page.getByText("已保存").first()).toBeVisible();

  const pane = page.getByTestId("studio-debug-pane");
  const input = pane.locator(".ant-sender textarea");
  await input.fill(`配置一条规则 ${key}：消费满1000为VIP，否则为普通`);
  await input.press("Enter");
  const asked = pane.getByTestId("msg-bot").last();
  await expect(asked.locator(".chat-tool-calls")).toContainText("规则配置", { timeout: 30_000 });
  await expect(asked).toContainText(`将创建规则「对话规则${key}」（${key}）`, { timeout: 30_000 });
  await expect(asked).toContainText('IF(amount >= 1000, "VIP", "普通")');
  await expect(asked).toContainText("请回复“确认”保存规则");
  await snap(page, "rules-fast-config-ask-zh");

  await input.fill("确认");
  await input.press("Enter");
  const saved = pane.getByTestId("msg-bot").last();
  await expect(saved.locator(".chat-tool-calls")).toContainText("规则配置确认", { timeout: 30_000 });
  await expect(saved).toContainText('"saved":true', { timeout: 30_000 });
  await snap(page, "rules-fast-config-saved-zh");

  await page.goto("/rules");
  const search = page.locator('input[data-testid="rule-search"], [data-testid="rule-search"] input').first();
  await search.fill(key);
  await search.press("Enter");
  const tree = page.getByTestId("rule-tree");
  await expect(tree).toContainText("对话配置的规则");
  await tree.getByText(`对话规则${key}`).click();
  await expect(page.getByTestId("rule-detail-expression")).toHaveText('IF(amount >= 1000, "VIP", "普通")');
});
