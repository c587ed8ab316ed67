import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { chatStreamEvents, chatStreams } from "../../db/schema/index.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { ReplyStreams } from "./reply-streams.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

it("a stream whose events the database refuses costs the other streams of its batch nothing", async () => {
  const streams = new ReplyStreams(t.platform);
  const open = (id: string) => streams.open(id, `s-${id}`, "u", new AbortController(), new AbortController().signal);
  const good = open("good-stream");
  const bad = open("bad-stream");
  // Written together in one batch: PostgreSQL refuses a NUL character in jsonb.
  good.push({ type: "content", delta: "好的" });
  bad.push({ type: "content", delta: "坏\u0000" });
  good.push({ type: "content", delta: "回答" });
  await Promise.all([good.close(), bad.close()]);
  const written = await t.platform.db.select().from(chatStreamEvents).where(eq(chatStreamEvents.streamId, "good-stream"));
  expect(written.flatMap((r) => r.events as { delta: string }[]).map((e) => e.delta)).toEqual(["好的", "回答"]);
  const [ended] = await t.platform.db
    .select()
    .from(chatStreams)
    .where(and(eq(chatStreams.id, "good-stream")));
  expect(ended.endedAt).not.toBeNull();
});
