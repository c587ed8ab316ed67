import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createPeerApp, createTestApp, type TestApp } from "../../test/harness.ts";
import { agentSteps } from "./agents.fixtures.ts";

/** Released runs read agents through a cache: no change to an agent may be missed by it. */
describe("the runtime's agent cache", () => {
  let t: TestApp;
  let s: ReturnType<typeof agentSteps>;
  let owner: TestUser;
  let hirer: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    s = agentSteps(t);
    owner = await createUser(t, { memberLevel: "MONTHLY" });
    hirer = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
    admin = await createUser(t, { username: "admin" });
  });
  afterAll(async () => t.close());

  const run = async (app: TestApp, user: TestUser, id: string) =>
    app.services.agents.runtimeAgent((await app.platform.callers.resolve(user.token))!, id, { release: true });

  it("an approved new price, a new release and taking it off the shelf count from the next reply", async () => {
    const id = await s.listed(owner, admin, { name: "缓存助手" });
    expect((await run(t, hirer, id)).priceCents).toBe(0);
    expect((await s.call(owner, "PUT", `/agent_api/api/agent/intro/${id}`, { agentName: "缓存助手", price: 2 })).statusCode).toBe(200);
    // A new price of a listed agent waits for review; the approval reaches the next reply.
    expect((await run(t, hirer, id)).priceCents).toBe(0);
    await s.approvePending(admin, id);
    expect((await run(t, hirer, id)).priceCents).toBe(200);

    expect((await s.save(owner, id, { persona: "第二版" })).statusCode).toBe(200);
    expect((await run(t, owner, id)).persona).toBe("你是一名测试助手");
    await s.debugOk(owner, id);
    expect((await s.release(owner, id)).statusCode).toBe(200);
    // The owner runs the newest release; hirers keep the approved one.
    expect((await run(t, owner, id)).persona).toBe("第二版");
    expect((await run(t, hirer, id)).persona).toBe("你是一名测试助手");

    expect((await s.call(owner, "PUT", `/agent_api/api/agent/launchVersionDisabled/${id}`, { disabled: true })).statusCode).toBe(200);
    await expect(run(t, hirer, id)).rejects.toMatchObject({ status: 404 });
  });

  it("attack: a deleted agent cannot be run, even by a hirer who ran it a moment ago", async () => {
    const id = await s.listed(owner, admin, { name: "删除助手" });
    await run(t, hirer, id);
    expect((await s.call(owner, "DELETE", `/agent_api/api/agent/${id}`)).statusCode).toBe(200);
    await expect(run(t, hirer, id)).rejects.toMatchObject({ status: 404 });
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)("attack: deleting in one process stops runs in the others", async () => {
    const peer = await createPeerApp(t);
    try {
      const id = await s.listed(owner, admin, { name: "多进程助手" });
      await run(peer, hirer, id);
      await run(peer, hirer, id);
      expect((await s.call(owner, "DELETE", `/agent_api/api/agent/${id}`)).statusCode).toBe(200);
      await expect
        .poll(
          async () =>
            run(peer, hirer, id).then(
              () => "runs",
              (err) => err.status,
            ),
          { timeout: 3000, interval: 20 },
        )
        .toBe(404);
    } finally {
      await peer.close();
    }
  });
});
