import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { apiToken, chooseLanguage, clickUntilClosed, loginAs, registerTestModel, removeTestModels, snap, unique } from "./helpers";

/**
 * Agents end to end: marketplace, copy, my agents (rename, delete, list), the studio (create,
 * icon picker, release after a debug run, versions diff), the administrator's review, and the
 * listed agent seen by another user. The debug run goes through the real chat runtime against a
 * local OpenAI-compatible test model, added by the administrator as a model of this spec's own.
 */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAIAAAD8GO2jAAAAKUlEQVR4nO3NsQ0AAAjDsD7O7fAE3SxljrOTat07AAAAAAAAAAAAeOwAJGvwTBcm8SoAAAAASUVORK5CYII=",
  "base64",
);
/** Unique per try (a module loads again in a retry's worker): a first try's agent may be listed already. */
const NEW_AGENT = `旅行规划师${unique()}`;
/** The agent made in the studio runs on a model of this spec's own (on the shared test model server). */
const MODEL = `智能体测试模型-${unique()}`;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  await registerTestModel(request, MODEL);
});

test.afterAll(async ({ request }) => {
  await removeTestModels(request, MODEL);
});

const cards = (page: Page) => page.getByTestId("market-card");
const myCard = (page: Page, name: string) => page.getByTestId("my-agent-card").filter({ hasText: name });
const ok = /确\s*定/;

/** Opens the release dialog from the top of the page (the header's user menu must not cover the button). */
async function clickRelease(page: Page) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.mouse.move(10, 400);
  await page.getByTestId("studio-release").click();
}

/** Deletes the user's copies of marketplace agents. */
async function removeCopies(request: APIRequestContext, username: string) {
  const headers = { authorization: `Bearer ${await apiToken(request, username)}` };
  const res = await request.post("/agent_api/api/agent/page-created-by-me", { headers, data: { copyByMe: true } });
  for (const a of (await res.json()).data.list as { id: string }[]) {
    expect((await request.delete(`/agent_api/api/agent/${a.id}`, { headers })).ok()).toBe(true);
  }
}

/** One debug run of the studio's current draft through the chat runtime API (release: false). */
async function debugRun(request: APIRequestContext, username: string, agentId: string) {
  const token = await apiToken(request, username);
  const res = await request.post("/agent/agent_runtime/chat", {
    headers: { authorization: `Bearer ${token}` },
    data: { schema_id: agentId, query: "你好，请自我介绍", release: false },
  });
  expect(res.ok()).toBe(true);
  expect(await res.text()).toContain("stop");
}

test("browse and filter the marketplace", async ({ page }) => {
  await loginAs(page, "member");
  await page.goto("/index");
  // The demo's ten listed agents and the five report templates (数据分析).
  await expect(cards(page)).toHaveCount(15);
  await expect(page.getByTestId("market-total")).toHaveText("共 15 个智能体");
  await expect(page.getByText("Acme 制度问答")).toHaveCount(0);
  await expect(cards(page).first().getByTestId("task-num")).toContainText("已完成");
  await snap(page, "agents-marketplace");

  await page.getByTestId("tag-bar").getByText("保险", { exact: true }).click();
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toContainText("保险条款解读");
  await expect(cards(page).first()).toContainText("¥9.9");
  await snap(page, "agents-marketplace-tag");

  await page.getByTestId("tag-bar").getByText("分类", { exact: true }).click();
  await page.getByTestId("tag-bar").getByText("投资理财", { exact: true }).click();
  await expect(cards(page)).toHaveCount(3);
  await page.getByTestId("tag-bar").getByText("全部", { exact: true }).click();
  await page.getByPlaceholder("搜索智能体").fill("HR");
  await page.getByPlaceholder("搜索智能体").press("Enter");
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toContainText("HR招聘助手");
  await expect(cards(page).first()).toContainText("免费");
  await expect(page.getByTestId("market-total")).toHaveText("共 1 个智能体");
  // Back from an agent finds the search as it was.
  await cards(page).first().getByTestId("agent-name").click();
  await expect(page).toHaveURL(/\/agent-detail\?id=/);
  await page.goBack();
  await expect(page.getByPlaceholder("搜索智能体")).toHaveValue("HR");
  await expect(cards(page)).toHaveCount(1);
  await page.getByPlaceholder("搜索智能体").fill("没有这个智能体");
  await page.getByPlaceholder("搜索智能体").press("Enter");
  await expect(page.locator(".ant-empty-description")).toHaveText("暂无数据");
  await expect(page.getByTestId("market-total")).toHaveCount(0);
  await snap(page, "agents-marketplace-empty");
});

