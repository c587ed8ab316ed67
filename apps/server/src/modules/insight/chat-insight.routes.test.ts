import { type AgentDraft, parseChatEvent } from "@agentfair/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatInsights } from "../../db/schema/index.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";
import { agentSteps } from "../agents/agents.fixtures.ts";
import { parseAnalysis } from "./chat-insight.service.ts";

/** Chat insight on ordinary agents: an analysis of each conversation, for the agent's owner only. */
let t: TestApp;
let llm: LlmServer;
let owner: TestUser;
let chatter: TestUser;
let stranger: TestUser;
let agentId: string;
let plainId: string;

const R = "/agent/agent_runtime";
const insightOn = (features: string[]): Partial<AgentDraft> => ({
  chatOption: {
    prologue: "",
    presetQuestions: [],
    enableFastConfigRuleOnChat: false,
    enableChatInsight: true,
    chatInsightFeatures: features,
  },
});

async function chat(user: TestUser, schemaId: string, query: string, sessionId?: string) {
  const res = await t.app.inject({
    method: "POST",
    url: `${R}/chat`,
    payload: { token: user.token, schema_id: schemaId, release: true, query, ...(sessionId ? { session_id: sessionId } : {}) },
  });
  const first = parseChatEvent(res.payload.split("\n")[0]);
  return first?.type === "session" ? first.session_id : "";
}

const list = (user: TestUser | null, id: string) =>
  t.app.inject({ url: `${R}/chat_insight_list?agent_id=${id}`, headers: user?.headers ?? {} });

async function settled(sessionId: string) {
  for (let i = 0; i < 100; i++) {
    const [row] = await t.platform.db.select().from(chatInsights).where(eq(chatInsights.sessionId, sessionId));
    if (row && (row.status === "DONE" || row.status === "FAILED")) return row;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the analysis never finished");
}

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k" });
  await t.platform.jobs.start({ pollingIntervalSeconds: 0.5 });
  const admin = await createUser(t, { username: "admin" });
  owner = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  chatter = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  stranger = await createUser(t, { domain: "chinsother", memberLevel: "PER_FLAGSHIP_MONTHLY" });
  const s = agentSteps(t);
  agentId = await s.listed(owner, admin, { name: "洞察助手", patch: insightOn(["topics", "sentiment"]) });
  plainId = await s.listed(owner, admin, { name: "普通助手" });
}, 120_000);
afterAll(async () => {
  await t.close();
  await llm.close();
});

describe("chat insight", () => {
  let sid = "";
  it("analyses a conversation with the agent's model after it, with the features the agent asked for", async () => {
    sid = await chat(chatter, agentId, "怎么退货？");
    await settled(sid);
    await chat(chatter, agentId, "我对物流很不满意，多久能到？", sid);
    const res = await list(owner, agentId);
    expect(res.statusCode).toBe(200);
    const row = await settled(sid);
    expect(row.status).toBe("DONE");
    const { list: items, total } = (await list(owner, agentId)).json().data;
    expect(total).toBe(1);
    expect(items[0]).toMatchObject({
      sessionId: sid,
      status: "DONE",
      analysis: { summary: "用户询问了：怎么退货？", topics: ["怎么退货？"], sentiment: "negative" },
    });
    // Open questions were not asked for.
    expect(items[0].analysis.openQuestions).toBeUndefined();
    expect(items[0].messageCount).toBe(4);
  });
  it("is the owner's only: the chatter, another tenant and anonymous callers read nothing", async () => {
    expect((await list(chatter, agentId)).json().data).toEqual({ list: [], total: 0 });
    expect((await list(stranger, agentId)).json().data).toEqual({ list: [], total: 0 });
    expect((await list(null, agentId)).statusCode).toBe(403);
    expect((await t.app.inject({ url: `${R}/chat_insight_list`, headers: owner.headers })).statusCode).toBe(400);
  });
  it("does nothing for agents without chat insight", async () => {
    const plainSid = await chat(chatter, plainId, "你好");
    await new Promise((r) => setTimeout(r, 300));
    expect(await t.platform.db.select().from(chatInsights).where(eq(chatInsights.sessionId, plainSid))).toEqual([]);
    expect((await list(owner, plainId)).json().data.total).toBe(0);
  });
  it("goes when the chatter deletes the conversation", async () => {
    const del = await t.app.inject({ method: "POST", url: `${R}/delete_session`, headers: chatter.headers, payload: { session_id: sid } });
    expect(del.statusCode).toBe(200);
    expect((await list(owner, agentId)).json().data.total).toBe(0);
  });
});

describe("reading the model's analysis", () => {
  it("keeps only the asked features and refuses what is not the analysis", () => {
    const text = '好的：{"summary":"s","topics":["a"],"sentiment":"positive","openQuestions":["q"]}';
    expect(parseAnalysis(text, ["sentiment"])).toEqual({ summary: "s", sentiment: "positive" });
    expect(parseAnalysis('{"summary":"s","sentiment":"angry"}', ["sentiment"])).toBeNull();
    expect(parseAnalysis("no json", ["topics"])).toBeNull();
  });
});
