import { expect, type Page, test } from "@playwright/test";
import { apiToken, chooseLanguage, loginAs, snap } from "./helpers";

/**
 * Rich cards (issue 12): the demo travel agent's bound weather and train plugins answer with their
 * cards inside the reply (the local test model calls them with `调用 <tool> {json}`), and the card
 * editor at /cards makes a template with a live preview.
 */

test.describe.configure({ mode: "serial" });

const input = (page: Page) => page.locator(".ant-sender textarea");
const lastBot = (page: Page) => page.getByTestId("msg-bot").last();

async function ask(page: Page, text: string) {
  await expect(page.locator(".ant-sender [class*='loading-button']")).toHaveCount(0, { timeout: 20_000 });
  await input(page).fill(text);
  await input(page).press("Enter");
}

async function openTravelAgent(page: Page) {
  const res = await page.request.post("/agent_api/api/agent/page-created-by-me", {
    headers: { authorization: `Bearer ${await apiToken(page.request, "member")}` },
    data: { name: "出行小助手", page: 1, size: 10 },
  });
  const id = ((await res.json()).data.list as { id: string; agentName: string }[]).find((a) => a.agentName === "出行小助手")?.id;
  expect(id).toBeTruthy();
  await page.goto(`/agent-execute?id=${id}`);
  await expect(page.getByTestId("chat-view")).toBeVisible();
}

test("a weather tool returning a list renders the weather card in the reply; a train ticket with missing fields shows the placeholders", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await loginAs(page, "member");
  await openTravelAgent(page);

  await ask(page, '调用 weather_forecast {"city":"上海"}');
  const weather = lastBot(page).getByTestId("weather-card");
  await expect(weather).toBeVisible({ timeout: 30_000 });
  await expect(weather.getByTestId("weather-first")).toContainText("今天");
  await expect(weather.getByTestId("weather-first")).toContainText("°C");
  await expect(weather.getByTestId("weather-row")).toHaveCount(4);
  await expect(lastBot(page).getByTestId("chat-suggestions")).toBeVisible({ timeout: 30_000 });
  await snap(page, "cards-chat-weather-zh");

  // Unknown cities: the station table has no group for them, so the placeholders show; a missing seat count is 无.
  await ask(page, '调用 train_tickets {"from":"火星","to":"月球"}');
  const tickets = lastBot(page).getByTestId("train-card");
  await expect(tickets).toHaveCount(3, { timeout: 30_000 });
  await expect(tickets.first().getByTestId("train-from-city")).toHaveText("出发地");
  await expect(tickets.first().getByTestId("train-to-city")).toHaveText("目的地");
  await expect(tickets.nth(2).getByTestId("train-first")).toHaveText("无");
  await expect(tickets.first()).toContainText("火星站");
  // The card's landscape buttons send into the chat.
  await expect(lastBot(page).getByTestId("chat-suggestions")).toBeVisible({ timeout: 30_000 });
  await lastBot(page).getByTestId("button-row").getByRole("button", { name: "查询返程" }).click();
  await expect(page.getByTestId("msg-user").last()).toContainText("查询返程");
  await expect(lastBot(page)).toContainText("查询返程", { timeout: 30_000 });

  // A known route: the cities come from the station table.
  await ask(page, '调用 train_tickets {"from":"北京","to":"上海"}');
  const known = lastBot(page).getByTestId("train-card").first();
  await expect(known.getByTestId("train-from-city")).toHaveText("北京", { timeout: 30_000 });
  await expect(known.getByTestId("train-to-city")).toHaveText("上海");
  await expect(known).toContainText(/\d{2}月\d{2}日 周/);
  await expect(lastBot(page).getByTestId("chat-suggestions")).toBeVisible({ timeout: 30_000 });
  await lastBot(page).scrollIntoViewIfNeeded();
  await snap(page, "cards-chat-train-zh");

  // Several tools in one reply: every card shows, in the order they came.
  await ask(page, '调用 weather_forecast {"city":"杭州"} 调用 train_tickets {"from":"杭州","to":"北京"}');
  await expect(lastBot(page).getByTestId("chat-widget-card")).toHaveCount(2, { timeout: 30_000 });
  await expect(lastBot(page).getByTestId("weather-card")).toHaveCount(1);
  await expect(lastBot(page).getByTestId("train-card").first()).toBeVisible();
  const order = await lastBot(page)
    .getByTestId("chat-widget-card")
    .evaluateAll((els) => els.map((el) => (el.querySelector("[data-testid='weather-card']") ? "weather" : "train")));
  await expect(lastBot(page).getByTestId("chat-suggestions")).toBeVisible({ timeout: 30_000 });

  // The saved replies render the same after a reload (their cards are stored with the message).
  await page.reload();
  await page.getByText("调用 weather_fore").first().click();
  await expect(lastBot(page).getByTestId("chat-widget-card")).toHaveCount(2, { timeout: 30_000 });
  // Each card's renderer loads lazily: wait for both before reading their order.
  await expect(lastBot(page).getByTestId("weather-card")).toHaveCount(1);
  await expect(lastBot(page).getByTestId("train-card").first()).toBeVisible();
  expect(
    await lastBot(page)
      .getByTestId("chat-widget-card")
      .evaluateAll((els) => els.map((el) => (el.querySelector("[data-testid='weather-card']") ? "weather" : "train"))),
  ).toEqual(order);
  await expect(page.getByTestId("train-card").first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("weather-card").first()).toBeVisible();
  await page.evaluate(() => localStorage.setItem("lang", "en"));
  await page.reload();
  await page.getByText("调用 weather_fore").first().click();
  await expect(page.getByTestId("weather-first").first()).toContainText("Today");
  await expect(page.getByTestId("train-card").first()).toContainText("Departure");
  await snap(page, "cards-chat-en");
  await page.evaluate(() => localStorage.setItem("lang", "zh"));
});