test("a search matched by more agents than the server counts says so, and pages reach ten", async ({ page }) => {
  await loginAs(page, "member");
  await page.goto("/index");
  // The server counts a search's matches up to 10000 (route-tested): here its answer says so for 助.
  // Routed once the page is open: a page request cut off by a navigation has no body left to read.
  await page.route("**/agent_api/api/agent/launch/page", async (route) => {
    const body = route.request().postDataJSON() as { name?: string };
    if (body.name !== "助") return route.continue();
    // The page may cancel a search it no longer needs (typing, then Enter): its answer is then gone.
    try {
      const res = await route.fetch();
      const json = await res.json();
      json.data = { ...json.data, total: 10000, totalExact: false };
      await route.fulfill({ response: res, json });
    } catch {
      // a cancelled request: the next one is routed the same way
    }
  });
  await page.getByPlaceholder("搜索智能体").fill("助");
  await page.getByPlaceholder("搜索智能体").press("Enter");
  const total = page.getByTestId("market-total");
  await expect(total).toHaveText("超过 10,000 个智能体，只列出前 990 个：搜索或选择分类可以缩小范围");
  await expect(page.locator(".ant-pagination-item-10")).toBeVisible();
  await expect(page.locator(".ant-pagination-item-11")).toHaveCount(0);
  await snap(page, "agents-marketplace-search-more");
  await chooseLanguage(page, "English");
  await expect(total).toHaveText("more than 10,000 agents; the pages list the first 990: search or pick a category to narrow it down");
  await snap(page, "agents-marketplace-search-more-en");
});

test("a tenant's users also see their own tenant's listed agents", async ({ page }) => {
  await loginAs(page, "acme", { tenant: "acme" });
  await page.goto("/acme/index");
  await expect(cards(page)).toHaveCount(16);
  await expect(page.getByText("Acme 制度问答").first()).toBeVisible();
});

test("agent detail shows what a hirer needs; start opens the execute page", async ({ page }) => {
  await loginAs(page, "member");
  await page.goto("/index");
  await cards(page).filter({ hasText: "公文写作助手" }).getByTestId("agent-name").click();
  await expect(page).toHaveURL(/\/agent-detail\?id=.+&price=0/);
  await expect(page.getByTestId("detail-name")).toHaveText("公文写作助手");
  await expect(page.getByText("帮我写一份部门季度工作总结").first()).toBeVisible();
  await expect(page.getByText("管理员").first()).toBeVisible();
  await snap(page, "agents-detail");
  await page.getByTestId("detail-start").click();
  await expect(page).toHaveURL(/\/agent-execute\?id=.+&source=0/);
});

test("copy an agent and find it in My agents; copying again asks first", async ({ page, request }) => {
  // A first try may have copied already: start from no copies (the server still remembers that
  // copy, so a retry is asked 'copied before' at once).
  await removeCopies(request, "member");
  await loginAs(page, "member");
  await page.goto("/index");
  await cards(page).filter({ hasText: "公文写作助手" }).getByTestId("copy-agent").click();
  await expect(page.locator(".ant-modal-confirm-title")).toHaveText(
    test.info().retry === 0 ? "确认复制此智能体" : /确认复制此智能体|已经复制过，确认再次复制？/,
  );
  await snap(page, "agents-copy-confirm");
  await page.getByRole("button", { name: ok }).click();
  await expect(page.getByText("复制成功！").first()).toBeVisible();
  await expect(page).toHaveURL(/\/home/);
  await expect(myCard(page, "公文写作助手")).toHaveCount(1);
  await expect(myCard(page, "公文写作助手")).toContainText("复制");
  await snap(page, "agents-home-after-copy");

  await page.goto("/index");
  await cards(page).filter({ hasText: "公文写作助手" }).getByTestId("copy-agent").click();
  await expect(page.locator(".ant-modal-confirm-title")).toHaveText("已经复制过，确认再次复制？");
  await snap(page, "agents-copy-again");
  await page.getByRole("button", { name: /取\s*消/ }).click();

  await page.goto("/home");
  await page.getByTestId("filter-source").click();
  await page.getByTitle("我复制的").click();
  await expect(page.getByTestId("my-agent-card")).toHaveCount(1);
});

