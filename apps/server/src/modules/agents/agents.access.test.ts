import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { agentSteps } from "./agents.fixtures.ts";

/**
 * One table of every agents call against one owner's released but unlisted agent, called by
 * the owner, another user, a user of another tenant, an anonymous visitor and the administrator.
 * 'ok' is 200; 403 is 'token失效' (no sign-in); 404 hides objects; 401 is 'no permission'.
 */
let t: TestApp;
let s: ReturnType<typeof agentSteps>;
const who: Record<string, TestUser | null> = {};
let agentId = "";
let applyId = "";

beforeAll(async () => {
  t = await createTestApp();
  s = agentSteps(t);
  who.owner = await createUser(t, { memberLevel: "MONTHLY" });
  who.other = await createUser(t);
  who.foreign = await createUser(t, { domain: "acme" });
  who.anonymous = null;
  who.admin = await createUser(t, { username: "admin" });
});
afterAll(async () => {
  await t.close();
});

type Row = [
  name: string,
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: () => string,
  body: (() => object) | undefined,
  expected: Record<string, number>,
];
const ALL = (owner: number, other: number, foreign: number, anonymous: number, admin: number) => ({
  owner,
  other,
  foreign,
  anonymous,
  admin,
});

describe("access matrix on a private (released, unlisted) agent", () => {
  it("answers every call with the right status for each caller", async () => {
    agentId = await s.released(who.owner!, {}, "私有助手");
    const draftBody = async () => (await s.draft(who.owner!, agentId)).draft;
    const draft = await draftBody();
    const rows: Row[] = [
      ["detail", "GET", () => `/agent_api/api/agent/detail/${agentId}`, undefined, ALL(200, 404, 404, 404, 200)],
      ["release schema", "GET", () => `/agent_api/api/remote/agent/schema/release/${agentId}`, undefined, ALL(200, 404, 404, 404, 200)],
      ["widget", "GET", () => `/agent_api/api/widget/${agentId}`, undefined, ALL(200, 404, 404, 404, 200)],
      ["was-copied", "GET", () => `/agent_api/api/agent/was-copied/${agentId}`, undefined, ALL(200, 404, 404, 403, 200)],
      ["addCounts", "POST", () => "/agent_api/api/agentSession/addCounts", () => ({ agentId }), ALL(200, 404, 404, 403, 200)],
      ["draft get", "GET", () => `/aiagent_api/agent/draft/${agentId}`, undefined, ALL(200, 404, 404, 403, 200)],
      ["draft put", "PUT", () => `/aiagent_api/agent/draft/${agentId}`, () => draft, ALL(200, 404, 404, 403, 200)],
      ["versions", "GET", () => `/aiagent_api/agent/versions/${agentId}`, undefined, ALL(200, 404, 404, 403, 200)],
      ["version", "GET", () => `/aiagent_api/agent/version/${agentId}/1`, undefined, ALL(200, 404, 404, 403, 200)],
      ["intro", "PUT", () => `/agent_api/api/agent/intro/${agentId}`, () => ({ agentName: "私有助手" }), ALL(200, 404, 404, 403, 200)],
      [
        "shelf",
        "PUT",
        () => `/agent_api/api/agent/launchVersionDisabled/${agentId}`,
        () => ({ disabled: true }),
        ALL(400, 404, 404, 403, 400),
      ],
      ["copy", "POST", () => `/agent_api/api/agent/quick/copy-from-launch/${agentId}`, undefined, ALL(200, 404, 404, 403, 200)],
      ["copy share", "POST", () => `/agent_api/api/agent/quick/copy-from-launch_share/${agentId}`, undefined, ALL(200, 404, 404, 403, 200)],
      ["review queue", "POST", () => "/agent_api/api/agentApply/page", () => ({}), ALL(401, 401, 401, 403, 200)],
      ["labels", "GET", () => "/agent_api/api/lables/list", undefined, ALL(200, 200, 200, 200, 200)],
      ["marketplace", "POST", () => "/agent_api/api/agent/launch/page", () => ({}), ALL(200, 200, 200, 200, 200)],
      ["my agents", "POST", () => "/agent_api/api/agent/page-created-by-me", () => ({}), ALL(200, 200, 200, 200, 200)],
      // The studio's membership gate: a FREE user of the public platform (other) may not create agents.
      ["quick add", "POST", () => "/aiagent_api/agent/quick/add", () => ({ agentName: "新助手" }), ALL(200, 400, 200, 403, 200)],
      ["icon list", "GET", () => "/agent_api/api/files/icon/list", undefined, ALL(200, 200, 200, 403, 200)],
      ["use counts", "GET", () => "/agent/agent_runtime/schema_use_count", undefined, ALL(200, 200, 200, 200, 200)],
    ];
    const mismatches: string[] = [];
    for (const [name, method, url, body, expected] of rows) {
      for (const [role, user] of Object.entries(who)) {
        const res = await s.call(user, method, url(), body?.());
        if (res.statusCode !== expected[role])
          mismatches.push(`${name} as ${role}: ${res.statusCode} (expected ${expected[role]}) ${res.body.slice(0, 120)}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("submits for listing (owner, administrator) and reviews (administrator only)", async () => {
    const expectSubmit = ALL(200, 404, 404, 403, 200);
    for (const [role, user] of Object.entries(who)) {
      const res = await s.call(user, "POST", "/agent_api/api/agentApply/saveInfo", { agentId });
      expect(res.statusCode, role).toBe(expectSubmit[role as keyof typeof expectSubmit]);
    }
    const queue = (await s.call(who.admin, "POST", "/agent_api/api/agentApply/page", { status: "PENDING" })).json().data;
    expect(queue.list.filter((a: { agentId: string }) => a.agentId === agentId)).toHaveLength(1);
    applyId = queue.list.find((a: { agentId: string }) => a.agentId === agentId).id;
    for (const role of ["owner", "other", "foreign", "anonymous"]) {
      const expected = role === "anonymous" ? 403 : 401;
      expect((await s.call(who[role], "POST", `/agent_api/api/agentApply/reject/${applyId}`, { reason: "x" })).statusCode, role).toBe(
        expected,
      );
      expect((await s.call(who[role], "POST", `/agent_api/api/agentApply/approve/${applyId}`)).statusCode, role).toBe(expected);
    }
    expect((await s.call(who.admin, "POST", `/agent_api/api/agentApply/approve/${applyId}`)).statusCode).toBe(200);
    // Now listed on the public platform: every caller reads it; writes stay the owner's.
    for (const role of ["other", "foreign", "anonymous"]) {
      expect((await s.call(who[role], "GET", `/agent_api/api/agent/detail/${agentId}`)).statusCode, role).toBe(200);
      expect((await s.call(who[role], "GET", `/aiagent_api/agent/draft/${agentId}`)).statusCode, role).toBe(
        role === "anonymous" ? 403 : 404,
      );
      expect((await s.call(who[role], "DELETE", `/agent_api/api/agent/${agentId}`)).statusCode, role).toBe(
        role === "anonymous" ? 403 : 404,
      );
    }
    // Deleting by the administrator and then by the owner: gone for everyone.
    expect((await s.call(who.admin, "DELETE", `/agent_api/api/agent/${agentId}`)).statusCode).toBe(200);
    expect((await s.call(who.owner, "GET", `/agent_api/api/agent/detail/${agentId}`)).statusCode).toBe(404);
    expect((await s.market(who.other, { name: "私有助手" })).total).toBe(0);
  });
});
