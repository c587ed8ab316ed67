import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agents } from "../../db/schema/index.ts";
import { AppError } from "../../platform/errors.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import type { Billing } from "../billing/billing.seam.ts";
import { agentSteps } from "./agents.fixtures.ts";
import { AgentsService } from "./agents.service.ts";

let t: TestApp;
let s: ReturnType<typeof agentSteps>;
let owner: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  s = agentSteps(t);
  owner = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  admin = await createUser(t, { username: "admin" });
});
afterAll(async () => {
  await t.close();
});

const ownedCount = async (userId: string) => (await t.platform.db.select().from(agents).where(eq(agents.ownerId, userId))).length;

/** A billing that records calls and refuses when told to. */
function recordingBilling(refuse: boolean) {
  const calls: { kind: string; agentId: string; priceCents?: number }[] = [];
  const billing: Billing = {
    async chargeAgentCopy(_c, agent) {
      calls.push({ kind: "copy", agentId: agent.agentId, priceCents: agent.priceCents });
      if (refuse) throw new AppError("balanceInsufficient", 400);
    },
    async chargeAgentEdit(_c, agent) {
      calls.push({ kind: "edit", agentId: agent.agentId });
      if (refuse) throw new AppError("balanceInsufficient", 400);
    },
    async checkChat() {
      return null;
    },
    async refundChat() {},
    async claimModelCall() {},
    async insightPerDay() {
      return null;
    },
    async insightTypes() {
      return null;
    },
    async planLimits() {
      return { plugins: null, knowledgeBytes: null, pricedAgents: null };
    },
    chatNeedsMembership: () => false,
  };
  return { billing, calls };
}

describe("copy", () => {
  it("deep-copies the listed version into my agents, marked copied, and remembers it", async () => {
    const hirer = await createUser(t);
    const id = await s.listed(owner, admin, {
      name: "原版助手",
      patch: {
        persona: "原版人设",
        bindings: { plugins: ["p1"], externalPlugins: [], workflows: ["w1"], knowledgeBases: ["kb-secret"], rules: [] },
      },
    });
    // The owner edits the draft afterwards: the copy takes the listed version, not the draft.
    await s.save(owner, id, { persona: "草稿人设" });
    expect((await s.call(hirer, "GET", `/agent_api/api/agent/was-copied/${id}`)).json().data).toEqual({ copied: false });
    const res = await s.call(hirer, "POST", `/agent_api/api/agent/quick/copy-from-launch/${id}`);
    expect(res.json()).toMatchObject({ code: 200, msg: "复制成功！" });
    const copyId = res.json().data.agentId;
    expect(copyId).not.toBe(id);
    expect((await s.call(hirer, "GET", `/agent_api/api/agent/was-copied/${id}`)).json().data).toEqual({ copied: true });
    const card = (await s.mine(hirer, { copyByMe: true })).list[0];
    expect(card).toMatchObject({
      id: copyId,
      copyByMe: true,
      agentName: "原版助手",
      agentStatus: "C90_Released",
      launchVersion: null,
      price: 0,
    });
    const d = await s.draft(hirer, copyId);
    expect(d.draft.persona).toBe("原版人设");
    expect(d.draft.bindings).toMatchObject({ plugins: ["p1"], workflows: ["w1"], knowledgeBases: [] });
    // The copy is the hirer's own: runnable at once, editable, and independent of the source.
    const rt = await t.services.agents.runtimeAgent(await s.caller(hirer), copyId, { release: true });
    expect(rt.persona).toBe("原版人设");
    await s.save(hirer, copyId, { persona: "我的改版" });
    expect((await s.draft(owner, id)).draft.persona).toBe("草稿人设");
    // A second copy is allowed ('copied before, copy again?' is the client's question).
    expect((await s.call(hirer, "POST", `/agent_api/api/agent/quick/copy-from-launch_share/${id}`)).statusCode).toBe(200);
    expect((await s.mine(hirer, { copyByMe: true })).total).toBe(2);
    // Deleting the copies keeps the memory of having copied.
    for (const c of (await s.mine(hirer)).list) await s.call(hirer, "DELETE", `/agent_api/api/agent/${c.id}`);
    expect((await s.call(hirer, "GET", `/agent_api/api/agent/was-copied/${id}`)).json().data).toEqual({ copied: true });
  });

  it("refuses agents the caller cannot see, and anonymous callers", async () => {
    const hirer = await createUser(t, { memberLevel: "MONTHLY" });
    const foreign = await createUser(t, { domain: "acme" });
    const unlisted = await s.released(owner, {}, "未上架助手");
    const acmeAgent = await s.listed(foreign, admin, { name: "租户助手" });
    for (const id of [unlisted, acmeAgent]) {
      expect((await s.call(hirer, "POST", `/agent_api/api/agent/quick/copy-from-launch/${id}`)).statusCode).toBe(404);
      expect((await s.call(hirer, "GET", `/agent_api/api/agent/was-copied/${id}`)).statusCode).toBe(404);
    }
    expect((await s.call(null, "POST", `/agent_api/api/agent/quick/copy-from-launch/${unlisted}`)).statusCode).toBe(403);
    expect(await ownedCount(hirer.id)).toBe(0);
    // An unreleased own agent has nothing to copy.
    const draftOnly = await s.create(hirer);
    expect((await s.call(hirer, "POST", `/agent_api/api/agent/quick/copy-from-launch_share/${draftOnly}`)).json().msg).toBe("智能体未发布");
    // The owner may copy their own released agent (share variant); the administrator anything.
    expect((await s.call(owner, "POST", `/agent_api/api/agent/quick/copy-from-launch_share/${unlisted}`)).statusCode).toBe(200);
    expect((await s.call(admin, "POST", `/agent_api/api/agent/quick/copy-from-launch/${unlisted}`)).statusCode).toBe(200);
  });
});

