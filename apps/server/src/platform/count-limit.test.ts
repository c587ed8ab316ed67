import { CARD_TEMPLATES_MAX, MCP_KEYS_PER_AGENT, TASK_MAX_PER_USER } from "@agentfair/contracts";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardTemplates, mcpKeys, scheduledTasks } from "../db/schema/index.ts";
import { createUser, type TestUser } from "../test/factories.ts";
import { createTestApp, type TestApp } from "../test/harness.ts";
import { type LlmServer, startLlmServer } from "../test/llm-server.ts";
import { badRequest } from "./errors.ts";
import { insertWithinLimit } from "./count-limit.ts";

// Parallel creates at one below a count limit: exactly one gets through. A count and an insert as two
// steps let several through (on PostgreSQL 3 of 30 parallel task creates at 49 tasks, 52 against 50).
// On PGlite the transactions run one after another, but the requests' steps still interleave.

let t: TestApp;
let llm: LlmServer;
let alice: TestUser;
let agentId: string;

const PARALLEL = 30;

const call = async (user: TestUser, method: "POST" | "GET", url: string, payload?: unknown) => {
  const res = await t.app.inject({ method, url: `/aiagent_api${url}`, payload: payload as never, headers: user.headers });
  return { status: res.statusCode, ...(res.json() as { code: number; msg: string; data: Record<string, unknown> }) };
};

/** Fills a set with copies of `row` (new ids, and what `unique` gives) until it holds `n` rows. */
async function fillTo<T extends { id: string }>(
  table: Parameters<TestApp["platform"]["db"]["insert"]>[0],
  row: T,
  n: number,
  unique: () => Partial<T> = () => ({}),
) {
  const copies = Array.from({ length: n - 1 }, () => ({ ...row, id: crypto.randomUUID(), ...unique() }));
  if (copies.length) await t.platform.db.insert(table).values(copies as never);
}

async function parallel(n: number, make: () => Promise<{ code: number; msg: string }>) {
  const outcomes = await Promise.all(Array.from({ length: n }, make));
  return { ok: outcomes.filter((o) => o.code === 200).length, refused: outcomes.filter((o) => o.code !== 200).map((o) => o.msg) };
}

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k" });
  alice = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  agentId = (await call(alice, "POST", "/agent/quick/add", { agentName: "限额助手" })).data.agentId as string;
  // A debug reply first: release asks for a successful debug run.
  await t.app.inject({
    method: "POST",
    url: "/agent/agent_runtime/chat",
    payload: { token: alice.token, schema_id: agentId, release: false, query: "调试" },
  });
  expect((await call(alice, "POST", `/agent/release/${agentId}`, { notes: "" })).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await llm?.close();
});

