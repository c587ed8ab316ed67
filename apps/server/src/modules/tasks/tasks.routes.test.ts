import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { outbox, users } from "../../db/schema/index.ts";
import { restoreClock } from "../../test/clock.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";

let t: TestApp;
let llm: LlmServer;
let alice: TestUser;
let bob: TestUser;
let agentId: string;
let draftOnly: string;

const call = async (user: TestUser | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown, lang = "zh") => {
  const res = await t.app.inject({
    method,
    url: `/aiagent_api${url}`,
    payload: payload as never,
    headers: { ...(user?.headers ?? {}), lang },
  });
  // biome-ignore lint/suspicious/noExplicitAny: route answers of many shapes, checked by the assertions
  return { status: res.statusCode, ...(res.json() as { code: number; msg: string; data: any }) };
};

async function releasedAgent(user: TestUser, name: string, release = true) {
  const id = (await call(user, "POST", "/agent/quick/add", { agentName: name })).data.agentId as string;
  if (!release) return id;
  // A debug reply first: release asks for a successful debug run.
  await t.app.inject({
    method: "POST",
    url: "/agent/agent_runtime/chat",
    payload: { token: user.token, schema_id: id, release: false, query: "调试" },
  });
  expect((await call(user, "POST", `/agent/release/${id}`, { notes: "" })).status).toBe(200);
  return id;
}

const base = (over: Record<string, unknown> = {}) => ({
  name: "每日简报",
  targetType: "agent",
  targetId: agentId,
  prompt: "总结今天的新闻",
  triggerType: "cycle",
  cycle: "daily",
  cycleTime: "09:00",
  delivery: "in_app",
  ...over,
});

/** 08:30 in Shanghai on Monday 2 March 2026. */
const T0 = new Date("2026-03-02T00:30:00Z");

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k" });
  alice = await createUser(t, { domain: "tasksacme", memberLevel: "PER_FLAGSHIP_MONTHLY", email: "alice-tasks@example.com" });
  bob = await createUser(t, { domain: "tasksacme", memberLevel: "PER_FLAGSHIP_MONTHLY" });
  agentId = await releasedAgent(alice, "简报助手");
  draftOnly = await releasedAgent(alice, "草稿助手", false);
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
  vi.setSystemTime(T0);
}, 60_000);
afterAll(async () => {
  restoreClock();
  await t.close();
  await llm.close();
});

