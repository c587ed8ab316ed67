import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateCounters, rateLeases } from "../db/schema/index.ts";
import { AppError } from "./errors.ts";
import { createTestApp, type TestApp } from "../test/harness.ts";

describe("rate limiter", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  const limiter = () => t.platform.rateLimiter;

  it("take: parallel tries get no more than the limit; a released try is given back", async () => {
    const results = await Promise.allSettled(Array.from({ length: 30 }, () => limiter().take("unit:take", 10, 3600)));
    const claims = results.filter((r) => r.status === "fulfilled");
    expect(claims.length).toBe(10);
    await claims[0].value.release();
    await claims[0].value.release();
    await limiter().take("unit:take", 10, 3600);
    await expect(limiter().take("unit:take", 10, 3600)).rejects.toMatchObject({ status: 429 });
  });

  it("take with an amount: counts that much (tokens), refuses past the limit and gives it all back", async () => {
    const used = await limiter().take("unit:amount", 100, 3600, undefined, 60);
    await expect(limiter().take("unit:amount", 100, 3600, undefined, 50)).rejects.toMatchObject({ status: 429 });
    await limiter().take("unit:amount", 100, 3600, undefined, 40);
    await used.release();
    await limiter().take("unit:amount", 100, 3600, undefined, 60);
  });

  it("takeAll: several limits in one claim; refused as a whole by the first full one, whose error it is, and given back", async () => {
    const full = () => new AppError("chatTooFast", 429, { seconds: 1 });
    await limiter().take("unit:all:b", 1, 3600);
    const both = [
      { key: "unit:all:a", limit: 5, windowSeconds: 3600 },
      { key: "unit:all:b", limit: 1, windowSeconds: 3600, refuse: full },
    ];
    await expect(limiter().takeAll(both)).rejects.toMatchObject({ key: "chatTooFast" });
    // The refused claim took nothing from the other limit either.
    const counts = await t.platform.db
      .select()
      .from(rateCounters)
      .where(inArray(rateCounters.key, ["unit:all:a", "unit:all:b"]));
    expect(Object.fromEntries(counts.map((c) => [c.key, c.count]))).toEqual({ "unit:all:a": 0, "unit:all:b": 1 });
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => limiter().takeAll([both[0]!, { key: "unit:all:c", limit: 3, windowSeconds: 3600 }])),
    );
    const claims = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    expect(claims.length).toBe(3);
    await claims[0]!.release();
    const after = await t.platform.db
      .select()
      .from(rateCounters)
      .where(inArray(rateCounters.key, ["unit:all:a", "unit:all:c"]));
    expect(Object.fromEntries(after.map((c) => [c.key, c.count]))).toEqual({ "unit:all:a": 2, "unit:all:c": 2 });
  });

  it("lease: parallel holders get no more than the limit; released places are free again", async () => {
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => limiter().lease("unit:lease", 3, 60)));
    const held = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    expect(held.length).toBe(3);
    for (const lease of held) await lease.release();
    const again = await limiter().lease("unit:lease", 3, 60);
    await again.release();
  });

  it("lease: the place of a holder that stopped renewing (a dead process) expires", async () => {
    await limiter().lease("unit:dead", 1, 60);
    await expect(limiter().lease("unit:dead", 1, 60)).rejects.toMatchObject({ status: 429 });
    // The process died: nobody renews its lease, which runs out.
    await t.platform.db
      .update(rateLeases)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(rateLeases.key, "unit:dead"));
    const next = await limiter().lease("unit:dead", 1, 60);
    await next.release();
  });
});