test("rename with blank and too-long names, then delete", async ({ page }) => {
  await loginAs(page, "member");
  await page.goto("/home");
  const card = myCard(page, "公文写作助手");
  await card.hover();
  await card.getByTestId("agent-more").hover();
  await page.getByRole("menuitem", { name: "重命名" }).click();
  const name = page.getByTestId("intro-name");
  await name.fill("   ");
  await page.getByRole("button", { name: ok }).click();
  await expect(page.getByText("名称不能为空").first()).toBeVisible();
  await name.fill("一二三四五六七八九十一二三四五六");
  await page.getByRole("button", { name: ok }).click();
  await expect(page.getByText("输入内容不能超过15个字符").first()).toBeVisible();
  await snap(page, "agents-rename-too-long");
  await name.fill("我的公文助手");
  await page.getByRole("button", { name: ok }).click();
  await expect(myCard(page, "我的公文助手")).toHaveCount(1);

  await myCard(page, "我的公文助手").getByTestId("delete-agent").click();
  await expect(page.locator(".ant-popconfirm-title")).toHaveText("确认删除");
  await page.getByRole("button", { name: ok }).click();
  await expect(page.getByText("删除成功").first()).toBeVisible();
  await expect(myCard(page, "我的公文助手")).toHaveCount(0);
  // The member owns other demo agents (the knowledge demo's): an empty search shows the empty state.
  const search = page.getByPlaceholder("搜索智能体");
  await search.fill("我的公文助手");
  await search.press("Enter");
  await expect(page.getByText("去智能体广场添加智能体").first()).toBeVisible();
});

