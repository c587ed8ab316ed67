import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planTemplates, plugins, users } from "../../db/schema/index.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { seedCatalog } from "../billing/billing.fixtures.ts";

// The plan's pluginsNum (插件 N 个): a user owns at most that many plugins of the tools list's 插件 types
// (HTTP, JavaScript, Python), however they are made. FREE: 3.

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ EXEMPT_USERNAME: "vip" });
  await seedCatalog(t);
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const rand = () => Math.random().toString(36).slice(2, 10);
const jsPlugin = (over: Record<string, unknown> = {}) => ({
  pluginName: "代码工具",
  pluginDescription: "返回参数",
  pluginIcon: "1",
  pluginIconBackground: "#e8f3ff",
  pluginType: "JAVASCRIPT",
  pluginCallableName: `js_${rand()}`,
  pluginTags: ["营销"],
  code: "function main(p) { return p; }",
  ...over,
});
const httpPlugin = () => ({ ...jsPlugin(), pluginType: "HTTP", pluginCallableName: `http_${rand()}`, url: "https://api.example.com/v1/x" });

async function call(user: TestUser, url: string, payload: unknown, lang = "zh") {
  const res = await t.app.inject({
    method: "POST",
    url: `/aiagent_api${url}`,
    headers: { ...user.headers, lang },
    payload: payload as object,
  });
  return { status: res.statusCode, ...(res.json() as { code: number; msg: string; data: { id?: string; ids?: string[] } }) };
}
const create = (user: TestUser, body = jsPlugin(), lang = "zh") => call(user, "/plugin", body, lang);
const importMany = (user: TestUser, n: number) =>
  call(user, "/plugin/openapi/save", { release: false, tag: "导入", plugins: Array.from({ length: n }, httpPlugin) });

const owned = async (user: TestUser) =>
  (await t.platform.db.select({ type: plugins.pluginType }).from(plugins).where(eq(plugins.ownerId, user.id))).filter((p) =>
    ["HTTP", "JAVASCRIPT", "PYTHON3"].includes(p.type),
  ).length;

async function fill(user: TestUser, n: number) {
  for (let i = 0; i < n; i++) expect((await create(user)).code).toBe(200);
}

async function setLevel(user: TestUser, memberLevel: "FREE" | "MONTHLY") {
  await t.platform.db
    .update(users)
    .set({ memberLevel, memberEndAt: memberLevel === "FREE" ? null : new Date(Date.now() + 30 * 86400_000) })
    .where(eq(users.id, user.id));
  await t.platform.invalidate("user", user.id);
}

describe("plan limit: plugins (pluginsNum)", () => {
  it("refuses the plugin past the plan's number with the limit in the message; MCP tools are not counted", async () => {
    const free = await createUser(t);
    await fill(free, 3);
    const zh = await create(free);
    expect(zh).toMatchObject({ status: 400, msg: "插件数量已达会员上限（3个），请升级会员" });
    const en = await create(free, httpPlugin(), "en");
    expect(en.msg).toBe("your plan allows 3 plugins and they are all in use: upgrade to add more");
    expect(await owned(free)).toBe(3);
    // MCP tools (the tools list's MCP type) are not 插件 of the plan card.
    const mcp = await create(
      free,
      jsPlugin({ pluginType: "MCP", code: "", mcp: { serverUrl: "https://mcp.example.com/mcp", toolName: "search", inputSchema: {} } }),
    );
    expect(mcp.code, mcp.msg).toBe(200);
    // A deleted plugin frees its place.
    const [one] = await t.platform.db
      .select()
      .from(plugins)
      .where(and(eq(plugins.ownerId, free.id), eq(plugins.pluginType, "JAVASCRIPT")));
    await t.app.inject({ method: "DELETE", url: `/aiagent_api/plugin/${one.id}`, headers: free.headers });
    expect((await create(free)).code).toBe(200);
    expect((await create(free)).code).toBe(400);
  });

  it("an OpenAPI import that would pass the limit saves none of its plugins", async () => {
    const free = await createUser(t);
    await fill(free, 1);
    const over = await importMany(free, 3);
    expect(over).toMatchObject({ status: 400, msg: "插件数量已达会员上限（3个），请升级会员" });
    expect(await owned(free)).toBe(1);
    const fits = await importMany(free, 2);
    expect(fits.code, fits.msg).toBe(200);
    expect(fits.data.ids).toHaveLength(2);
    expect(await owned(free)).toBe(3);
    expect((await importMany(free, 1)).code).toBe(400);
  });

  it("parallel creates at one below the limit end at exactly the limit", async () => {
    const free = await createUser(t);
    await fill(free, 2);
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 3 ? create(free) : importMany(free, 1))));
    expect(outcomes.filter((o) => o.code === 200)).toHaveLength(1);
    expect(new Set(outcomes.filter((o) => o.code !== 200).map((o) => o.msg))).toEqual(new Set(["插件数量已达会员上限（3个），请升级会员"]));
    expect(await owned(free)).toBe(3);
  });

  it("does not limit white-listed users, the exempt user and administrators", async () => {
    for (const user of [
      await createUser(t, { isWhite: true }),
      await createUser(t, { username: "vip" }),
      await createUser(t, { username: "admin" }),
    ]) {
      await fill(user, 4);
      expect((await importMany(user, 2)).code).toBe(200);
      expect(await owned(user)).toBe(6);
    }
  });

  it("limits a tenant's users by their own level", async () => {
    const member = await createUser(t, { domain: `lim${rand()}` });
    await fill(member, 3);
    expect((await create(member)).msg).toBe("插件数量已达会员上限（3个），请升级会员");
  });

  it("an upgrade raises the limit to the new level's; a level without an enabled template has none", async () => {
    const user = await createUser(t);
    await fill(user, 3);
    expect((await create(user)).code).toBe(400);
    await setLevel(user, "MONTHLY");
    await fill(user, 7);
    expect(await owned(user)).toBe(10);
    expect((await create(user)).msg).toBe("插件数量已达会员上限（10个），请升级会员");
    await t.platform.db
      .update(planTemplates)
      .set({ enabled: false })
      .where(inArray(planTemplates.memberLevel, ["MONTHLY"]));
    try {
      expect((await create(user)).code).toBe(200);
    } finally {
      await t.platform.db.update(planTemplates).set({ enabled: true }).where(eq(planTemplates.memberLevel, "MONTHLY"));
    }
  });
});
