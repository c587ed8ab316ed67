import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freeChatUsage, planTemplates, robotUsers } from "../../db/schema/index.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";
import { agentSteps } from "../agents/agents.fixtures.ts";
import { seedCatalog } from "../billing/billing.fixtures.ts";
import { webhookPeer } from "./robots.fixtures.ts";

/**
 * Attack: every made-up sender id of a webhook robot got a guest account with a new day of free chats
 * (45 answers after the owner's day was used up). A guest chats on the robot owner's day instead.
 */
const M = "/aiagent_api/robots";
const SECRET = "quota-secret";
const DAY = 2;
let t: TestApp;
let llm: LlmServer;
let owner: TestUser;
let robotId: string;
let peer: Awaited<ReturnType<typeof webhookPeer>>;

const say = (messageId: string, userId: string, text: string) => peer.say(t, robotId, messageId, userId, text);

beforeAll(async () => {
  llm = await startLlmServer();
  peer = await webhookPeer(SECRET);
  const replyUrl = peer.replyUrl;
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k", NET_ALLOW_HOSTS: "127.0.0.1" });
  await t.platform.jobs.start({ pollingIntervalSeconds: 0.5 });
  await seedCatalog(t);
  await t.platform.db.update(planTemplates).set({ countPerDay: DAY }).where(eq(planTemplates.memberLevel, "MONTHLY"));
  owner = await createUser(t, { memberLevel: "MONTHLY" });
  const admin = await createUser(t, { username: "admin" });
  // A listed agent: a guest may read it, so the guest's own account asks it.
  const agentId = await agentSteps(t).listed(owner, admin, { name: "机器人客服" });
  const robot = await t.app.inject({
    method: "POST",
    url: M,
    headers: owner.headers,
    payload: { name: "额度机器人", type: "webhook", agentId, enabled: true, settings: { replyUrl }, secrets: { secret: SECRET } },
  });
  expect(robot.statusCode).toBe(200);
  robotId = robot.json().data.id;
});
afterAll(async () => {
  await t.platform.jobs.stop();
  await t.close();
  await llm.close();
  await peer.close();
});

describe("a robot's guests chat on the robot owner's day", () => {
  it("new sender ids bring no new chats: past the owner's day each is told so", async () => {
    for (let i = 0; i < DAY; i++) expect(await say(`q-${i}`, `sender-${i}`, "你好")).not.toContain("已用完");
    expect(await say("q-late", "sender-new", "你好")).toBe(`今日对话次数（${DAY}次）已用完，请明天再来或升级会员`);
    const counted = await t.platform.db.select().from(freeChatUsage);
    expect(counted).toEqual([expect.objectContaining({ userId: owner.id, count: DAY })]);
    // The guests were answered by their own accounts (their sessions), not the owner's.
    const mappings = await t.platform.db.select().from(robotUsers).where(eq(robotUsers.robotId, robotId));
    expect(mappings.filter((m) => m.sessionUserId && m.sessionUserId !== owner.id)).toHaveLength(DAY);
  });
});