describe("scheduled tasks", () => {
  it("checks the form with the spec's required-field messages", async () => {
    expect((await call(alice, "POST", "/task", base({ name: "" }))).msg).toBe("请输入任务名称");
    expect((await call(alice, "POST", "/task", base({ targetId: "" }))).msg).toBe("请选择智能体或工作流");
    expect((await call(alice, "POST", "/task", base({ targetId: draftOnly }))).msg).toBe("智能体未发布");
    expect((await call(alice, "POST", "/task", base({ prompt: " " }))).msg).toBe("请输入提示词");
    expect((await call(alice, "POST", "/task", base({ prompt: "长".repeat(600) }))).msg).toBe("输入内容不能超过1500字节");
    expect((await call(alice, "POST", "/task", base({ triggerType: "cron", cron: "" }))).msg).toBe("请输入cron表达式");
    expect((await call(alice, "POST", "/task", base({ triggerType: "cron", cron: "" }), "en")).msg).toBe(
      "please enter the cron expression",
    );
    expect((await call(alice, "POST", "/task", base({ triggerType: "cron", cron: "61 * * * *" }))).msg).toBe("cron表达式不正确");
    expect((await call(alice, "POST", "/task", base({ triggerType: "cron", cron: "* * * * * *" }))).msg).toBe("cron表达式不正确");
    expect((await call(alice, "POST", "/task", base({ triggerType: "cron", cron: "* * * * *" }))).msg).toBe("两次运行至少间隔5分钟");
    // Its next ten runs (from 08:30: 09:00 to 09:50) are five minutes apart; from 09:50 it runs every minute.
    const later = "0,5,10,15,20,25,30,35,40,45,50,51-59 9-23 * * *";
    expect((await call(alice, "POST", "/task", base({ triggerType: "cron", cron: later }))).msg).toBe("两次运行至少间隔5分钟");
    expect((await call(alice, "GET", `/task/cron-preview?expr=${encodeURIComponent(later)}`)).data.valid).toBe(false);
    // Next run in 2028: looking that far took the parser seconds of CPU a request; a cron must run within a year.
    expect((await call(alice, "POST", "/task", base({ triggerType: "cron", cron: "0 0 29 2 *" }))).msg).toBe("cron表达式不正确");
    expect((await call(alice, "GET", `/task/cron-preview?expr=${encodeURIComponent("0 0 29 2 *")}`)).data).toEqual({
      valid: false,
      next: [],
    });
    expect((await call(alice, "GET", `/task/cron-preview?expr=${encodeURIComponent("0 0 L * *")}`)).data.next).toHaveLength(5);
    expect((await call(alice, "POST", "/task", base({ delivery: "email", email: "not-mail" }))).msg).toBe("请输入正确的邮箱");
    // A stranger's agent is not a target either.
    expect((await call(bob, "POST", "/task", base())).msg).toBe("智能体未发布");
    const preview = await call(alice, "GET", `/task/cron-preview?expr=${encodeURIComponent("0 9 * * 1")}`);
    expect(preview.data.valid).toBe(true);
    expect(preview.data.next[0]).toBe("2026-03-02T01:00:00.000Z");
  });

  it("cycles become cron expressions in Shanghai time, and the tick runs a due time exactly once", async () => {
    const daily = (await call(alice, "POST", "/task", base())).data;
    expect(daily).toMatchObject({ cron: "0 9 * * *", enabled: true, nextRunAt: "2026-03-02T01:00:00.000Z", targetName: "简报助手" });
    const weekly = (await call(alice, "POST", "/task", base({ name: "周报", cycle: "weekly", cycleWeekday: 5, cycleTime: "18:30" }))).data;
    expect(weekly).toMatchObject({ cron: "30 18 * * 5", nextRunAt: "2026-03-06T10:30:00.000Z" });
    const monthly = (await call(alice, "POST", "/task", base({ name: "月报", cycle: "monthly", cycleMonthday: 1 }))).data;
    expect(monthly.nextRunAt).toBe("2026-04-01T01:00:00.000Z");
    const cron = (await call(alice, "POST", "/task", base({ name: "半点", triggerType: "cron", cron: "30 */2 * * *" }))).data;
    // 08:30 now: the next even hour's half past is 10:30 in Shanghai.
    expect(cron.nextRunAt).toBe("2026-03-02T02:30:00.000Z");

    expect(await t.services.tasks.tick(new Date("2026-03-02T00:59:00Z"))).toHaveLength(0);
    const at = new Date("2026-03-02T01:00:20Z");
    // Two processes tick at the same moment: one run per due time.
    const [a, b] = await Promise.all([t.services.tasks.tick(at), t.services.tasks.tick(at)]);
    expect(a.length + b.length).toBe(1);
    const after = (await call(alice, "GET", `/task/${daily.id}`)).data;
    expect(after.nextRunAt).toBe("2026-03-03T01:00:00.000Z");
    const runs = (await call(alice, "GET", `/task/${daily.id}/runs`)).data;
    expect(runs.list).toHaveLength(1);
    expect(runs.list[0]).toMatchObject({ trigger: "schedule", status: "QUEUED", dueAt: "2026-03-02T01:00:00.000Z" });

    // The run: a chat with the released agent, in the owner's history, and a notice.
    await t.services.tasks.execute(runs.list[0].id);
    const done = (await call(alice, "GET", `/task/${daily.id}/runs`)).data.list[0];
    expect(done.status).toBe("SUCCEEDED");
    expect(done.output).toContain("总结今天的新闻");
    const session = await t.app.inject({ url: `/agent/agent_runtime/session/${done.sessionId}`, headers: alice.headers });
    expect(session.statusCode).toBe(200);
    // A job delivered twice does not run twice.
    await t.services.tasks.execute(runs.list[0].id);
    expect((await call(alice, "GET", `/task/${daily.id}/runs`)).data.list[0].attempts).toBe(1);
    const notices = (await call(alice, "GET", "/task/notices")).data;
    expect(notices.unread).toBeGreaterThanOrEqual(1);
    expect(notices.list[0]).toMatchObject({ kind: "succeeded", title: "每日简报", read: false });
    await call(alice, "POST", "/task/notices/read");
    expect((await call(alice, "GET", "/task/notices")).data.unread).toBe(0);
    const page = (await call(alice, "POST", "/task/page", {})).data;
    expect(page.total).toBe(4);
    expect(page.list.find((x: { id: string }) => x.id === daily.id).lastStatus).toBe("SUCCEEDED");
  });

  it("retries a failed run, then records the failure, notices it and mails it", async () => {
    const task = (await call(alice, "POST", "/task", base({ name: "邮件任务", delivery: "email", email: "" }))).data;
    const run = (await call(alice, "POST", `/task/${task.id}/run`)).data;
    expect(run).toMatchObject({ trigger: "manual", status: "QUEUED" });
    llm.script({ status: 500, error: "down" }, { status: 500, error: "down" });
    await expect(t.services.tasks.execute(run.id, { retryCount: 0, retryLimit: 1 })).rejects.toThrow();
    let row = (await call(alice, "GET", `/task/${task.id}/runs`)).data.list[0];
    expect(row).toMatchObject({ status: "QUEUED", attempts: 1 });
    await t.services.tasks.execute(run.id, { retryCount: 1, retryLimit: 1 });
    row = (await call(alice, "GET", `/task/${task.id}/runs`)).data.list[0];
    expect(row).toMatchObject({ status: "FAILED", attempts: 2 });
    expect(row.error).toBeTruthy();
    expect((await call(alice, "GET", "/task/notices")).data.list[0]).toMatchObject({ kind: "failed", title: "邮件任务" });
    const mails = await t.platform.db.select().from(outbox).where(eq(outbox.recipient, "alice-tasks@example.com"));
    expect(mails.map((m) => m.subject)).toContain("定时任务「邮件任务」运行失败");

    // The next run succeeds and mails the answer.
    const again = (await call(alice, "POST", `/task/${task.id}/run`)).data;
    await t.services.tasks.execute(again.id);
    const sent = await t.platform.db.select().from(outbox).where(eq(outbox.recipient, "alice-tasks@example.com"));
    expect(sent.find((m) => m.subject === "定时任务「邮件任务」的结果")?.body).toContain("总结今天的新闻");
  });

  it("pauses and resumes: a paused task is not run and resumes from now", async () => {
    const task = (await call(alice, "POST", "/task", base({ name: "暂停我" }))).data;
    const paused = (await call(alice, "POST", `/task/${task.id}/pause`)).data;
    expect(paused).toMatchObject({ enabled: false, nextRunAt: null });
    await t.services.tasks.tick(new Date("2026-03-09T01:00:30Z"));
    expect((await call(alice, "GET", `/task/${task.id}/runs`)).data.total).toBe(0);
    const resumed = (await call(alice, "POST", `/task/${task.id}/resume`)).data;
    expect(resumed.enabled).toBe(true);
    expect(resumed.nextRunAt).toBeTruthy();
  });

  it("another user's task is not found anywhere", async () => {
    const task = (await call(alice, "POST", "/task", base({ name: "别人的" }))).data;
    for (const [method, url, body] of [
      ["GET", `/task/${task.id}`],
      ["PUT", `/task/${task.id}`, base()],
      ["DELETE", `/task/${task.id}`],
      ["POST", `/task/${task.id}/run`],
      ["POST", `/task/${task.id}/pause`],
      ["GET", `/task/${task.id}/runs`],
    ] as const) {
      expect((await call(bob, method, url, body)).status, `${method} ${url}`).toBe(404);
    }
    expect((await call(bob, "POST", "/task/page", {})).data.total).toBe(0);
    expect((await call(bob, "GET", "/task/notices")).data.list).toHaveLength(0);
    expect((await call(null, "POST", "/task/page", {})).status).toBe(403);
    expect((await call(alice, "DELETE", `/task/${task.id}`)).status).toBe(200);
    expect((await call(alice, "GET", `/task/${task.id}`)).status).toBe(404);
  });
});

