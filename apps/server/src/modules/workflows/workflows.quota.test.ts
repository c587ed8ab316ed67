import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freeChatUsage } from "../../db/schema/index.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";
import { seedCatalog } from "../billing/billing.fixtures.ts";
import { shanghaiDay } from "../billing/quotas.ts";
import { WORKFLOW_RUNS_PER_MINUTE } from "./workflows.service.ts";

/**
 * Attack: a free user's loop of model nodes was as many model calls as the loop ran, none of them
 * counted (2,700 answers from nine runs after the day's 20 free chats were used up). Each model call
 * of a node is now one of the day's chats of whoever started the run, and run starts are limited.
 */
let t: TestApp;
let llm: LlmServer;
let free: TestUser;

const P = "/aiagent_api";

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model" });
  free = await createUser(t);
  // The plans of the demo catalogue: MONTHLY has 200 chats a day.
  await seedCatalog(t);
});
afterAll(async () => {
  await t?.close();
  await llm?.close();
});

const call = async (user: TestUser, method: "GET" | "POST" | "PUT", url: string, payload?: unknown) => {
  const res = await t.app.inject({ method, url: `${P}${url}`, headers: { ...user.headers, lang: "zh" }, payload: payload as object });
  // biome-ignore lint/suspicious/noExplicitAny: test reads of many shapes
  return { status: res.statusCode, body: res.json() as { code: number; msg: string; data: any } };
};

let n = 0;
async function workflowWith(user: TestUser, graph: unknown) {
  n++;
  const created = await call(user, "POST", "/workflow", {
    workflowName: `循环${n}`,
    workflowDescription: "loops a model node",
    workflowCallableName: `loop_flow_${n}`,
  });
  expect(created.body.code).toBe(200);
  const id = created.body.data.id as string;
  expect((await call(user, "PUT", `/workflow/${id}/graph`, graph)).body.code).toBe(200);
  return id;
}

async function finished(runId: string, user: TestUser) {
  await t.services.workflows.settled(runId);
  for (let i = 0; i < 200; i++) {
    const r = await call(user, "GET", `/workflow/runs/${runId}`);
    if (r.body.data.status !== "RUNNING") return r.body.data;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error("run did not finish");
}

const loopGraph = (times: number) => ({
  nodes: [
    { id: "start", type: "start", data: { inputs: [] } },
    { id: "loop1", type: "loop", data: { maxIterations: times, output: "{{ask.text}}" } },
    { id: "ask", type: "llm", parentId: "loop1", data: { prompt: "第{{loop1.index}}次：你好" } },
    { id: "end", type: "end", data: { outputs: { n: "{{loop1.count}}" } } },
  ],
  edges: [
    { source: "start", target: "loop1" },
    { source: "loop1", target: "end" },
  ],
});

const usedToday = async (userId: string) =>
  (
    await t.platform.db
      .select({ count: freeChatUsage.count })
      .from(freeChatUsage)
      .where(and(eq(freeChatUsage.userId, userId), eq(freeChatUsage.day, shanghaiDay())))
  )[0]?.count ?? 0;

describe("workflow model calls and runs are counted", () => {
  it("a free user's loop of model nodes stops at the day's 20 chats, with the free-chat message", async () => {
    const id = await workflowWith(free, loopGraph(25));
    const asked = llm.requests.length;
    const run = await finished((await call(free, "POST", `/workflow/${id}/run`, { inputs: {} })).body.data.runId, free);
    expect(run.status).toBe("FAILED");
    expect(JSON.stringify(run)).toContain("今日免费对话次数（20次）已用完");
    expect(llm.requests.length - asked).toBe(20);
    expect(await usedToday(free.id)).toBe(20);
    // The next run's first model call is refused at once: nothing reaches the model.
    const again = await finished((await call(free, "POST", `/workflow/${id}/run`, { inputs: {} })).body.data.runId, free);
    expect(again.status).toBe("FAILED");
    expect(llm.requests.length - asked).toBe(20);
  });

  it("a member's model calls count toward the plan's day; the exempt are not counted", async () => {
    const member = await createUser(t, { memberLevel: "MONTHLY" });
    const id = await workflowWith(member, loopGraph(3));
    expect((await finished((await call(member, "POST", `/workflow/${id}/run`, { inputs: {} })).body.data.runId, member)).status).toBe(
      "SUCCEEDED",
    );
    expect(await usedToday(member.id)).toBe(3);
    const white = await createUser(t, { isWhite: true });
    const wid = await workflowWith(white, loopGraph(3));
    expect((await finished((await call(white, "POST", `/workflow/${wid}/run`, { inputs: {} })).body.data.runId, white)).status).toBe(
      "SUCCEEDED",
    );
    expect(await usedToday(white.id)).toBe(0);
  });

  it(`one user starts at most ${WORKFLOW_RUNS_PER_MINUTE} runs a minute`, async () => {
    const user = await createUser(t, { memberLevel: "MONTHLY" });
    const id = await workflowWith(user, {
      nodes: [
        { id: "start", type: "start", data: { inputs: [] } },
        { id: "end", type: "end", data: { outputs: {} } },
      ],
      edges: [{ source: "start", target: "end" }],
    });
    const starts = await Promise.all(
      Array.from({ length: WORKFLOW_RUNS_PER_MINUTE + 5 }, () => call(user, "POST", `/workflow/${id}/run`, { inputs: {} })),
    );
    expect(starts.filter((r) => r.status === 200)).toHaveLength(WORKFLOW_RUNS_PER_MINUTE);
    expect(starts.filter((r) => r.status === 429)).toHaveLength(5);
    await Promise.all(starts.filter((r) => r.status === 200).map((r) => t.services.workflows.settled(r.body.data.runId)));
  });
});