test("create in the studio, release after a debug run, compare versions, submit for listing", async ({ page, request }) => {
  test.setTimeout(180_000);
  // A failed form validation (or anything else) must not throw an uncaught error or rejection.
  const pageErrors: string[] = [];
  page.on("pageerror", (err) => pageErrors.push(err.message));
  await loginAs(page, "member");
  await page.goto("/home");
  await page.getByTestId("create-agent").click();
  await expect(page).toHaveURL(/\/studio\?new=1/);
  // Nothing is created before the first save; the debug pane asks for it.
  expect(await page.evaluate(() => sessionStorage.getItem("studioAgentId"))).toBeNull();
  await expect(page.getByTestId("studio-save-to-debug").first()).toBeVisible();

  await page.getByTestId("studio-name").fill(NEW_AGENT);
  await page.getByTestId("studio-description").fill("按预算和天数规划国内自由行路线与每日行程。");
  await page
    .getByTestId("studio-persona")
    .fill("你是一名资深旅行规划师，熟悉国内热门城市的交通、住宿和美食，按用户的预算和天数给出每日行程。");
  await page.getByTestId("studio-prologue").fill("你好，我是旅行规划师。告诉我出发地、目的地、天数和预算吧。");
  await page.getByRole("button", { name: "添加问题" }).click();
  await page.getByPlaceholder("用户可一键发送的问题").fill("成都三日游怎么安排？");
  await page.getByTestId("add-variable").click();
  await page.getByTestId("add-variable").click();
  await page.getByTestId("variable-name").nth(0).fill("city");
  await page.getByTestId("variable-name").nth(1).fill("city");
  await page.getByTestId("studio-save").click();
  await expect(page.getByText("变量名重复").first()).toBeVisible();
  await page.getByTestId("variable-name").nth(1).fill("budget");
  await expect(page.getByText("变量名重复")).toHaveCount(0);
  // Leaving with unsaved changes asks first; cancelling stays in the studio.
  await page.getByRole("link", { name: "我的空间" }).click();
  await expect(page.locator(".ant-modal-confirm-title")).toHaveText("有未保存的修改，确定离开吗？");
  // A click while the confirmation opens can be lost; its mask would then hold every later click.
  await clickUntilClosed(page.getByRole("dialog").filter({ hasText: "有未保存的修改" }), /取\s*消/);
  await expect(page).toHaveURL(/\/studio/);
  await page.getByTestId("studio-model").click();
  await page.getByTitle(MODEL, { exact: true }).click();
  await page.getByTestId("studio-tags").click();
  await page.getByTitle("营销").click();
  await page.keyboard.press("Escape");

  // Icon: a background preset, a built-in icon, then an uploaded image.
  await page.getByTestId("icon-picker-button").click();
  await page.getByRole("button", { name: "#14c9c9" }).click();
  await page.getByRole("button", { name: "icon 44" }).click();
  await snap(page, "agents-icon-picker-gallery");
  await page.getByRole("tab", { name: "本地上传" }).click();
  await page.locator(".ant-modal input[type=file]").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
  await expect(page.getByTestId("icon-uploads").locator("img")).toHaveCount(1);
  await page
    .locator(".ant-modal input[type=file]")
    .setInputFiles({ name: "fake.png", mimeType: "image/png", buffer: Buffer.from("not an image") });
  await expect(page.getByText("文件格式不支持").first()).toBeVisible();
  await snap(page, "agents-icon-picker-upload");
  await page.locator(".ant-modal").getByRole("button", { name: ok }).click();

  await page.getByTestId("studio-save").click();
  await expect(page.getByText("已保存").first()).toBeVisible();
  await expect(page.getByTestId("studio-title")).toHaveText(NEW_AGENT);
  await expect(page).toHaveURL(/\/studio$/);
  const agentId = await page.evaluate(() => sessionStorage.getItem("studioAgentId"));
  expect(agentId).toBeTruthy();
  // The debug pane shows the agent's own icon (the uploaded image), not a letter.
  await expect(page.getByTestId("studio-debug-pane").getByTestId("agent-icon").locator("img").first()).toBeVisible();
  await clickRelease(page);
  await expect(page.getByText("请先调试成功再发布").first()).toBeVisible();
  await expect(page.getByTestId("studio-debug-needed")).toBeVisible();
  await snap(page, "agents-studio");

  // Debug in the studio's chat pane (the chat runtime, draft revision): that unlocks release.
  const debugInput = page.getByTestId("studio-debug-pane").locator(".ant-sender textarea");
  await debugInput.fill("你好，请自我介绍");
  await debugInput.press("Enter");
  await expect(page.getByText("当前草稿已调试成功，可以发布").first()).toBeVisible({ timeout: 20_000 });
  await snap(page, "agents-studio-debugged");
  // An unsaved edit is not what was debugged: the pane asks to save it first, release too.
  await page.getByTestId("studio-description").fill("按预算和天数规划国内自由行路线、每日行程与美食。");
  await expect(page.getByTestId("studio-debug-unsaved")).toBeVisible();
  await expect(page.getByTestId("studio-debug-ok")).toHaveCount(0);
  await expect(page.getByTestId("studio-debug-pane").getByTestId("studio-save-to-debug")).toBeVisible();
  await snap(page, "agents-studio-unsaved-debug");
  await page.getByTestId("studio-debug-pane").getByTestId("studio-save-to-debug").getByRole("button").click();
  await expect(page.getByTestId("studio-debug-needed")).toBeVisible();
  await debugInput.fill("你好，请再介绍一次");
  await debugInput.press("Enter");
  await expect(page.getByTestId("studio-debug-ok")).toBeVisible({ timeout: 20_000 });
  await clickRelease(page);
  await page.getByTestId("release-notes").fill("首个版本");
  await clickUntilClosed(page.locator(".ant-modal").filter({ has: page.getByTestId("release-notes") }), /发\s*布/);
  await expect(page.getByText("已发布 v1").first()).toBeVisible();

  // Second version with a changed persona, then the diff between v1 and v2.
  await page.getByTestId("studio-persona").fill("你是一名资深旅行规划师，擅长亲子游和自驾游。");
  await page.getByTestId("studio-save").click();
  await expect(page.getByText("已保存").first()).toBeVisible();
  // Saved since v1: the studio says what is released is not the draft any more.
  await expect(page.getByTestId("studio-unreleased-changes")).toHaveText("有未发布的修改");
  await snap(page, "agents-studio-unreleased-changes");
  await debugRun(request, "member", agentId!);
  await page.reload();
  await clickRelease(page);
  await page.getByTestId("release-notes").fill("侧重亲子游");
  await clickUntilClosed(page.locator(".ant-modal").filter({ has: page.getByTestId("release-notes") }), /发\s*布/);
  await expect(page.getByText("已发布 v2").first()).toBeVisible();
  await expect(page.getByTestId("studio-unreleased-changes")).toHaveCount(0);
  await page.getByTestId("studio-versions").click();
  await expect(page.getByTestId("version-diff")).toContainText("人设与回复逻辑");
  await expect(page.getByTestId("version-diff")).toContainText("亲子游");
  await snap(page, "agents-versions-diff");
  await page.keyboard.press("Escape");

  await page.goto("/home");
  const card = myCard(page, NEW_AGENT);
  await expect(card).toContainText("未上架");
  await card.hover();
  await card.getByTestId("agent-more").hover();
  await page.getByRole("menuitem", { name: "上架" }).click();
  const dialog = page.locator(".ant-modal").filter({ hasText: "确认上架" });
  await expect(dialog).toContainText("不允许复制");
  await dialog.getByRole("checkbox").check();
  await expect(dialog).toContainText("复制品包含人设与回复逻辑");
  await snap(page, "agents-list-dialog");
  await dialog.getByRole("button", { name: ok }).click();
  await expect(myCard(page, NEW_AGENT)).toContainText("审核中");
  await snap(page, "agents-home-pending");
  // Under review: 上架 is not offered again.
  await myCard(page, NEW_AGENT).hover();
  await myCard(page, NEW_AGENT).getByTestId("agent-more").hover();
  await expect(page.getByRole("menuitem", { name: /上架/ })).toHaveAttribute("aria-disabled", "true");
  expect(pageErrors).toEqual([]);
});