describe("API-triggered tasks", () => {
  const trigger = async (id: string, key: string | null, payload?: unknown) => {
    const res = await t.app.inject({
      method: "POST",
      url: `/aiagent_api/task/${id}/trigger`,
      payload: payload as never,
      headers: key === null ? {} : { authorization: `Bearer ${key}` },
    });
    // biome-ignore lint/suspicious/noExplicitAny: checked by the assertions
    return { status: res.statusCode, ...(res.json() as { code: number; msg: string; data: any }) };
  };
  const poll = async (id: string, runId: string, key: string) => {
    const res = await t.app.inject({ url: `/aiagent_api/task/${id}/trigger/${runId}`, headers: { authorization: `Bearer ${key}` } });
    // biome-ignore lint/suspicious/noExplicitAny: checked by the assertions
    return { status: res.statusCode, ...(res.json() as { code: number; msg: string; data: any }) };
  };

  it("a caller with the apikey starts a run with its input and polls the answer; the key is shown once", async () => {
    const created = (await call(alice, "POST", "/task", base({ name: "接口任务", triggerType: "api" }))).data;
    expect(created).toMatchObject({ triggerType: "api", cron: "", nextRunAt: null, apiRequestsPerMinute: 10 });
    expect(created.apiKey).toMatch(/^aft_/);
    expect(created.apiKey.startsWith(created.apiKeyPrefix)).toBe(true);
    // Never again in full: not in the task, not in the list.
    const read = (await call(alice, "GET", `/task/${created.id}`)).data;
    expect(read.apiKey).toBeUndefined();
    expect(read.apiKeyPrefix).toBe(created.apiKeyPrefix);
    expect(JSON.stringify((await call(alice, "POST", "/task/page", {})).data)).not.toContain(created.apiKey);
    // The clock never runs it.
    expect(await t.services.tasks.tick(new Date("2026-03-20T01:00:20Z"))).not.toContain(created.id);

    const run = await trigger(created.id, created.apiKey, { input: "今天的股市怎么样" });
    expect(run.status).toBe(200);
    expect(run.data).toMatchObject({ trigger: "api", status: "QUEUED", input: "今天的股市怎么样" });
    await t.services.tasks.execute(run.data.id);
    const done = (await poll(created.id, run.data.id, created.apiKey)).data;
    expect(done.status).toBe("SUCCEEDED");
    expect(done.output).toContain("总结今天的新闻");
    expect(done.output).toContain("今天的股市怎么样");
    // A call without a body asks the prompt alone.
    const bare = await trigger(created.id, created.apiKey);
    expect(bare.data).toMatchObject({ trigger: "api", input: "" });
    // The owner sees the runs in the history.
    const runs = (await call(alice, "GET", `/task/${created.id}/runs`)).data;
    expect(runs.list.map((r: { trigger: string }) => r.trigger)).toEqual(["api", "api"]);
  });

  it("a wrong, missing, revoked or another task's key is refused alike (401); a paused task is not run", async () => {
    const a = (await call(alice, "POST", "/task", base({ name: "接口A", triggerType: "api" }))).data;
    const b = (await call(alice, "POST", "/task", base({ name: "接口B", triggerType: "api" }))).data;
    const plain = (await call(alice, "POST", "/task", base({ name: "定时C" }))).data;
    for (const [id, key] of [
      [a.id, null],
      [a.id, "aft_wrong"],
      [a.id, b.apiKey],
      [a.id, alice.token],
      [plain.id, a.apiKey],
      ["no-such-task", a.apiKey],
    ] as const) {
      const res = await trigger(id, key, { input: "x" });
      expect(res.status, `${id} ${key}`).toBe(401);
      expect(res.msg).toBe("任务密钥无效");
    }
    // A run of another task is not found with this task's key.
    const runB = (await trigger(b.id, b.apiKey)).data;
    expect((await poll(a.id, runB.id, a.apiKey)).status).toBe(404);

    // A new key: the old one stops working at once.
    const fresh = (await call(alice, "POST", `/task/${a.id}/api-key`)).data;
    expect(fresh.apiKey).not.toBe(a.apiKey);
    expect((await trigger(a.id, a.apiKey)).status).toBe(401);
    expect((await trigger(a.id, fresh.apiKey)).status).toBe(200);
    expect((await call(bob, "POST", `/task/${a.id}/api-key`)).status).toBe(404);
    expect((await call(alice, "POST", `/task/${plain.id}/api-key`)).msg).toBe("该任务不是 API 触发的任务");

    // Editing keeps the key; a task that stops being API-triggered loses it.
    const edited = (await call(alice, "PUT", `/task/${a.id}`, base({ name: "接口A2", triggerType: "api" }))).data;
    expect(edited.apiKey).toBeUndefined();
    expect((await trigger(a.id, fresh.apiKey)).status).toBe(200);
    await call(alice, "PUT", `/task/${a.id}`, base({ name: "接口A3" }));
    expect((await trigger(a.id, fresh.apiKey)).status).toBe(401);
    const again = (await call(alice, "PUT", `/task/${a.id}`, base({ name: "接口A4", triggerType: "api" }))).data;
    expect(again.apiKey).toMatch(/^aft_/);

    await call(alice, "POST", `/task/${b.id}/pause`);
    const paused = await trigger(b.id, b.apiKey);
    expect(paused.status).toBe(409);
    expect(paused.msg).toBe("任务已暂停");
    // Input beyond the room is refused at the boundary.
    await call(alice, "POST", `/task/${b.id}/resume`);
    expect((await trigger(b.id, b.apiKey, { input: "长".repeat(8001) })).status).toBe(400);
  });

  it("limits the runs an apikey starts per minute (0 disables the limit)", async () => {
    const limited = (await call(alice, "POST", "/task", base({ name: "限流", triggerType: "api", apiRequestsPerMinute: 2 }))).data;
    expect((await trigger(limited.id, limited.apiKey)).status).toBe(200);
    expect((await trigger(limited.id, limited.apiKey)).status).toBe(200);
    const refused = await trigger(limited.id, limited.apiKey);
    expect(refused.status).toBe(429);
    expect(refused.msg).toMatch(/^任务调用过于频繁（每分钟2次），请\d+秒后再试$/);
    const open = (await call(alice, "POST", "/task", base({ name: "不限", triggerType: "api", apiRequestsPerMinute: 0 }))).data;
    const results = await Promise.all(Array.from({ length: 12 }, () => trigger(open.id, open.apiKey)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect((await call(alice, "POST", "/task", base({ name: "超限", triggerType: "api", apiRequestsPerMinute: -1 }))).status).toBe(400);
  });

  it("an owner with 30 runs waiting starts no more by run now or by apikey, until one ends", async () => {
    const carol = await createUser(t, { domain: "tasksacme", memberLevel: "PER_FLAGSHIP_MONTHLY" });
    const target = await releasedAgent(carol, "排队助手");
    const manual = (await call(carol, "POST", "/task", base({ name: "手动", targetId: target }))).data;
    const api = (await call(carol, "POST", "/task", base({ name: "接口", targetId: target, triggerType: "api", apiRequestsPerMinute: 0 })))
      .data;
    const first = await call(carol, "POST", `/task/${manual.id}/run`);
    expect(first.status).toBe(200);
    const more = await Promise.all(Array.from({ length: 29 }, () => trigger(api.id, api.apiKey)));
    expect(more.every((r) => r.status === 200)).toBe(true);
    const refused = await call(carol, "POST", `/task/${manual.id}/run`);
    expect(refused.status).toBe(429);
    expect(refused.msg).toBe("等待中的任务运行过多（最多30个），请等它们完成后再试");
    expect((await trigger(api.id, api.apiKey)).status).toBe(429);
    // One ends: there is room for one more.
    await t.services.tasks.execute(first.data.id);
    expect((await trigger(api.id, api.apiKey)).status).toBe(200);
    expect((await trigger(api.id, api.apiKey)).status).toBe(429);
  });

  it("a stopped owner's tasks wait: the clock skips them and their apikey opens nothing, until the account starts again", async () => {
    const api = (await call(alice, "POST", "/task", base({ name: "停用接口", triggerType: "api" }))).data;
    const timed = (await call(alice, "POST", "/task", base({ name: "停用定时", cycleTime: "10:00" }))).data;
    const due = new Date(new Date(timed.nextRunAt).getTime() + 30_000);
    const stop = async (disabledAt: Date | null) => {
      await t.platform.db.update(users).set({ disabledAt }).where(eq(users.id, alice.id));
      await t.platform.invalidate("user", alice.id);
    };
    const runs = async (id: string) => (await call(alice, "GET", `/task/${id}/runs`)).data.total;
    await stop(new Date());
    try {
      await t.services.tasks.tick(due);
      const refused = await trigger(api.id, api.apiKey, { input: "在吗" });
      expect(refused.status).toBe(401);
      expect(refused.msg).toBe((await trigger(api.id, "aft_wrong")).msg);
    } finally {
      await stop(null);
    }
    expect(await runs(timed.id)).toBe(0);
    expect(await runs(api.id)).toBe(0);
    await t.services.tasks.tick(due);
    expect(await runs(timed.id)).toBe(1);
    expect((await trigger(api.id, api.apiKey)).status).toBe(200);
  });
});
