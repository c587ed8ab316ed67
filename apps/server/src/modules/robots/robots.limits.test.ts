import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { robotUsers } from "../../db/schema/index.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { alignClock, restoreClock } from "../../test/clock.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";
import { webhookPeer } from "./robots.fixtures.ts";

/** Robot replies take the web chat's limits: requests per user per minute and concurrent streams. */
const M = "/aiagent_api/robots";
const SECRET = "limits-secret";
let t: TestApp;
let llm: LlmServer;
let alice: TestUser;
let robotId: string;
let peer: Awaited<ReturnType<typeof webhookPeer>>;

const say = (messageId: string, userId: string, text: string) => peer.say(t, robotId, messageId, userId, text);

beforeAll(async () => {
  alignClock();
  llm = await startLlmServer();
  peer = await webhookPeer(SECRET);
  const replyUrl = peer.replyUrl;
  t = await createTestApp({
    MODEL_BASE_URL: llm.url,
    MODEL_NAME: "test-model",
    MODEL_API_KEY: "k",
    NET_ALLOW_HOSTS: "127.0.0.1",
    CHAT_PER_MINUTE: "3",
    CHAT_STREAMS_PER_USER: "1",
  });
  await t.platform.jobs.start({ pollingIntervalSeconds: 0.5 });
  alice = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  const agentId = (
    await t.app.inject({ method: "POST", url: "/aiagent_api/agent/quick/add", headers: alice.headers, payload: { agentName: "限流客服" } })
  ).json().data.agentId;
  await t.app.inject({
    method: "POST",
    url: "/agent/agent_runtime/chat",
    payload: { token: alice.token, schema_id: agentId, release: false, query: "调试" },
  });
  await t.app.inject({ method: "POST", url: `/aiagent_api/agent/release/${agentId}`, headers: alice.headers, payload: { notes: "" } });
  const robot = await t.app.inject({
    method: "POST",
    url: M,
    headers: alice.headers,
    payload: { name: "限流机器人", type: "webhook", agentId, enabled: true, settings: { replyUrl }, secrets: { secret: SECRET } },
  });
  robotId = robot.json().data.id;
});
afterAll(async () => {
  restoreClock();
  await t.platform.jobs.stop();
  await t.close();
  await llm.close();
  await peer.close();
});

describe("robot replies under the chat limits", () => {
  it("a robot user past the stream limit, then past the minute's requests, is told so instead of answered", async () => {
    // Alice's own agent, not shared with her tenant: her account answers, under her limits
    // (her debug chat was the minute's first request).
    expect(await say("l-1", "u-1", "你好")).not.toContain("频繁");
    const [mapping] = await t.platform.db.select().from(robotUsers).where(eq(robotUsers.robotId, robotId));
    expect(mapping.sessionUserId).toBe(alice.id);
    // Another reply of hers still streaming (held here): no second stream.
    const held = await t.platform.rateLimiter.lease(`chat:streams:${alice.id}`, 1, 60);
    expect(await say("l-2", "u-1", "第二个问题")).toBe("同时进行的对话过多（最多1个），请等当前回复结束后再试");
    await held.release();
    // A refused stream did not count toward the minute: one more answers, the next is refused.
    expect(await say("l-3", "u-1", "第三个问题")).not.toContain("频繁");
    expect(await say("l-4", "u-2", "第四个问题")).toMatch(/^对话请求过于频繁，请\d+秒后再试$/);
  });
});