test("an unreleased agent: start and detail say 'please publish and use first' and offer the studio; no junk agents", async ({
  page,
  request,
}) => {
  const token = await apiToken(request, "member");
  const auth = { authorization: `Bearer ${token}` };
  const mineTotal = async () =>
    (await (await request.post("/agent_api/api/agent/page-created-by-me", { headers: auth, data: {} })).json()).data.total as number;
  // An abandoned 创建智能体 leaves nothing behind.
  await loginAs(page, "member");
  const before = await mineTotal();
  await page.goto("/home");
  await page.getByTestId("create-agent").click();
  await expect(page).toHaveURL(/\/studio\?new=1/);
  await page.goto("/home");
  expect(await mineTotal()).toBe(before);

  const created = await request.post("/aiagent_api/agent/quick/add", { headers: auth, data: { agentName: "未发布助手" } });
  const id = (await created.json()).data.agentId as string;
  await page.goto("/home");
  // 上架 is not offered on an unreleased agent.
  await myCard(page, "未发布助手").hover();
  await myCard(page, "未发布助手").getByTestId("agent-more").hover();
  await expect(page.getByRole("menuitem", { name: /上架/ })).toHaveAttribute("aria-disabled", "true");
  await page.mouse.move(0, 0);
  await myCard(page, "未发布助手").getByTestId("agent-name").click();
  await expect(page.locator(".ant-modal-confirm-title")).toHaveText("请先发布后再使用");
  await snap(page, "agents-start-unreleased");
  await page.getByRole("button", { name: "去编排" }).click();
  await expect(page).toHaveURL(/\/studio/);
  await expect(page.getByTestId("studio-name")).toHaveValue("未发布助手");

  await page.goto(`/agent-detail?id=${id}&price=0`);
  await expect(page.getByTestId("detail-blocked")).toContainText("请先发布后再使用");
  await expect(page.getByTestId("detail-blocked").getByRole("button", { name: "去编排" })).toBeVisible();
  await snap(page, "agents-detail-unreleased");
  await request.delete(`/agent_api/api/agent/${id}`, { headers: auth });
});

