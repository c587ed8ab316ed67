import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import { apiToken, chooseLanguage, loginAs, openMarketAgent, snap } from "./helpers";
import { clientMessageTypes, DISPLAY_RGB, FlvStream, missingLiveTools, VNC_PASSWORD, VncDesktop } from "./rpa-fixtures";

/**
 * RPA with real services: a VNC server on an X display watched through the platform's bridge, and
 * an FLV stream from ffmpeg through node-media-server, played on /rpa and on the execute page.
 */
const missing = missingLiveTools();
test.skip(!!missing, missing ?? "");
test.describe.configure({ mode: "serial" });

const desktop = new VncDesktop();
const stream = new FlvStream();
const unique = `${Date.now().toString(36)}`;
const robotName = `e2e机器人${unique}`;
let robotId = "";

async function createRobot(request: APIRequestContext, body: Record<string, unknown>) {
  const token = await apiToken(request, "admin");
  const res = await request.post("/agent_api/api/rpa/robots", { headers: { authorization: `Bearer ${token}` }, data: body });
  expect(res.ok()).toBe(true);
  return (await res.json()).data.id as string;
}

/** The colour of the viewer's canvas at a point of the remote screen away from the window. */
const pixel = (viewer: Locator) =>
  viewer
    .locator("canvas")
    .evaluate((c: HTMLCanvasElement) =>
      [...(c.getContext("2d")?.getImageData(Math.floor(c.width * 0.8), Math.floor(c.height * 0.8), 1, 1).data ?? [])].slice(0, 3),
    );

test.beforeAll(async ({ request }) => {
  test.setTimeout(60_000);
  await Promise.all([desktop.start(), stream.start()]);
  robotId = await createRobot(request, {
    robotName,
    robotType: "desktop",
    vncHost: "127.0.0.1",
    vncPort: desktop.relayPort,
    vncPassword: VNC_PASSWORD,
    streamUrl: stream.url,
    livePolicy: 0,
  });
});

test.afterAll(async () => {
  await Promise.all([desktop.close(), stream.close()]);
});

async function openPreview(page: Page) {
  await page.goto("/robots");
  const row = page.locator("tr", { hasText: robotName });
  await row.getByRole("button", { name: "查看" }).click();
  return page.locator(".ant-modal .remote-viewer");
}

