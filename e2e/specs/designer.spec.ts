import { expect, type Locator, type Page, test } from "@playwright/test";
import { chooseLanguage, loginAs, snap } from "./helpers";

/**
 * The designer (issue 12): a form is built on the canvas (a row with two columns holding an input
 * and a select, a date, a chart and a button), switched to render mode fed by a result, and its
 * last button sends the values into the chat beside it.
 */

/** Drags a palette widget onto a place of the canvas with the mouse (dnd-kit's pointer sensor). */
async function drag(page: Page, type: string, target: ReturnType<Page["locator"]>) {
  const from = await page.locator(`[data-widget-type="${type}"]`).boundingBox();
  const to = await target.boundingBox();
  if (!from || !to) throw new Error("drag: no box");
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 + 10, { steps: 3 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 12 });
  await page.mouse.up();
}

test("build a form, render it from a result and send its values into the chat", async ({ page }) => {
  test.setTimeout(90_000);
  const suffix = Date.now().toString(36);
  await loginAs(page, "member");
  await page.goto("/designer");
  await page.getByTestId("design-create").click();
  await page.getByTestId("design-create-name").fill(`e2e表单${suffix}`);
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /确\s*定|OK/ })
    .click();
  await expect(page).toHaveURL(/\/designer\?id=/);
  await expect(page.getByTestId("designer-palette").locator("[data-widget-type]")).toHaveCount(23);
  await expect(page.locator('[data-widget-type="row"]')).toHaveText("栅格");

  // A row by drag and drop; it lands with two columns.
  await drag(page, "row", page.getByTestId("designer-canvas"));
  const cols = page.getByTestId("designer-canvas").locator(".dz-col");
  await expect(cols).toHaveCount(2);
  // A double-click adds into the selected column (selected once it shows so: a click on a loaded
  // machine may land before the dropped row's own selection).
  const select = (col: Locator) =>
    expect(async () => {
      await col.click({ position: { x: 10, y: 10 } });
      await expect(col).toHaveClass(/dz-selected/, { timeout: 2000 });
    }).toPass({ timeout: 20_000 });
  await select(cols.nth(0));
  await page.locator('[data-widget-type="input"]').dblclick();
  await page.getByLabel("字段标识 key").fill("name");
  await page.getByLabel("数据路径 useVar").fill("who");
  await select(cols.nth(1));
  await page.locator('[data-widget-type="select"]').dblclick();
  await page.getByLabel("字段标识 key").fill("city");
  await expect(cols.nth(0).getByTestId("widget-input")).toHaveCount(1);
  await expect(cols.nth(1).getByTestId("widget-select")).toHaveCount(1);

  // The rest at top level: click the stage to clear the selection first.
  await page.locator(".dz-stage").click({ position: { x: 5, y: 5 } });
  for (const type of ["date", "chart", "button"]) {
    await page.locator(`[data-widget-type="${type}"]`).dblclick();
    await page.locator(".dz-stage").click({ position: { x: 5, y: 5 } });
  }
  await page.getByTestId("widget-chart").click();
  await page.getByLabel("数据路径 useVar").fill("chart");
  await page.getByTestId("widget-date").click();
  await page.getByLabel("字段标识 key").fill("day");
  await page.getByLabel("数据路径 useVar").fill("day");
  await expect(page.getByTestId("designer-layout").locator(".dz-layout-item")).toHaveText([
    "row-1 · 栅格",
    "date-1 · 日期",
    "chart-1 · 图表",
    "button-1 · 按钮",
  ]);
  await page.getByTestId("widget-date").click();
  await snap(page, "designer-editor-zh");
  await page.getByTestId("design-save").click();
  await expect(page.getByText("保存成功")).toBeVisible();

  // Render mode, fed by a result.
  await page.getByTestId("design-mode").getByText("渲染模式").click();
  const result = {
    who: `访客${suffix}`,
    day: "2026-12-01",
    chart: { xAxis: { type: "category", data: ["一", "二", "三"] }, yAxis: { type: "value" }, series: [{ type: "bar", data: [3, 5, 2] }] },
  };
  await page.getByTestId("design-sample").fill(JSON.stringify(result));
  const form = page.getByTestId("design-render");
  await expect(form.locator("input").first()).toHaveValue(`访客${suffix}`);
  await expect(form.getByTestId("designer-chart").locator("canvas")).toBeVisible();
  await form.locator(".ant-select").click();
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: "选项2" }).click();

  // No agent is chosen for the user: the button only shows the message it would send, and stays enabled.
  const chat = page.getByTestId("design-preview-chat");
  const sent = `帮我使用这些参数生成报告：name:访客${suffix},city:2,day:2026-12-01`;
  const button = form.getByTestId("designer-button");
  await button.click();
  await expect(chat.getByTestId("design-preview-would-send")).toHaveText(sent);
  await expect(chat.getByTestId("msg-user")).toHaveCount(0);
  await expect(button).toBeEnabled();
  await snap(page, "designer-render-dry-run-zh");
  // Once an agent is chosen the last button sends its text and the key:value pairs into the chat, then is disabled.
  await page.getByTestId("design-preview-agent").click();
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option").first().click();
  await expect(chat.locator("textarea")).toBeVisible();
  await button.click();
  await expect(button).toBeDisabled();
  await expect(chat.getByTestId("msg-user").getByText(sent)).toBeVisible();
  await snap(page, "designer-render-zh");

  await chooseLanguage(page, "English");
  await expect(page.getByTestId("design-mode")).toContainText("Render");
  await page.mouse.move(600, 700);
  await snap(page, "designer-render-en");
  await page.getByTestId("design-mode").getByText("Designer").click();
  await page.getByTestId("widget-chart").click();
  await snap(page, "designer-editor-en");
  await page.goto("/designer");
  await expect(page.getByText(`e2e表单${suffix}`)).toBeVisible();
  await snap(page, "designer-list-en");
  await chooseLanguage(page, "中文");
  await page.mouse.move(600, 700);
  await snap(page, "designer-list-zh");
});
