import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPeerApp, createTestApp, type TestApp } from "../test/harness.ts";

/** A job handler that records when each job started and waits until released. */
function gate() {
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const waiting: (() => void)[] = [];
  return {
    handler: async () => {
      started.push(Date.now());
      running++;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => waiting.push(resolve));
      running--;
    },
    releaseAll: () => {
      for (const release of waiting.splice(0)) release();
    },
    started,
    most: () => most,
  };
}

const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
};

const options = { retryLimit: 0, retryDelaySeconds: 1, expireInSeconds: 60 };

describe("jobs: announced, not waited for", () => {
  let t: TestApp;
  const one = gate();
  const three = gate();
  beforeAll(async () => {
    t = await createTestApp();
    t.platform.jobs.define("test.one", options, one.handler);
    t.platform.jobs.define("test.three", { ...options, concurrency: 3 }, three.handler);
    // The default polling (every 10 s): only the announcement can start a job within the test's time.
    await t.platform.jobs.start();
  }, 90_000);
  afterAll(async () => {
    one.releaseAll();
    three.releaseAll();
    await t.platform.jobs.stop();
    await t.close();
  });

  it("an idle worker starts a queued job at once, and the next one as soon as the first ends", async () => {
    // Let the workers' first look (at start) pass, so that they are idle and waiting.
    await new Promise((r) => setTimeout(r, 300));
    const sent = Date.now();
    await t.platform.jobs.send("test.one", {});
    await t.platform.jobs.send("test.one", {});
    await until(() => one.started.length === 1);
    expect(one.started[0]! - sent).toBeLessThan(2000);
    one.releaseAll();
    await until(() => one.started.length === 2);
    expect(one.most()).toBe(1);
  });

  it("runs up to its concurrency at once, never more", async () => {
    for (let i = 0; i < 7; i++) await t.platform.jobs.send("test.three", {});
    await until(() => three.started.length === 3);
    await new Promise((r) => setTimeout(r, 300));
    expect(three.started).toHaveLength(3);
    three.releaseAll();
    await until(() => three.started.length === 6);
    three.releaseAll();
    await until(() => three.started.length === 7);
    expect(three.most()).toBe(3);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("jobs across processes (PostgreSQL)", () => {
  let worker: TestApp;
  let web: TestApp;
  const job = gate();
  beforeAll(async () => {
    worker = await createTestApp();
    web = await createPeerApp(worker, { ROLE: "web" });
    for (const app of [worker, web]) app.platform.jobs.define("test.remote", options, job.handler);
    await worker.platform.jobs.start();
    await web.platform.jobs.start({ work: false });
  }, 90_000);
  afterAll(async () => {
    job.releaseAll();
    await web.platform.jobs.stop();
    await worker.platform.jobs.stop();
    await web.close();
    await worker.close();
  });

  it("a job queued by a web process starts at once in a worker process (the announcement goes through NOTIFY)", async () => {
    await new Promise((r) => setTimeout(r, 300));
    const sent = Date.now();
    await web.platform.jobs.send("test.remote", {});
    await until(() => job.started.length === 1);
    expect(job.started[0]! - sent).toBeLessThan(2000);
  });
});
