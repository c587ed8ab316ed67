import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { agents } from "../../db/schema/index.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createPeerApp, createTestApp, type TestApp } from "../../test/harness.ts";
import { agentSteps } from "./agents.fixtures.ts";
import { AgentsRepository } from "./agents.repository.ts";

interface Card {
  agentId: string;
  agentName: string;
  price: number;
  taskNum: number;
  mine: boolean;
}

/** Marketplace pages are cached: no change to a listing may be missed by them, in any process. */
describe("the marketplace's page cache", () => {
  let t: TestApp;
  let s: ReturnType<typeof agentSteps>;
  let owner: TestUser;
  let hirer: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    s = agentSteps(t);
    owner = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
    hirer = await createUser(t);
    admin = await createUser(t, { username: "admin" });
  });
  afterAll(async () => t.close());

  const page = async (app: TestApp, user: TestUser, body: object = {}) => {
    const res = await app.app.inject({ method: "POST", url: "/agent_api/api/agent/launch/page", payload: body, headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { list: Card[]; total: number };
  };
  const card = async (app: TestApp, user: TestUser, id: string) => (await page(app, user)).list.find((c) => c.agentId === id);
  /**
   * Whether `app` answers its cached page after the use count is changed behind the cache's back;
   * the count written last. On PostgreSQL a change's own NOTIFY comes back a moment later and drops
   * the pages again, so a late echo may make one try read afresh: three tries, a pause before each.
   */
  const cachedDespiteWrite = async (app: TestApp, id: string) => {
    for (let count = 100; count < 103; count++) {
      await new Promise((r) => setTimeout(r, 200));
      const shown = (await card(app, hirer, id))?.taskNum;
      await t.platform.db.update(agents).set({ useCount: count }).where(eq(agents.id, id));
      if ((await card(app, hirer, id))?.taskNum === shown) return count;
    }
    return undefined;
  };
  /** A reply of the listed version that ended done, as the chat runtime reports it. */
  const used = async (app: TestApp, user: TestUser, id: string) => {
    const caller = (await app.platform.callers.resolve(user.token))!;
    const agents = app.services.agents;
    await agents.replyDone(await agents.runtimeAgent(caller, id, { release: true }));
  };

  it("an approval, an approved edit, a use, taking it down and deleting show on the next request", async () => {
    const before = await page(t, hirer);
    const id = await s.listed(owner, admin, { name: "缓存卡片" });
    expect((await page(t, hirer)).total).toBe(before.total + 1);
    expect(await card(t, hirer, id)).toMatchObject({ agentName: "缓存卡片", price: 0, taskNum: 0, mine: false });
    // The same cached page, with the owner's own card marked for the owner only.
    expect(await card(t, owner, id)).toMatchObject({ mine: true });
    expect(await card(t, hirer, id)).toMatchObject({ mine: false });

    expect((await s.call(owner, "PUT", `/agent_api/api/agent/intro/${id}`, { agentName: "新名卡片", price: 3 })).statusCode).toBe(200);
    expect(await card(t, hirer, id)).toMatchObject({ agentName: "缓存卡片", price: 0 });
    await s.approvePending(admin, id);
    expect(await card(t, hirer, id)).toMatchObject({ agentName: "新名卡片", price: 3 });
    expect((await page(t, hirer, { name: "新名" })).list.map((c) => c.agentId)).toEqual([id]);

    // Changed behind the cache's back: the page answered is the cached one.
    const written = await cachedDespiteWrite(t, id);
    expect(written).toBeDefined();
    await used(t, hirer, id);
    expect(await card(t, hirer, id)).toMatchObject({ taskNum: written! + 1 });
    // Most used first: its use puts it ahead of every unused listing.
    expect((await page(t, hirer)).list[0].agentId).toBe(id);

    expect((await s.call(owner, "PUT", `/agent_api/api/agent/launchVersionDisabled/${id}`, { disabled: true })).statusCode).toBe(200);
    expect(await card(t, hirer, id)).toBeUndefined();
    expect((await page(t, hirer, { name: "新名" })).list).toEqual([]);
    expect((await s.call(admin, "PUT", `/agent_api/api/agent/launchVersionDisabled/${id}`, { disabled: false })).statusCode).toBe(200);
    expect(await card(t, hirer, id)).toBeDefined();

    expect((await s.call(owner, "DELETE", `/agent_api/api/agent/${id}`)).statusCode).toBe(200);
    expect(await card(t, hirer, id)).toBeUndefined();
    expect((await page(t, hirer)).total).toBe(before.total);
  });

  it("many uses in a row read the pages again at most twice a second, and the last use shows within one", async () => {
    const id = await s.listed(owner, admin, { name: "常用卡片" });
    // The refresh after the uses of the test before has passed.
    await new Promise((r) => setTimeout(r, 1100));
    await card(t, hirer, id);
    const reads = vi.spyOn(AgentsRepository.prototype, "marketPage");
    try {
      // The first use shows at once.
      await used(t, hirer, id);
      expect(await card(t, hirer, id)).toMatchObject({ taskNum: 1 });
      for (let i = 0; i < 20; i++) {
        await used(t, hirer, id);
        await card(t, hirer, id);
      }
      expect(reads.mock.calls.length).toBeLessThanOrEqual(3);
      await expect.poll(async () => (await card(t, hirer, id))?.taskNum, { timeout: 2000, interval: 50 }).toBe(21);
    } finally {
      reads.mockRestore();
    }
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)("a change in one process shows in the others' cached pages within a second", async () => {
    const peer = await createPeerApp(t);
    const soon = { timeout: 1000, interval: 20 };
    try {
      const id = await s.listed(owner, admin, { name: "多进程卡片" });
      // Read twice: the second answer comes from the peer's cache.
      expect(await card(peer, hirer, id)).toMatchObject({ agentName: "多进程卡片", taskNum: 0 });
      expect(await card(peer, hirer, id)).toMatchObject({ agentName: "多进程卡片", taskNum: 0 });

      expect((await s.call(owner, "PUT", `/agent_api/api/agent/intro/${id}`, { agentName: "改名卡片" })).statusCode).toBe(200);
      await s.approvePending(admin, id);
      await expect.poll(async () => (await card(peer, hirer, id))?.agentName, soon).toBe("改名卡片");

      await used(t, hirer, id);
      await expect.poll(async () => (await card(peer, hirer, id))?.taskNum, soon).toBe(1);
      // The peer answers from its cache: a write behind its back is not seen.
      expect(await cachedDespiteWrite(peer, id)).toBeDefined();

      expect((await s.call(owner, "PUT", `/agent_api/api/agent/launchVersionDisabled/${id}`, { disabled: true })).statusCode).toBe(200);
      await expect.poll(async () => card(peer, hirer, id), soon).toBeUndefined();

      // And the other way: a new listing approved on the peer shows here.
      expect(await card(t, hirer, id)).toBeUndefined();
      expect(
        (
          await peer.app.inject({
            method: "PUT",
            url: `/agent_api/api/agent/launchVersionDisabled/${id}`,
            payload: { disabled: false },
            headers: admin.headers,
          })
        ).statusCode,
      ).toBe(200);
      await expect.poll(async () => (await card(t, hirer, id))?.agentName, soon).toBe("改名卡片");
    } finally {
      await peer.close();
    }
  });
});
