import { sql } from "drizzle-orm";
import { afterEach, expect, it, vi } from "vitest";
import { openDatabase, withoutNul } from "./client.ts";

afterEach(() => {
  vi.useRealTimers();
});

const statistics = async (db: Awaited<ReturnType<typeof openDatabase>>["db"]) => {
  const result = (await db.execute(
    sql`select count(*)::int as n from pg_statistic s join pg_class c on c.oid = s.starelid where c.relname = 'rate_counters'`,
  )) as unknown as { rows: { n: number }[] };
  return result.rows[0]!.n;
};

it("PGlite takes its planner statistics within minutes of opening, not only after the first hour", async () => {
  vi.useFakeTimers({ toFake: ["setInterval", "setTimeout", "clearInterval", "clearTimeout"] });
  const database = await openDatabase({});
  try {
    await database.db.execute(sql`insert into rate_counters (key, window_start, count) values ('k', now(), 1)`);
    expect(await statistics(database.db)).toBe(0);
    // A process that lives less than an hour (restarts, a crash loop) must get them too.
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    await vi.waitFor(async () => expect(await statistics(database.db)).toBeGreaterThan(0), { timeout: 10_000 });
  } finally {
    vi.useRealTimers();
    await database.close();
  }
});

it("withoutNul drops U+0000 from strings at any depth, keys included, and leaves other values as they are", () => {
  const at = new Date(0);
  const value = withoutNul({ a: "x\u0000y", list: ["\u0000", 1, null, { "k\u0000": [true, "z\u0000"] }], at });
  expect(value).toEqual({ a: "xy", list: ["", 1, null, { k: [true, "z"] }], at });
  expect(value.at).toBe(at);
  const clean = { a: "b" };
  expect(withoutNul("plain")).toBe("plain");
  expect(withoutNul(clean)).toEqual(clean);
});