test("the remote viewer shows the screen through the bridge, sends no input, goes fullscreen and reconnects", async ({ page }) => {
  await loginAs(page, "admin");
  const viewer = await openPreview(page);
  await expect(viewer).toHaveAttribute("data-state", "connected", { timeout: 15_000 });
  await expect.poll(() => pixel(viewer), { timeout: 10_000 }).toEqual([...DISPLAY_RGB]);
  await snap(page, "rpa-remote-viewer");

  // Try every kind of input: the bridge's byte stream to the VNC server holds none of it.
  const box = await viewer.boundingBox();
  if (!box) throw new Error("no viewer");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 3, box.y + box.height / 3, { steps: 5 });
  await page.mouse.up();
  await page.mouse.wheel(0, 200);
  await page.keyboard.type("abc");
  await page.waitForTimeout(500);
  await expect(viewer).toBeVisible();
  const sent = Buffer.concat(desktop.fromBridge.at(-1) ?? []);
  const types = clientMessageTypes(sent);
  expect(types).toContain(3);
  expect(types.filter((t) => ![0, 2, 3, 150, 248].includes(t))).toEqual([]);

  // Fullscreen from the bottom-right icon; Escape leaves it.
  await viewer.getByRole("button", { name: "全屏" }).click();
  await expect(viewer).toHaveAttribute("data-fullscreen", "true");
  const full = await viewer.boundingBox();
  expect(full?.width).toBe(page.viewportSize()?.width);
  await expect(viewer.getByRole("button", { name: "退出全屏" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(viewer).toHaveAttribute("data-fullscreen", "false");
  // ...and only fullscreen: the dialog around the viewer stays open.
  await expect(viewer).toBeVisible();

  // The VNC server restarts: the viewer reconnects on its own with a new ticket.
  const connections = desktop.fromBridge.length;
  await desktop.restartVnc();
  await expect.poll(() => desktop.fromBridge.length, { timeout: 15_000 }).toBeGreaterThan(connections);
  await expect(viewer).toHaveAttribute("data-state", "connected", { timeout: 20_000 });
  await expect.poll(() => pixel(viewer), { timeout: 10_000 }).toEqual([...DISPLAY_RGB]);

  // The demo robot points where no VNC server runs: its viewer says it is reconnecting.
  await page.locator(".ant-modal-close").click();
  await expect(viewer).toHaveCount(0);
  await page.locator("tr", { hasText: "演示机器人" }).getByRole("button", { name: "查看" }).click();
  const demo = page.locator(".ant-modal", { hasText: "演示机器人" }).locator(".remote-viewer");
  await expect(demo).toContainText("远程桌面连接失败，正在重新连接...", { timeout: 10_000 });
  await expect(demo).toBeVisible();
  await snap(page, "rpa-remote-reconnecting", 500);
});

test("/rpa plays the live stream, shows the pull error when it stops, and refresh recovers", async ({ page }) => {
  await page.addInitScript(() => {
    (window as { __liveTimeoutMs?: number }).__liveTimeoutMs = 8000;
  });
  await loginAs(page, "admin");
  await page.goto("/rpa");
  const cell = page.locator(`.rpa-live-cell[data-robot="${robotName}"]`);
  await expect(cell).toContainText(robotName);
  const player = cell.locator(".live-player");
  await expect(player).toHaveAttribute("data-state", "playing", { timeout: 20_000 });
  const playedTime = () => player.locator("video").evaluate((v: HTMLVideoElement) => v.currentTime);
  await expect.poll(playedTime, { timeout: 10_000 }).toBeGreaterThan(0.5);
  await snap(page, "rpa-live-zh");

  await stream.stopPublishing();
  await expect(player).toHaveAttribute("data-state", "error", { timeout: 20_000 });
  await expect(player).toContainText("直播拉流异常，请刷新重试");

  await stream.publish();
  await page.waitForTimeout(1500);
  await player.getByRole("button", { name: "刷新" }).click();
  await expect(player).toHaveAttribute("data-state", "playing", { timeout: 20_000 });

  await chooseLanguage(page, "English");
  await page.mouse.move(600, 600);
  await expect(page.getByText("RPA live").first()).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "中文" })).toBeHidden();
  await snap(page, "rpa-live-en");
  await page.goto("/robots");
  await expect(page.locator("tr", { hasText: robotName })).toBeVisible();
  await snap(page, "rpa-robots-en", 400);
  await chooseLanguage(page, "中文");
  await page.mouse.move(600, 600);
  await snap(page, "rpa-robots-zh", 400);
});

test("the execute page shows the remote desktop, then the timed iframe, then the live video of the session's robot task", async ({
  page,
  request,
}) => {
  await loginAs(page, "member");
  await openMarketAgent(page, "政务办事指南");
  const schema_id = new URL(page.url()).searchParams.get("id");
  const token = await apiToken(request, "member");
  const question = `RPA演示${unique}`;
  const reply = await request.post("/agent/agent_runtime/chat", { data: { token, schema_id, release: true, query: question } });
  const sessionId = JSON.parse((await reply.text()).split("\n")[0]).session_id as string;
  const attach = (body: Record<string, unknown>) =>
    request.post("/agent_api/api/rpa/tasks", { headers: { authorization: `Bearer ${token}` }, data: { sessionId, robotId, ...body } });
  expect((await attach({ playContainer: "remote" })).ok()).toBe(true);

  await page.reload();
  await page.getByTestId("session-list").getByText(question).click();
  const panel = page.locator(".exec-live");
  await expect(panel).toHaveAttribute("data-container", "remote");
  await expect(panel).toContainText(robotName);
  await expect(panel.locator(".remote-viewer")).toHaveAttribute("data-state", "connected", { timeout: 15_000 });
  await snap(page, "rpa-execute-remote");

  // The page polls the session's playInfo every 3 s: a new task changes the panel.
  expect((await attach({ playContainer: "iframe", iframeUrl: "/healthz" })).ok()).toBe(true);
  await expect(panel).toHaveAttribute("data-container", "iframe", { timeout: 8000 });
  await expect(panel.locator("iframe.timed-iframe")).toHaveAttribute("src", "/healthz");

  expect((await attach({ playContainer: "live" })).ok()).toBe(true);
  await expect(panel).toHaveAttribute("data-container", "live", { timeout: 8000 });
  await expect(panel.locator(".live-player")).toHaveAttribute("data-state", "playing", { timeout: 20_000 });
  await snap(page, "rpa-execute-live");
});
