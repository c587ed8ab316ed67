import { expect, test } from "@playwright/test";
import { apiToken, loginAs, snap } from "./helpers";

/**
 * Backup and restore (issue 16): a released agent exported from its card menu as a zip, the zip
 * imported back as a new agent (then removed again, the demo agents stay as they were), and a
 * file that is not a zip refused with the spec's message.
 */
test("export a released agent and import the zip as a new agent", async ({ page, request }) => {
  await loginAs(page, "member");
  await page.goto("/home");
  const card = page.getByTestId("my-agent-card").filter({ hasText: "平台客服小助手" }).first();
  await card.hover();
  await card.getByTestId("agent-more").hover();
  const download = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: "导出备份" }).click();
  const file = await (await download).path();
  expect(file).toBeTruthy();

  const imported = page.waitForResponse((r) => r.url().includes("/aiagent_api/agent/import"));
  await page
    .getByTestId("import-agent")
    .locator("..")
    .locator("input[type=file]")
    .setInputFiles({
      name: "backup.zip",
      mimeType: "application/zip",
      buffer: await import("node:fs").then((fs) => fs.readFileSync(file as string)),
    });
  const body = (await (await imported).json()) as { code: number; data: { agentId: string } };
  expect(body.code).toBe(200);
  await expect(page.getByText("已导入为新智能体：平台客服小助手")).toBeVisible();
  await snap(page, "agents-backup-imported-zh");
  await request.delete(`/agent_api/api/agent/${body.data.agentId}`, {
    headers: { authorization: `Bearer ${await apiToken(request, "member")}` },
  });

  await page
    .getByTestId("import-agent")
    .locator("..")
    .locator("input[type=file]")
    .setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("hello"),
    });
  await expect(page.getByText("请上传zip文件")).toBeVisible();
});
