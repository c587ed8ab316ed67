import pino from "pino";
import { LRUCache } from "lru-cache";
import { describe, expect, it } from "vitest";
import type { Database } from "../db/client.ts";
import { Invalidation } from "./invalidation.ts";

/** One process without PostgreSQL: invalidations are delivered here at once. */
const invalidation = () => new Invalidation({} as Database, pino({ level: "silent" }));

describe("reading through a cache", () => {
  it("misses of one key read it once while no invalidation comes between", async () => {
    const inv = invalidation();
    const cache = new LRUCache<string, { n: number }>({ max: 10 });
    let reads = 0;
    const load = async () => {
      reads++;
      await new Promise((r) => setTimeout(r, 20));
      return { n: reads };
    };
    const answers = await Promise.all([1, 2, 3].map(() => inv.cached("agent", cache, "k", load)));
    expect(reads).toBe(1);
    expect(answers.map((a) => a?.n)).toEqual([1, 1, 1]);
    expect(cache.get("k")?.n).toBe(1);
  });

  it("attack: a miss after an invalidation reads anew instead of waiting for a read that began before it", async () => {
    const inv = invalidation();
    const cache = new LRUCache<string, { n: number }>({ max: 10 });
    let value = 1;
    const load = async () => {
      const read = value;
      await new Promise((r) => setTimeout(r, 20));
      return { n: read };
    };
    const early = inv.cached(["agent", "agentUse"], cache, "k", load);
    value = 2;
    await inv.publish("agentUse", "id");
    const late = inv.cached(["agent", "agentUse"], cache, "k", load);
    expect((await early)?.n).toBe(1);
    expect((await late)?.n).toBe(2);
    // The early read is not kept: it may be what the invalidation was about.
    expect(cache.get("k")?.n).toBe(2);
  });

  it("a failed read fails those waiting for it, and the next miss reads again", async () => {
    const inv = invalidation();
    const cache = new LRUCache<string, { n: number }>({ max: 10 });
    const failing = async (): Promise<{ n: number }> => {
      await new Promise((r) => setTimeout(r, 10));
      throw new Error("database down");
    };
    const both = [inv.cached("agent", cache, "k", failing), inv.cached("agent", cache, "k", failing)];
    for (const p of both) await expect(p).rejects.toThrow("database down");
    expect(await inv.cached("agent", cache, "k", async () => ({ n: 3 }))).toEqual({ n: 3 });
  });
});