describe("the billing seam", () => {
  it("charges a priced copy through Billing; a refusal copies nothing", async () => {
    const id = await s.listed(owner, admin, { name: "收费助手", price: 9.9 });
    const hirer = await createUser(t);
    const refusing = recordingBilling(true);
    const service = new AgentsService(t.platform, refusing.billing, t.services.tenants);
    await expect(service.copy(await s.caller(hirer), id)).rejects.toMatchObject({ key: "balanceInsufficient" });
    expect(refusing.calls).toEqual([{ kind: "copy", agentId: id, priceCents: 990 }]);
    expect(await ownedCount(hirer.id)).toBe(0);
    expect(await service.wasCopied(await s.caller(hirer), id)).toEqual({ copied: false });

    const accepting = recordingBilling(false);
    const ok = new AgentsService(t.platform, accepting.billing, t.services.tenants);
    await ok.copy(await s.caller(hirer), id);
    expect(accepting.calls).toHaveLength(1);
    expect(await ownedCount(hirer.id)).toBe(1);
    // Free agents and one's own priced agent are not charged.
    const free = await s.listed(owner, admin, { name: "免费助手" });
    await ok.copy(await s.caller(hirer), free);
    await ok.copy(await s.caller(owner), id);
    expect(accepting.calls).toHaveLength(1);
  });

  it("counts the first save of each editing round as one edit; a refusal saves nothing", async () => {
    const u = await createUser(t, { memberLevel: "MONTHLY" });
    const id = await s.create(u, "计费编辑");
    const caller = await s.caller(u);
    const rec = recordingBilling(false);
    const service = new AgentsService(t.platform, rec.billing, t.services.tenants);
    const d = (await service.getDraft(caller, id)).draft;
    await service.saveDraft(caller, id, { ...d, persona: "一" });
    await service.saveDraft(caller, id, { ...d, persona: "二" });
    expect(rec.calls.filter((c) => c.kind === "edit")).toHaveLength(1);
    // A release ends the round: the next save is a new edit.
    const rev = (await service.getDraft(caller, id)).revision;
    await service.markDebugSucceeded(caller, id, rev);
    await service.release(caller, id, "v1");
    await Promise.all([service.saveDraft(caller, id, { ...d, persona: "三" }), service.saveDraft(caller, id, { ...d, persona: "三" })]);
    expect(rec.calls.filter((c) => c.kind === "edit")).toHaveLength(2);

    await service.release(caller, id, "v2").catch(() => undefined);
    const rev2 = (await service.getDraft(caller, id)).revision;
    await service.markDebugSucceeded(caller, id, rev2);
    await service.release(caller, id, "v2");
    const refusing = recordingBilling(true);
    const refused = new AgentsService(t.platform, refusing.billing, t.services.tenants);
    await expect(refused.saveDraft(caller, id, { ...d, persona: "被拒" })).rejects.toMatchObject({ key: "balanceInsufficient" });
    expect((await service.getDraft(caller, id)).draft.persona).toBe("三");
    // The round was given back: the next save asks billing again.
    await service.saveDraft(caller, id, { ...d, persona: "四" });
    expect(rec.calls.filter((c) => c.kind === "edit")).toHaveLength(3);
    const [row] = await t.platform.db
      .select()
      .from(agents)
      .where(and(eq(agents.id, id)));
    expect(row.config.persona).toBe("四");
  });

  it("the real app charges a priced copy from the copier's wallet (billing wired in app.ts)", async () => {
    expect(t.services.agents).toBeInstanceOf(AgentsService);
    await t.platform.database.executeSql(
      "insert into plan_templates (id, category, member_level, name, monthly_cents, fee_cents) values ('plan-monthly-test', 'PERSONAL', 'MONTHLY', '基础版', 1000, 300)",
    );
    const id = await s.listed(owner, admin, { name: "真实收费", price: 5 });
    const poor = await createUser(t, { memberLevel: "MONTHLY", balanceCents: 0 });
    const refused = await s.call(poor, "POST", `/agent_api/api/agent/quick/copy-from-launch/${id}`);
    expect(refused.json()).toMatchObject({ code: 400, msg: "账户余额不足，请先充值" });
    expect(await ownedCount(poor.id)).toBe(0);
    const rich = await createUser(t, { memberLevel: "MONTHLY", balanceCents: 1000 });
    expect((await s.call(rich, "POST", `/agent_api/api/agent/quick/copy-from-launch/${id}`)).statusCode).toBe(200);
    expect(await ownedCount(rich.id)).toBe(1);
    const info = (await s.call(rich, "GET", "/agent_api/api/userinfo/findUserInfo")).json().data;
    expect(info.userInfo.accountBalance).toBe(7);
  });
});