describe("count limits under parallel creates", () => {
  it(`tasks: ${PARALLEL} parallel creates at ${TASK_MAX_PER_USER - 1} end with ${TASK_MAX_PER_USER}`, async () => {
    const body = {
      name: "简报",
      targetType: "agent",
      targetId: agentId,
      prompt: "总结",
      triggerType: "cycle",
      cycle: "daily",
      cycleTime: "09:00",
      delivery: "in_app",
    };
    const first = await call(alice, "POST", "/task", body);
    expect(first.code, first.msg).toBe(200);
    const [row] = await t.platform.db.select().from(scheduledTasks).where(eq(scheduledTasks.ownerId, alice.id));
    await fillTo(scheduledTasks, row, TASK_MAX_PER_USER - 1);
    const { ok, refused } = await parallel(PARALLEL, () => call(alice, "POST", "/task", body));
    const [{ n }] = await t.platform.db.select({ n: count() }).from(scheduledTasks).where(eq(scheduledTasks.ownerId, alice.id));
    expect(n).toBe(TASK_MAX_PER_USER);
    expect(ok).toBe(1);
    expect(new Set(refused)).toEqual(new Set([`最多创建${TASK_MAX_PER_USER}个任务`]));
  });

  it(`card templates: ${PARALLEL} parallel creates at ${CARD_TEMPLATES_MAX - 1} end with ${CARD_TEMPLATES_MAX}`, async () => {
    const body = { name: "天气", config: { type: "weather-card" } };
    expect((await call(alice, "POST", "/cards", body)).code).toBe(200);
    const [row] = await t.platform.db.select().from(cardTemplates).where(eq(cardTemplates.ownerId, alice.id));
    await fillTo(cardTemplates, row, CARD_TEMPLATES_MAX - 1);
    const { ok, refused } = await parallel(PARALLEL, () => call(alice, "POST", "/cards", body));
    const [{ n }] = await t.platform.db.select({ n: count() }).from(cardTemplates).where(eq(cardTemplates.ownerId, alice.id));
    expect(n).toBe(CARD_TEMPLATES_MAX);
    expect(ok).toBe(1);
    expect(new Set(refused)).toEqual(new Set([`卡片模板最多${CARD_TEMPLATES_MAX}个`]));
  });

  it(`MCP keys: ${PARALLEL} parallel creates at ${MCP_KEYS_PER_AGENT - 1} end with ${MCP_KEYS_PER_AGENT}`, async () => {
    const url = `/agent/${agentId}/mcp-keys`;
    expect((await call(alice, "POST", url, { name: "密钥" })).code).toBe(200);
    const [row] = await t.platform.db.select().from(mcpKeys).where(eq(mcpKeys.agentId, agentId));
    await fillTo(mcpKeys, row, MCP_KEYS_PER_AGENT - 1, () => ({ keyHash: crypto.randomUUID() }));
    const { ok, refused } = await parallel(PARALLEL, () => call(alice, "POST", url, { name: "密钥" }));
    const [{ n }] = await t.platform.db.select({ n: count() }).from(mcpKeys).where(eq(mcpKeys.agentId, agentId));
    expect(n).toBe(MCP_KEYS_PER_AGENT);
    expect(ok).toBe(1);
    expect(new Set(refused)).toEqual(new Set([`每个智能体最多创建${MCP_KEYS_PER_AGENT}个密钥`]));
  });

  it("insertWithinLimit: slow counts and inserts of one set still stop at the limit", async () => {
    // A fake set in a real table: the count is of Alice's tasks named so, with a pause between count
    // and insert wider than any scheduling gap, so without the lock every request would pass.
    const name = `limit-${crypto.randomUUID().slice(0, 8)}`;
    const [template] = await t.platform.db.select().from(scheduledTasks).where(eq(scheduledTasks.ownerId, alice.id)).limit(1);
    const pause = () => new Promise((r) => setTimeout(r, 20));
    const limit = 3;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        insertWithinLimit(t.platform.db, `test:${name}`, limit, {
          count: async (tx) => {
            const [{ n }] = await tx.select({ n: count() }).from(scheduledTasks).where(eq(scheduledTasks.name, name));
            await pause();
            return n;
          },
          refuse: (max) => badRequest("taskTooMany", { max }),
          insert: async (tx) =>
            (
              await tx
                .insert(scheduledTasks)
                .values({ ...template, id: crypto.randomUUID(), name })
                .returning()
            )[0],
        }),
      ),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(limit);
    const [{ n }] = await t.platform.db.select({ n: count() }).from(scheduledTasks).where(eq(scheduledTasks.name, name));
    expect(n).toBe(limit);
    // No limit: the insert alone, no lock taken.
    await insertWithinLimit(t.platform.db, `test:${name}`, null, {
      count: () => Promise.reject(new Error("not counted")),
      refuse: () => new Error("not refused"),
      insert: (tx) => tx.insert(scheduledTasks).values({ ...template, id: crypto.randomUUID(), name }),
    });
    const [{ n: after }] = await t.platform.db.select({ n: count() }).from(scheduledTasks).where(eq(scheduledTasks.name, name));
    expect(after).toBe(limit + 1);
  });
});