test("copies are the owner's choice: a priced demo agent offers no copy; skills read the same on card and detail", async ({ page }) => {
  await loginAs(page, "free");
  await page.goto("/index");
  const priced = cards(page).filter({ hasText: "保险条款解读" });
  await expect(priced).toHaveCount(1);
  await expect(priced.getByTestId("copy-agent")).toHaveCount(0);
  await expect(priced.getByTestId("skill-num")).toHaveText("暂未配置技能");
  await priced.getByTestId("agent-name").click();
  await expect(page.getByTestId("detail-name")).toHaveText("保险条款解读");
  await expect(page.getByTestId("detail-copy")).toHaveCount(0);
  await expect(page.getByTestId("detail-skill-num")).toHaveText("暂未配置技能");
  await snap(page, "agents-detail-not-copyable");
});

test("the administrator approves; another user sees it in the marketplace", async ({ page }) => {
  await loginAs(page, "admin");
  await page.goto("/admin/agent-review");
  const row = page.locator("tr", { hasText: NEW_AGENT });
  await expect(row).toContainText("v2");
  await snap(page, "agents-review-queue");
  await row.getByTestId("review-approve").click();
  await page.getByRole("button", { name: ok }).click();
  await expect(page.getByText("已通过，智能体已上架").first()).toBeVisible();

  await page.context().clearCookies();
  await loginAs(page, "free");
  await page.goto("/index");
  await page.getByPlaceholder("搜索智能体").fill(NEW_AGENT);
  await page.getByPlaceholder("搜索智能体").press("Enter");
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toContainText("立即雇佣");
  await expect(cards(page).first().getByTestId("agent-icon").locator("img")).toBeVisible();
  // The owner allowed copies when listing.
  await expect(cards(page).first().getByTestId("copy-agent")).toBeVisible();
  await snap(page, "agents-marketplace-new-listing");
});

test("the administrator rejects with a reason; the owner sees it on the card", async ({ page, request }) => {
  // A released agent submitted for listing, prepared through the calls themselves.
  const token = await apiToken(request, "member");
  const auth = { authorization: `Bearer ${token}` };
  const created = await request.post("/aiagent_api/agent/quick/add", { headers: auth, data: { agentName: "待驳回助手" } });
  const agentId = (await created.json()).data.agentId as string;
  const draft = (await (await request.get(`/aiagent_api/agent/draft/${agentId}`, { headers: auth })).json()).data.draft;
  expect((await request.put(`/aiagent_api/agent/draft/${agentId}`, { headers: auth, data: { ...draft, persona: "简短人设" } })).ok()).toBe(
    true,
  );
  await debugRun(request, "member", agentId);
  expect((await request.post(`/aiagent_api/agent/release/${agentId}`, { headers: auth, data: { notes: "v1" } })).ok()).toBe(true);
  expect((await request.post("/agent_api/api/agentApply/saveInfo", { headers: auth, data: { agentId } })).ok()).toBe(true);

  await loginAs(page, "admin");
  await page.goto("/admin/agent-review");
  const row = page.locator("tr", { hasText: "待驳回助手" });
  // The queue may re-render while it refetches; click until the reason dialog is open.
  await expect(async () => {
    await row.getByTestId("review-reject").click();
    await expect(page.locator(".ant-modal")).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 15_000 });
  await page
    .locator(".ant-modal")
    .getByRole("button", { name: /驳\s*回/ })
    .click();
  await expect(page.getByText("请输入驳回原因").first()).toBeVisible();
  await page.getByTestId("reject-reason").fill("人设过于简单，请补充能力说明");
  await snap(page, "agents-review-reject");
  await page
    .locator(".ant-modal")
    .getByRole("button", { name: /驳\s*回/ })
    .click();
  await expect(page.getByText("已驳回").first()).toBeVisible();
  await page.getByTestId("review-status").getByText("已驳回").click();
  await expect(page.locator("tr", { hasText: "待驳回助手" })).toContainText("人设过于简单");

  await page.context().clearCookies();
  await loginAs(page, "member");
  await page.goto("/home");
  await expect(myCard(page, "待驳回助手")).toContainText("已驳回");
  await expect(myCard(page, "待驳回助手")).toContainText("未上架");
});
