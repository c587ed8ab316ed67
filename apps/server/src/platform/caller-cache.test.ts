import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LISTENER_NAME } from "../db/client.ts";
import { users } from "../db/schema/index.ts";
import { API, caller, paySandbox, seedCatalog } from "../modules/billing/billing.fixtures.ts";
import { createUser } from "../test/factories.ts";
import { createPeerApp, createTestApp, type TestApp } from "../test/harness.ts";

/** The caller cache must never outlive what it caches: sessions, levels, roles. */
describe("caller cache", () => {
  let t: TestApp;
  let plans: Awaited<ReturnType<typeof seedCatalog>>;
  beforeAll(async () => {
    t = await createTestApp();
    plans = await seedCatalog(t);
  });
  afterAll(async () => t.close());

  const level = async (token: string) => (await t.platform.callers.resolve(token))?.memberLevel;

  it("attack: a logged-out token is refused on the very next request", async () => {
    const u = await createUser(t);
    const info = () => t.app.inject({ url: `${API}/userinfo/findUserInfo`, headers: u.headers });
    expect((await info()).statusCode).toBe(200);
    expect((await t.app.inject({ method: "POST", url: "/agent_api/api/auth/logout", headers: u.headers })).statusCode).toBe(200);
    expect((await info()).statusCode).toBe(403);
  });

  it("a paid membership counts from the next request on", async () => {
    const u = await createUser(t);
    expect(await level(u.token)).toBe("FREE");
    const api = caller(t, u.headers);
    const durations = (await api.post("/monthConfig/getList")).json().data;
    const order = (
      await api.post(`/order/${plans.PER_FLAGSHIP_MONTHLY.id}/create`, { configId: durations[0].id, renewUpgrade: "UPGRADE" })
    ).json().data;
    await paySandbox(t, order.payUrl);
    expect(await level(u.token)).toBe("PER_FLAGSHIP_MONTHLY");
  });

  it("a membership that ends is FREE at once, with no message needed", async () => {
    const u = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
    await t.platform.db
      .update(users)
      .set({ memberEndAt: new Date(Date.now() + 300) })
      .where(eq(users.id, u.id));
    await t.platform.invalidate("user", u.id);
    expect(await level(u.token)).toBe("PER_FLAGSHIP_MONTHLY");
    await new Promise((r) => setTimeout(r, 350));
    expect(await level(u.token)).toBe("FREE");
  });

  it("a lookup that an invalidation overtakes is not kept", async () => {
    const u = await createUser(t);
    const pending = t.platform.callers.resolve(u.token);
    await t.platform.invalidate("user", u.id);
    expect((await pending)?.memberLevel).toBe("FREE");
    // Changed behind the cache's back: only a lookup that was not kept sees it.
    await t.platform.db.update(users).set({ memberLevel: "MONTHLY" }).where(eq(users.id, u.id));
    expect(await level(u.token)).toBe("MONTHLY");
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)("attack: logging out in one process refuses the token in the others", async () => {
    const peer = await createPeerApp(t);
    try {
      const u = await createUser(t);
      const info = (app: TestApp) => app.app.inject({ url: `${API}/userinfo/findUserInfo`, headers: u.headers });
      expect((await info(peer)).statusCode).toBe(200);
      expect((await info(peer)).statusCode).toBe(200);
      await t.app.inject({ method: "POST", url: "/agent_api/api/auth/logout", headers: u.headers });
      await expect.poll(async () => (await info(peer)).statusCode, { timeout: 3000, interval: 20 }).toBe(403);
    } finally {
      await peer.close();
    }
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    "a lost listening connection comes back and empties the caches; stopping closes it",
    async () => {
      const listeners = async () =>
        Number(
          (
            (
              await t.platform.database.executeSql(
                "select count(*) as n from pg_stat_activity where application_name = $1 and datname = current_database()",
                [LISTENER_NAME],
              )
            ).rows[0] as { n: string }
          ).n,
        );
      expect(await listeners()).toBe(1);
      const u = await createUser(t);
      expect(await level(u.token)).toBe("FREE");
      await t.platform.database.executeSql(
        "select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()",
        [LISTENER_NAME],
      );
      // Changed while nobody listened: the reconnect must drop what was cached.
      await t.platform.db.update(users).set({ memberLevel: "MONTHLY" }).where(eq(users.id, u.id));
      await expect.poll(() => level(u.token), { timeout: 5000, interval: 100 }).toBe("MONTHLY");
      await expect.poll(listeners, { timeout: 5000, interval: 100 }).toBe(1);
      await t.platform.invalidation.stop();
      expect(await listeners()).toBe(0);
      await t.platform.invalidation.start();
    },
  );
});
