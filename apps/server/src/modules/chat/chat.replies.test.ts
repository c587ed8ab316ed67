import { parseChatEvents } from "@agentfair/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatMessages } from "../../db/schema/index.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";

/** What the chat page shows of a reply: stages, errors in the reader's language, shares and exports. */
let t: TestApp;
let llm: LlmServer;
let alice: TestUser;
let agentId: string;

const R = "/agent/agent_runtime";
const events = parseChatEvents;

async function chat(payload: Record<string, unknown>) {
  const res = await t.app.inject({
    method: "POST",
    url: `${R}/chat`,
    payload: { token: alice.token, schema_id: agentId, release: false, ...payload },
  });
  const evs = events(res.payload);
  return { evs, sid: evs[0]?.type === "session" ? evs[0].session_id : "" };
}
const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url: `${R}${url}`, headers: { ...alice.headers, ...headers } });

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k" });
  alice = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  agentId = (await t.app.inject({ method: "POST", url: "/aiagent_api/agent/quick/add", headers: alice.headers, payload: {} })).json().data
    .agentId;
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

describe("reply progress", () => {
  it("goes through thinking, searching, analyzing and generating when tools are used", async () => {
    const { evs } = await chat({ query: "请计算 1+2" });
    const stages = evs.flatMap((e) => (e.type === "progress" ? [e.stage] : []));
    expect([...new Set(stages)]).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("reply errors", () => {
  it("are saved as a code and worded in the language of whoever reads them", async () => {
    llm.script({ status: 503, error: "upstream overloaded at 10.0.0.7" });
    const { evs, sid } = await chat({ query: "会失败的问题" });
    expect(evs.find((e) => e.type === "error")).toMatchObject({ error_code: "modelUnavailable" });
    const zh = (await get(`/session/${sid}`)).json().data.messages[1];
    expect(zh).toMatchObject({ status: "failed", error_code: "modelUnavailable", error: "模型服务暂时无法连接，请稍后重试" });
    const en = (await get(`/session/${sid}`, { lang: "en" })).json().data.messages[1];
    expect(en.error).toBe("The model service cannot be reached right now. Please try again later.");
  });

  it("a refusal of the model (bad key) says to check the settings", async () => {
    llm.script({ status: 401, error: "invalid api key sk-xxx" });
    const { evs } = await chat({ query: "钥匙错了" });
    const err = evs.find((e) => e.type === "error");
    expect(err).toMatchObject({ error_code: "modelRejected" });
    expect(JSON.stringify(err)).not.toContain("sk-xxx");
  });
});

describe("share links", () => {
  it("opening the share popover again reuses the live token; after revoking a new one is made", async () => {
    const { sid } = await chat({ query: "分享两次" });
    const token = async () =>
      (await t.app.inject({ method: "POST", url: `${R}/share_token`, headers: alice.headers, payload: { session_id: sid } })).json().data
        .shareToken as string;
    const first = await token();
    expect(await token()).toBe(first);
    await t.app.inject({ method: "POST", url: `${R}/revoke_share`, headers: alice.headers, payload: { session_id: sid } });
    const fresh = await token();
    expect(fresh).not.toBe(first);
    expect(await token()).toBe(fresh);
  });
});

describe("message order", () => {
  it("lists a question before its reply when both were written within one tick of the clock", async () => {
    const { sid } = await chat({ query: "同一时刻" });
    // PGlite's clock has millisecond steps: a quick reply often gets its question's time.
    await t.platform.db
      .update(chatMessages)
      .set({ createdAt: new Date("2026-01-01T00:00:00Z") })
      .where(eq(chatMessages.sessionId, sid));
    const roles = (await get(`/session/${sid}`)).json().data.messages.map((m: { role: string }) => m.role);
    expect(roles).toEqual(["user", "bot"]);
  });
});

describe("markdown export", () => {
  it("writes times in the reader's zone, Asia/Shanghai by default", async () => {
    const { sid } = await chat({ query: "导出时间" });
    const detail = (await get(`/session/${sid}`)).json().data;
    const inZone = (timeZone: string) =>
      new Intl.DateTimeFormat("sv-SE", { timeZone, dateStyle: "short", timeStyle: "medium" }).format(new Date(detail.create_time));
    const md = (await get(`/export?session_id=${sid}&format=markdown`)).payload;
    expect(md).toContain(`创建时间：${inZone("Asia/Shanghai")}`);
    expect(md).not.toContain(detail.create_time);
    const ny = (await get(`/export?session_id=${sid}&format=markdown&tz=America/New_York`)).payload;
    expect(ny).toContain(`创建时间：${inZone("America/New_York")}`);
    const bad = await get(`/export?session_id=${sid}&format=markdown&tz=Not/AZone`);
    expect(bad.statusCode).toBe(200);
    expect(bad.payload).toContain(`创建时间：${inZone("Asia/Shanghai")}`);
  });
});

describe("agent info", () => {
  it("says whether this caller pays per use", async () => {
    const info = (await get(`/agent_info?id=${agentId}&release=false`)).json().data;
    expect(info).toMatchObject({ price: 0, chargesPerUse: false });
  });
});
