import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agents } from "../../db/schema/index.ts";
import { createDataTable, createUser, ORDER_FIELDS, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";
import { agentSteps } from "../agents/agents.fixtures.ts";

/** A scheduled task on a report agent delivers the report's findings and link, not "analysing…". */
let t: TestApp;
let llm: LlmServer;
let alice: TestUser;

const call = async (method: "GET" | "POST", url: string, payload?: unknown) =>
  (await t.app.inject({ method, url: `/aiagent_api${url}`, payload: payload as never, headers: alice.headers })).json();

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({
    MODEL_BASE_URL: llm.url,
    MODEL_NAME: "test-model",
    MODEL_API_KEY: "k",
    PUBLIC_URL: "https://agents.example.com/",
  });
  await t.platform.jobs.start({ pollingIntervalSeconds: 0.5 });
  alice = await createUser(t, { domain: "taskreport", memberLevel: "PER_FLAGSHIP_MONTHLY" });
}, 60_000);
afterAll(async () => {
  await t.close();
  await llm.close();
});

describe("a task on a report agent", () => {
  it("runs to the finished report: its findings and a share link under PUBLIC_URL", async () => {
    await createDataTable(t, alice, "orders", ORDER_FIELDS, [
      { customer: "张三", amount: 100 },
      { customer: "李四", amount: 300 },
    ]);
    const agentId = await agentSteps(t).released(alice, {}, "销售报告");
    await t.platform.db.update(agents).set({ agentType: "insight" }).where(eq(agents.id, agentId));
    await t.platform.invalidate("agent", agentId);
    const task = await call("POST", "/task", {
      name: "每日销售报告",
      targetType: "agent",
      targetId: agentId,
      prompt: "各客户的消费额是多少？",
      triggerType: "cycle",
      cycle: "daily",
      cycleTime: "09:00",
      delivery: "in_app",
    });
    expect(task.code, task.msg).toBe(200);
    await call("POST", `/task/${task.data.id}/run`);
    let run: { status: string; output: string | null } | undefined;
    for (let i = 0; i < 120 && run?.status !== "SUCCEEDED" && run?.status !== "FAILED"; i++) {
      await new Promise((r) => setTimeout(r, 250));
      run = (await call("GET", `/task/${task.data.id}/runs`)).data.list[0];
    }
    expect(run?.status, run?.output ?? "").toBe("SUCCEEDED");
    expect(run?.output).not.toContain("正在分析数据");
    expect(run?.output).toContain("数据显示");
    expect(run?.output).toMatch(/^完整报告（图表与明细）：https:\/\/agents\.example\.com\/insight-detail\?share=/);
  });
});
