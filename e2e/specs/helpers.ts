import path from "node:path";
import { type APIRequestContext, expect, type Locator, type Page } from "@playwright/test";

export const DEMO_PASSWORD = "demo1234";
/** The second e2e server, with the captcha on (see playwright.config.ts). */
export const CAPTCHA_BASE_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8190) + 1}`;
/** The platform no spec configures (see playwright.config.ts). */
export const BARE_BASE_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8190) + 2}`;

/**
 * Signs in through the login form (CAPTCHA=off server) and waits for the landing page. The auth specs
 * use it; the others sign in with `loginAs`.
 */
export async function signInWithForm(page: Page, username: string, opts: { tenant?: string } = {}) {
  await page.goto(`${opts.tenant ? `/${opts.tenant}` : ""}/login`);
  await page.getByPlaceholder("用户名 / 邮箱 / 手机号").fill(username);
  await page.getByPlaceholder("密码").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "登 录" }).click();
  // The password hash is deliberately slow: on a loaded machine a sign-in can take longer than 10 s.
  await expect(page).not.toHaveURL(/\/login/, { timeout: 30_000 });
}

/**
 * Signs in by the real login call (its cookies land in the page's context, as the form's do) and
 * opens /login, which sends a signed-in user to their landing page: the form's own screen and
 * validation are the auth specs' (signInWithForm), and skipping it for the ~90 other sign-ins
 * keeps the suite shorter.
 */
export async function loginAs(page: Page, username: string, opts: { tenant?: string } = {}) {
  const res = await page.request.post("/agent_api/api/auth/login", {
    data: { username, password: DEMO_PASSWORD, domain: opts.tenant ?? "" },
  });
  expect(res.ok(), await res.text()).toBe(true);
  await page.goto(`${opts.tenant ? `/${opts.tenant}` : ""}/login`);
  await expect(page).not.toHaveURL(/\/login/, { timeout: 30_000 });
}

/** A bearer token for a demo user, through the real login call (no browser). */
export async function apiToken(request: APIRequestContext, username: string, domain = "") {
  const res = await request.post("/agent_api/api/auth/login", { data: { username, password: DEMO_PASSWORD, domain } });
  expect(res.ok()).toBe(true);
  return (await res.json()).data.token as string;
}

/**
 * The newest check code mailed to `contact`, read from the outbox as the administrator
 * (GET /agent_api/api/admin/outbox): without SMTP_URL codes go there, never to the caller.
 */
export async function readCheckCode(request: APIRequestContext, contact: string): Promise<string> {
  const token = await apiToken(request, "admin");
  let code: string | undefined;
  await expect
    .poll(async () => {
      const res = await request.get("/agent_api/api/admin/outbox", { headers: { authorization: `Bearer ${token}` } });
      const mails = (await res.json()).data as { recipient: string; body: string }[];
      code = mails.find((m) => m.recipient === contact)?.body.match(/\b(\d{6})\b/)?.[1];
      return code;
    })
    .toBeTruthy();
  return code as string;
}

/**
 * Picks a language in the header switch (a hover menu: retried while the page still moves). The
 * pointer leaves first: a hover over the switch it is already on opens nothing, so a retry would
 * wait in vain.
 */
