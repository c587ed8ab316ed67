import { expect, test } from "@playwright/test";
import { apiToken, loginAs, snap } from "./helpers";

/**
 * A design bound to an agent (issue 12): the owner picks a saved design in the studio as the
 * agent's reply card; every reply shows it in render mode, fed by the reply's result data (the
 * echoing test model answers with the JSON it was sent), and its last button sends into the chat.
 */
// Replies come from the shared platform's default model (the run's test model server).
test.describe.configure({ mode: "serial" });

const hex = () => crypto.randomUUID().replace(/-/g, "");

test("an agent's design shows in its replies, fed by the reply's result, and its last button sends into the chat", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const auth = { authorization: `Bearer ${await apiToken(request, "member")}` };
  const suffix = Date.now().toString(36);
  const designName = `e2e回复表单${suffix}`;
  const created = await request.post("/aiagent_api/designer", {
    headers: auth,
    data: {
      name: designName,
      widgetList: [
        { type: "input", id: hex(), options: { name: "input-1", key: "name", label: "出行人", useVar: "traveller.name", value: "" } },
        {
          type: "select",
          id: hex(),
          options: {
            name: "select-1",
            key: "city",
            label: "目的地",
            useVar: "traveller.city",
            value: "",
            optionItems: [
              { label: "北京", value: "北京" },
              { label: "上海", value: "上海" },
            ],
          },
        },
        { type: "button", id: hex(), options: { name: "button-1", key: "send", label: "生成报告", type: "primary", value: "" } },
      ],
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const designId = (await created.json()).data.id as string;

  await loginAs(page, "member");
  await page.goto("/studio?new=1");
  await page.getByTestId("studio-name").fill(`表单回复${suffix}`);
  const card = page.getByTestId("studio-design-card");
  await card.scrollIntoViewIfNeeded();
  await card.getByTestId("studio-design").click();
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: designName }).first().click();
  await expect(card).toContainText(designName);
  await snap(page, "studio-design-zh");
  await page.getByTestId("studio-save").click();
  await expect(page.getByText("已保存").first()).toBeVisible();
  const agentId = await page.evaluate(() => sessionStorage.getItem("studioAgentId"));
  const draft = (await (await request.get(`/aiagent_api/agent/draft/${agentId}`, { headers: auth })).json()).data.draft;
  expect(draft.designId).toBe(designId);

  // The debug pane: the reply carries the JSON it was sent, and the design reads it.
  const pane = page.getByTestId("studio-debug-pane");
  const input = pane.locator(".ant-sender textarea");
  await input.fill('{"traveller":{"name":"李雷","city":"上海"}}');
  await input.press("Enter");
  await expect(pane.getByTestId("msg-user")).toHaveCount(1);
  // This reply stays the first one: later replies come after it.
  const bot = pane.getByTestId("msg-bot").last();
  await expect(bot.getByTestId("chat-widget-design")).toBeVisible({ timeout: 30_000 });
  const first = (await pane.getByTestId("msg-bot").count()) - 1;
  const design = pane.getByTestId("msg-bot").nth(first).getByTestId("chat-widget-design");
  await expect(design.locator("input").first()).toHaveValue("李雷");
  await expect(design).toContainText("上海");
  await expect(pane.locator(".ant-sender [class*='loading-button']")).toHaveCount(0, { timeout: 30_000 });
  await snap(page, "studio-design-reply-zh");

  // The last button sends its default text and the form's key:value pairs into the chat, once.
  const button = design.getByRole("button", { name: /生成报告/ });
  await button.click();
  await expect(pane.getByTestId("msg-user").last()).toContainText("帮我使用这些参数生成报告：", { timeout: 20_000 });
  await expect(pane.getByTestId("msg-user").last()).toContainText("name:李雷");
  await expect(pane.getByTestId("msg-user").last()).toContainText("city:上海");
  await expect(button).toBeDisabled();
  // Every reply shows the design, the next one too.
  await expect(
    pane
      .getByTestId("msg-bot")
      .nth(first + 1)
      .getByTestId("chat-widget-design"),
  ).toBeVisible({ timeout: 30_000 });

  await page.evaluate(() => localStorage.setItem("lang", "en"));
  await page.reload();
  await expect(page.getByTestId("studio-design-card")).toContainText("Reply card");
  await page.getByTestId("studio-design-card").scrollIntoViewIfNeeded();
  await snap(page, "studio-design-en");
  await page.evaluate(() => localStorage.setItem("lang", "zh"));
});
