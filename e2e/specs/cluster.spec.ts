import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { expect, type Page, test } from "@playwright/test";

/**
 * The product in a browser through a real balancer: two platform processes serving the web app
 * behind nginx, on one PostgreSQL database and one S3 store (apps/server/src/test/cluster-e2e.ts).
 * A person signs in on one process and goes on on the other, chats through the balancer, and what
 * one process stores or revokes the other sees. Skipped, with the reason, without PostgreSQL or nginx.
 * The HTTP-level checks of the same cluster (streams unbuffered, jobs once, payments once) are in
 * apps/server/src/cluster.test.ts.
 */
const root = path.resolve(import.meta.dirname, "../..");
const webDist = path.resolve(root, process.env.E2E_WEB_DIST ?? ".tmp/e2e-web");

interface ClusterInfo {
  url: string;
  upstreams: [string, string];
  username: string;
  password: string;
  agentId: string;
}

let child: ChildProcess | undefined;
let c: ClusterInfo;
let unavailable = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  if (!fs.existsSync(path.join(webDist, "index.html"))) {
    unavailable = `no built web app at ${webDist} (npm test builds it; or set E2E_WEB_DIST)`;
    return;
  }
  child = spawn("node", ["--import", "tsx", "apps/server/src/test/cluster-e2e.ts"], {
    cwd: root,
    env: {
      ...process.env,
      WEB_DIST: webDist,
      TEST_DATABASE_URL: process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
    },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise<never>((_, reject) => child?.once("exit", (code) => reject(new Error(`the cluster exited (${code})`))));
  const firstLine = new Promise<string>((resolve) =>
    createInterface({ input: child?.stdout as NodeJS.ReadableStream }).once("line", resolve),
  );
  const info = JSON.parse(await Promise.race([firstLine, exited])) as ClusterInfo & { unavailable?: string };
  if (info.unavailable) unavailable = info.unavailable;
  else c = info;
});

test.afterAll(async () => {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child?.once("exit", r));
  child.stdin?.end();
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null) child.kill("SIGKILL");
});

test.beforeEach(() => {
  test.skip(!!unavailable, unavailable);
});

const input = (page: Page) => page.locator(".ant-sender textarea");
const lastBot = (page: Page) => page.getByTestId("msg-bot").last();

test("signed in through the balancer, the session works on each process; a sign-out on one is refused by the other", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto(`${c.url}/login`);
  await page.locator("input[autocomplete=username]").fill(c.username);
  await page.locator("input[autocomplete=current-password]").fill(c.password);
  await page.locator("input[autocomplete=current-password]").press("Enter");
  await expect(page).toHaveURL(/\/index/, { timeout: 30_000 });
  // The token cookie belongs to the host, whatever the port: each process is opened directly.
  for (const upstream of c.upstreams) {
    await page.goto(`${upstream}/index`);
    await expect(page.getByTestId("user-menu")).toContainText(c.username);
  }
  const token = (await page.context().cookies()).find((k) => k.name === "Admin-Token")?.value ?? "";
  expect(token).not.toBe("");

  // Signed out on the first process; the token, put back in the browser, no longer opens the second.
  await page.goto(`${c.upstreams[0]}/index`);
  await expect(async () => {
    await page.getByTestId("user-menu").hover();
    await page.getByRole("menuitem", { name: "退出登录" }).click({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/login/);
  await page.context().addCookies([{ name: "Admin-Token", value: token, url: c.upstreams[1] }]);
  await page.goto(`${c.upstreams[1]}/index`);
  await expect(page).toHaveURL(/\/login/, { timeout: 5000 });
});

test("a chat streams through the balancer, its file is read back by each process, and the other process shows the conversation", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const res = await page.request.post(`${c.url}/agent_api/api/auth/login`, { data: { username: c.username, password: c.password } });
  expect(res.ok()).toBe(true);
  const { token } = (await res.json()).data as { token: string };
  await page.goto(`${c.url}/agent-execute?id=${c.agentId}`);
  const fileInput = page.locator(".ant-sender input[type=file]");
  const uploaded = page.waitForResponse((r) => r.url().includes("/agent_api/api/files") && r.request().method() === "POST");
  await fileInput.setInputFiles({ name: "集群.txt", mimeType: "text/plain", buffer: Buffer.from("两个进程共用的文件") });
  const file = (await (await uploaded).json()).data as { id: string };
  await expect(page.getByTestId("chat-pending-files").locator(".anticon-loading")).toHaveCount(0);
  await input(page).fill("集群里的问题");
  await input(page).press("Enter");
  await expect(page.getByTestId("msg-user").last()).toContainText("集群.txt");
  // The test model repeats what it was asked: the file's text, read from the shared store, and the question.
  await expect(lastBot(page)).toContainText("【附件：集群.txt】", { timeout: 30_000 });
  await expect(lastBot(page)).toContainText("两个进程共用的文件");
  await expect(lastBot(page)).toContainText("集群里的问题");

  // The upload went to the shared store: each process serves it.
  for (const upstream of c.upstreams) {
    const read = await page.request.get(`${upstream}/agent_api/api/files/data/${file.id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(read.status()).toBe(200);
    expect(await read.text()).toBe("两个进程共用的文件");
  }

  // The second process lists the session and shows its messages.
  await page.goto(`${c.upstreams[1]}/agent-execute?id=${c.agentId}`);
  const session = page.getByTestId("session-list").locator(".ant-conversations-item").first();
  await expect(session).toBeVisible({ timeout: 15_000 });
  await session.click();
  await expect(lastBot(page)).toContainText("两个进程共用的文件");
  await expect(lastBot(page)).toContainText("集群里的问题");
  await expect(page.getByTestId("msg-user").last()).toContainText("集群.txt");
});