export async function chooseLanguage(page: Page, label: "中文" | "English") {
  await expect(async () => {
    await page.mouse.move(0, 400);
    await page.getByTestId("language-switch").hover();
    await page.getByRole("menuitem", { name: label }).click({ timeout: 4000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByTestId("language-switch")).toContainText(label);
}

/** Screenshots land in .tmp/screens for people to look at. */
/**
 * A full-page screenshot in `.tmp/screens/` for a person to look at, after `settleMs` (an opening
 * dialog, a QR code drawing). Skipped in CI, where nobody looks and the 250 of them cost the suite
 * about a minute; `E2E_SCREENS=1` takes them there too.
 */
export async function snap(page: Page, name: string, settleMs = 0) {
  if (process.env.CI && !process.env.E2E_SCREENS) return;
  if (settleMs) await page.waitForTimeout(settleMs);
  await page.screenshot({ path: path.resolve(import.meta.dirname, `../../.tmp/screens/${name}.png`), fullPage: true });
}

/**
 * The test model server behind the shared platform's default LLM (apps/server/src/test/llm-server.ts,
 * started for the whole run by playwright.config.ts). Specs chat through that default and never change
 * it: a model they add is their own, uniquely named, and not the default.
 */
export const TEST_LLM_PORT = Number(process.env.E2E_PORT ?? 8190) + 3;

/** A suffix that differs between a test's tries (and runs), for names a retry must not collide with. */
export const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

/**
 * Adds a model as the administrator and returns its id: an LLM on the shared test model server unless
 * said. Never the default LLM (other specs' replies rely on it); `isDefault` is for the one AUDIO model.
 */
export async function registerTestModel(
  request: APIRequestContext,
  name: string,
  opts: { port?: number; type?: "LLM" | "AUDIO"; isDefault?: boolean } = {},
) {
  const type = opts.type ?? "LLM";
  const res = await request.post("/agent_api/api/models", {
    headers: { authorization: `Bearer ${await apiToken(request, "admin")}` },
    data: {
      name,
      type,
      baseUrl: `http://127.0.0.1:${opts.port ?? TEST_LLM_PORT}/v1`,
      apiKey: "sk-test",
      modelId: type === "AUDIO" ? "whisper-1" : "test-model",
      isDefault: type !== "LLM" && (opts.isDefault ?? false),
      allowPrivate: true,
    },
  });
  expect(res.ok()).toBe(true);
  return (await res.json()).data.id as string;
}

/** Removes the models named `name` or starting with `name` (a spec's own, from every try). */
export async function removeTestModels(request: APIRequestContext, name: string) {
  const auth = { authorization: `Bearer ${await apiToken(request, "admin")}` };
  const models = (await (await request.get("/agent_api/api/models", { headers: auth })).json()).data as { id: string; name: string }[];
  for (const m of models.filter((x) => x.name.startsWith(name))) await request.delete(`/agent_api/api/models/${m.id}`, { headers: auth });
}

/**
 * Clicks a dialog's button until the dialog closes. On a loaded machine a click during antd's
 * opening animation can be lost; a second click on a closing or loading dialog does nothing.
 */
export async function clickUntilClosed(dialog: Locator, button: RegExp) {
  await expect(async () => {
    // A slow first click may close the dialog after its wait ran out: then there is nothing to click.
    await dialog
      .getByRole("button", { name: button })
      .click({ timeout: 2000 })
      .catch(() => {});
    await expect(dialog).toBeHidden({ timeout: 5000 });
  }).toPass({ timeout: 30_000 });
}

/**
 * Presses Escape until a dialog closes: antd closes on Escape only once focus has moved into the
 * dialog, which a loaded machine may not have done yet when the key is pressed.
 */
export async function escapeUntilClosed(page: Page, dialog: Locator) {
  await expect(async () => {
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden({ timeout: 2000 });
  }).toPass({ timeout: 15_000 });
}

/**
 * Picks an option of a searchable select whose list grows while specs run (the shared demo users'
 * plugins, knowledge bases, workflows): antd renders only the options in view, so the text is searched first.
 */
export async function searchAndPick(page: Page, select: Locator, text: string) {
  const option = page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: text }).first();
  // A click on an open select may close it: it is opened only when no list shows, then searched.
  await expect(async () => {
    if ((await page.locator(".ant-select-dropdown:visible").count()) === 0) await select.click();
    await select.locator("input").fill(text);
    await option.click({ timeout: 3000 });
  }).toPass({ timeout: 30_000 });
}

/** Opens an agent's chat from the marketplace (/index) through its hire/use button. */
export async function openMarketAgent(page: Page, name: string) {
  await page.goto("/index");
  await page
    .locator(".ant-card", { hasText: name })
    .first()
    .getByRole("button", { name: /立即雇佣|立即使用/ })
    .click();
  await expect(page).toHaveURL(/\/agent-execute\?id=/);
}