test("the card editor makes a template with a live preview, and a plugin shows its bound card", async ({ page }) => {
  test.setTimeout(90_000);
  await loginAs(page, "member");
  await page.goto("/cards");
  const editor = page.getByTestId("cards-page");
  await expect(editor.getByTestId("card-template-item").first()).toBeVisible();
  await editor.getByTestId("card-new").click();
  const name = `e2e天气卡片${Date.now().toString(36)}`;
  await editor.getByTestId("card-name").fill(name);
  await editor.getByTestId("card-save").click();
  await expect(page.getByText("卡片编辑至少需要一个组件").first()).toBeVisible();

  await editor.locator('[data-card-type="weather-card"]').click();
  const preview = editor.getByTestId("card-preview");
  await expect(preview.getByTestId("weather-first")).toContainText("今天");
  await expect(preview.getByTestId("weather-row")).toHaveCount(3);
  // The mapping reads the preview live: min from another path is empty, so only max shows.
  await editor.getByTestId("card-field-min").fill("low");
  await expect(preview.getByTestId("weather-first")).toContainText("24°C");
  await expect(preview.getByTestId("weather-first")).not.toContainText("~");
  await editor.getByTestId("card-field-min").fill("");
  // A list card needs a list at the data path.
  await editor.getByTestId("card-data-path").fill("city");
  await expect(preview).toContainText("多卡片需要列表结构的数据源");
  await editor.getByTestId("card-data-path").fill("forecast");
  await editor.getByTestId("card-save").click();
  await expect(page.getByText("创建成功").first()).toBeVisible();
  await expect(editor.getByTestId("card-template-item").filter({ hasText: name })).toBeVisible();
  await expect(page).toHaveURL(/\/cards\?id=/);
  await snap(page, "cards-editor-zh");

  // The image-text card shows 暂无数据 in designer mode without a title.
  await editor.getByTestId("card-new").click();
  await editor.locator('[data-card-type="image-text-button"]').click();
  await editor.getByTestId("card-field-title").fill("missing");
  await expect(preview.getByTestId("image-text-card")).toContainText("暂无数据");

  await chooseLanguage(page, "English");
  await editor.locator('[data-card-type="train-tickets"]').click();
  await expect(preview.getByTestId("train-card").first()).toBeVisible();
  await snap(page, "cards-editor-en");
  await chooseLanguage(page, "中文");

  // The demo weather plugin's editor shows its bound card.
  const auth = { authorization: `Bearer ${await apiToken(page.request, "member")}` };
  const tools = await page.request.post("/aiagent_api/plugin/page", {
    headers: auth,
    data: { pluginName: "天气预报", pageNumber: 0, pageSize: 20, createdByMe: true },
  });
  const plugin = ((await tools.json()).data.content as { id: string; pluginName: string }[]).find((p) => p.pluginName === "天气预报");
  await page.goto(`/knowledge-list?id=${plugin?.id}&pluginType=JAVASCRIPT`);
  const binding = page.getByTestId("card-binding");
  await expect(binding.getByTestId("card-binding-select")).toContainText("天气预报卡片");
  await binding.getByTestId("card-binding-preview").click();
  await expect(page.getByRole("dialog").getByTestId("weather-card")).toBeVisible();
  await snap(page, "cards-plugin-binding-zh");
});
