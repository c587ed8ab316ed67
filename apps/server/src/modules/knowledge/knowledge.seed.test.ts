import { parseChatEvents } from "@agentfair/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { agents } from "../../db/schema/index.ts";
import { DEMO_PASSWORD, seedDemo } from "../../seed/demo.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  expect(await seedDemo(t.platform.db, t.services.tenants)).toBe(true);
});
afterAll(() => t.close());

it("the demo member's FAQ agent answers from its knowledge base with no model configured", async () => {
  const login = await t.app.inject({
    method: "POST",
    url: "/agent_api/api/auth/login",
    payload: { username: "member", password: DEMO_PASSWORD, domain: "" },
  });
  const token = login.json().data.token as string;
  const [agent] = await t.platform.db.select().from(agents).where(eq(agents.agentName, "平台客服小助手"));
  const page = (
    await t.app.inject({ url: "/wendao_api/wendao/knowledge/page?page=1&limit=10", headers: { authorization: `Bearer ${token}` } })
  ).json();
  expect(page.data.list.map((b: { name: string }) => b.name)).toEqual(["Agentfair 使用帮助"]);
  const contents = (
    await t.app.inject({
      url: `/wendao_api/wendao/knowledge/${page.data.list[0].id}/contents`,
      headers: { authorization: `Bearer ${token}` },
    })
  ).json();
  expect(contents.data.folders.map((f: { name: string }) => f.name).sort()).toEqual(["产品文档", "操作指南"].sort());
  const res = await t.app.inject({
    method: "POST",
    url: "/agent/agent_runtime/chat",
    payload: { token, schema_id: agent.id, release: true, query: "知识库支持哪些文件格式" },
  });
  const evs = parseChatEvents(res.payload);
  expect(evs.find((e) => e.type === "docs")).toMatchObject({ docs: [{ title: "[1] 知识库支持哪些文件格式？" }] });
  expect(evs.some((e) => e.type === "content" && e.delta.includes("15MB"))).toBe(true);
  expect(evs.at(-1)).toMatchObject({ type: "stop", status: "done" });
});
