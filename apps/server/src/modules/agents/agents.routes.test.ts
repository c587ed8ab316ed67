import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { agentSteps } from "./agents.fixtures.ts";
import { AGENT_CREATES_PER_HOUR } from "./agents.service.ts";

let t: TestApp;
let s: ReturnType<typeof agentSteps>;
let owner: TestUser;
let other: TestUser;
let foreign: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  s = agentSteps(t);
  owner = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  other = await createUser(t);
  foreign = await createUser(t, { domain: "acme" });
  admin = await createUser(t, { username: "admin" });
});
afterAll(async () => {
  await t.close();
});

describe("drafts and releases", () => {
  it("creates an Unreleased agent whose draft only its owner (and the administrator) reads", async () => {
    const id = await s.create(owner, "草稿助手");
    const d = await s.draft(owner, id);
    expect(d).toMatchObject({ agentId: id, agentStatus: "C00_Unreleased", latestVersion: null, debugSucceeded: false });
    expect(d.draft.agentName).toBe("草稿助手");
    expect((await s.call(other, "GET", `/aiagent_api/agent/draft/${id}`)).statusCode).toBe(404);
    expect((await s.call(foreign, "GET", `/aiagent_api/agent/draft/${id}`)).statusCode).toBe(404);
    expect((await s.call(null, "GET", `/aiagent_api/agent/draft/${id}`)).json()).toMatchObject({ code: 403, msg: "token失效" });
    expect((await s.call(admin, "GET", `/aiagent_api/agent/draft/${id}`)).statusCode).toBe(200);
    expect((await s.call(null, "POST", "/aiagent_api/agent/quick/add", {})).statusCode).toBe(403);
  });

  it("saves every field, bumps the revision and refuses others' writes", async () => {
    const id = await s.create(owner);
    const res = await s.save(owner, id, {
      persona: "你是理财顾问",
      usageGuide: "说明你的目标",
      model: { modelId: null, mode: "custom", temperature: 0.5, topP: 0.8, presencePenalty: 0.1, frequencyPenalty: 0.2, maxTokens: 1000 },
      chatOption: {
        prologue: "你好",
        presetQuestions: ["问题一", "问题二"],
        enableFastConfigRuleOnChat: false,
        enableChatInsight: true,
        chatInsightFeatures: [],
      },
      variables: [{ name: "city", default: "上海", description: "所在城市" }],
      launchTags: ["fund"],
    });
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json().data;
    expect(d.revision).toBe(2);
    expect(d.draft).toMatchObject({
      persona: "你是理财顾问",
      model: { mode: "custom", maxTokens: 1000 },
      variables: [{ name: "city" }],
      launchTags: ["fund"],
    });
    const current = (await s.draft(owner, id)).draft;
    expect((await s.call(other, "PUT", `/aiagent_api/agent/draft/${id}`, current)).statusCode).toBe(404);
    expect((await s.call(foreign, "PUT", `/aiagent_api/agent/draft/${id}`, current)).statusCode).toBe(404);
    expect((await s.call(null, "PUT", `/aiagent_api/agent/draft/${id}`, current)).statusCode).toBe(403);
  });

  it("validates the persona size, variable names and the body", async () => {
    const id = await s.create(owner);
    const tooLong = await s.save(owner, id, { persona: "汉".repeat(501) }); // 1503 bytes
    expect(tooLong.json()).toMatchObject({ code: 400, msg: "人设与回复逻辑不能超过1500字节" });
    expect((await s.save(owner, id, { persona: "汉".repeat(500) })).statusCode).toBe(200);
    const dup = await s.save(owner, id, {
      variables: [
        { name: "city", default: "", description: "" },
        { name: "city", default: "x", description: "" },
      ],
    });
    expect(dup.json()).toMatchObject({ code: 400, msg: "变量名重复：city" });
    const en = await t.app.inject({
      method: "PUT",
      url: `/aiagent_api/agent/draft/${id}`,
      headers: { ...owner.headers, lang: "en" },
      payload: {
        ...(await s.draft(owner, id)).draft,
        variables: [
          { name: "a", default: "", description: "" },
          { name: "a", default: "", description: "" },
        ],
      },
    });
    expect(en.json().msg).toBe("variable name duplicate: a");
    const bad = await s.call(owner, "PUT", `/aiagent_api/agent/draft/${id}`, { agentName: 1 });
    expect(bad.statusCode).toBe(400);
    const badLabel = await s.save(owner, id, { labelId: "nope" });
    expect(badLabel.json().msg).toBe("分类标签不存在");
  });

  it("keeps the orchestration mode in the draft (absent: single-agent) and refuses an unknown mode", async () => {
    const id = await s.create(owner);
    expect((await s.draft(owner, id)).draft.orchestration).toBeUndefined();
    const orchestration = { mode: "multi" as const, multiMode: "workflow" as const, agents: [], workflowId: "wf-1" };
    expect((await s.save(owner, id, { orchestration })).statusCode).toBe(200);
    expect((await s.draft(owner, id)).draft.orchestration).toEqual(orchestration);
    const bad = await s.call(owner, "PUT", `/aiagent_api/agent/draft/${id}`, {
      ...(await s.draft(owner, id)).draft,
      orchestration: { ...orchestration, mode: "swarm" },
    });
    expect(bad.statusCode).toBe(400);
    const tooMany = await s.save(owner, id, {
      orchestration: { ...orchestration, multiMode: "scheduling" as const, agents: Array.from({ length: 11 }, (_, i) => `a${i}`) },
    });
    expect(tooMany.statusCode).toBe(400);
  });

  it("releases only after a successful debug of the current revision, as an immutable version", async () => {
    const id = await s.create(owner, "版本助手");
    await s.save(owner, id, { persona: "第一版" });
    const early = await s.release(owner, id);
    expect(early.json()).toMatchObject({ code: 400, msg: "请先调试成功再发布" });
    await s.debugOk(owner, id);
    // A save after the debug makes a new revision: the old debug no longer counts.
    await s.save(owner, id, { persona: "第一版改" });
    expect((await s.release(owner, id)).statusCode).toBe(400);
    await s.debugOk(owner, id);
    expect((await s.release(owner, id, "首发")).json().data).toEqual({ versionNo: 1 });
    expect(await s.draft(owner, id)).toMatchObject({ agentStatus: "C90_Released", changedSinceRelease: false });
    await s.save(owner, id, { persona: "第二版" });
    // The studio says the draft differs from what is released, until the next release.
    expect((await s.draft(owner, id)).changedSinceRelease).toBe(true);
    await s.debugOk(owner, id);
    expect((await s.release(owner, id, "二版")).json().data).toEqual({ versionNo: 2 });
    expect((await s.draft(owner, id)).changedSinceRelease).toBe(false);
    const versions = (await s.call(owner, "GET", `/aiagent_api/agent/versions/${id}`)).json().data;
    expect(versions.map((v: { versionNo: number; notes: string }) => [v.versionNo, v.notes])).toEqual([
      [2, "二版"],
      [1, "首发"],
    ]);
    const v1 = (await s.call(owner, "GET", `/aiagent_api/agent/version/${id}/1`)).json().data;
    expect(v1.snapshot.persona).toBe("第一版改");
    expect((await s.call(other, "GET", `/aiagent_api/agent/versions/${id}`)).statusCode).toBe(404);
    expect((await s.call(other, "GET", `/aiagent_api/agent/version/${id}/1`)).statusCode).toBe(404);
    expect((await s.call(other, "POST", `/aiagent_api/agent/release/${id}`, { notes: "" })).statusCode).toBe(404);
    // A stale debug report (old revision) is ignored.
    await s.save(owner, id, { persona: "第三版" });
    const c = await s.caller(owner);
    await t.services.agents.markDebugSucceeded(c, id, 1);
    expect((await s.release(owner, id)).statusCode).toBe(400);
    await expect(t.services.agents.markDebugSucceeded(await s.caller(other), id, 1)).rejects.toMatchObject({ status: 404 });
  });

  it("gives the runtime the draft (owner) or the released version", async () => {
    const id = await s.released(owner, { persona: "已发布人设" });
    await s.save(owner, id, { persona: "草稿人设" });
    const rt = t.services.agents;
    expect((await rt.runtimeAgent(await s.caller(owner), id, { release: false })).persona).toBe("草稿人设");
    const rel = await rt.runtimeAgent(await s.caller(owner), id, { release: true });
    expect(rel.persona).toBe("已发布人设");
    expect(rel.versionId).toBeTruthy();
    await expect(rt.runtimeAgent(await s.caller(other), id, { release: true })).rejects.toMatchObject({ status: 404 });
    await expect(rt.runtimeAgent(await s.caller(other), id, { release: false })).rejects.toMatchObject({ status: 404 });
    const c = await s.caller(owner);
    await rt.replyDone(rel);
    await rt.replyDone(rel);
    // A studio debug run is no task: it marks the draft debugged and leaves 已完成 N 个任务 alone.
    const debug = await rt.runtimeAgent(c, id, { release: false });
    await rt.replyDone(debug);
    expect((await s.draft(owner, id)).debugSucceeded).toBe(true);
    const counts = (await s.call(owner, "POST", "/agent/agent_runtime/schema_use_count_by_schema_ids", { schema_ids: [id] })).json().data;
    expect(counts).toEqual([{ schema_id: id, count: 2 }]);
    // Another user does not learn counts of agents they cannot see.
    expect((await s.call(other, "POST", "/agent/agent_runtime/schema_use_count_by_schema_ids", { schema_ids: [id] })).json().data).toEqual(
      [],
    );
    const all = (await s.call(owner, "GET", "/agent/agent_runtime/schema_use_count")).json().data;
    expect(all).toContainEqual({ schema_id: id, count: 2 });
  });
});

describe("my agents: list, rename, delete", () => {
  it("lists only the caller's own agents with the filters; anonymous sees an empty list", async () => {
    const u = await createUser(t, { memberLevel: "MONTHLY" });
    const a = await s.create(u, "甲助手");
    await s.create(u, "乙助手");
    const page = await s.mine(u, { page: 1, size: 99 });
    expect(page.total).toBe(2);
    expect(page.list[0]).toMatchObject({
      mine: true,
      copyByMe: false,
      agentStatus: "C00_Unreleased",
      launchVersion: null,
      launchVersionDisabled: false,
    });
    expect((await s.mine(u, { name: "甲" })).list.map((x: { id: string }) => x.id)).toEqual([a]);
    expect((await s.mine(u, { copyByMe: true })).total).toBe(0);
    expect((await s.mine(u, { status: "C90_bay" })).total).toBe(2);
    expect((await s.mine(u, { status: "C90_Launched" })).total).toBe(0);
    expect((await s.mine(other, { name: "甲" })).total).toBe(0);
    expect(await s.mine(null)).toEqual({ list: [], total: 0 });
    expect((await s.call(u, "POST", "/agent_api/api/agent/page-created-by-me", { size: 100 })).statusCode).toBe(400);
    // A LIKE wildcard is a literal character.
    expect((await s.mine(u, { name: "%" })).total).toBe(0);
  });

  it("renames with the spec's rules and messages", async () => {
    const id = await s.create(owner, "旧名字");
    const url = `/agent_api/api/agent/intro/${id}`;
    expect((await s.call(owner, "PUT", url, { agentName: "   " })).json()).toMatchObject({ code: 400, msg: "名称不能为空" });
    expect((await s.call(owner, "PUT", url, { agentName: "一二三四五六七八九十一二三四五六" })).json()).toMatchObject({
      code: 400,
      msg: "输入内容不能超过15个字符",
    });
    const okRes = await s.call(owner, "PUT", url, { agentName: "一二三四五六七八九十一二三四五", agentDescription: "新描述", price: 9.9 });
    expect(okRes.json().data).toMatchObject({ agentName: "一二三四五六七八九十一二三四五", desc: "新描述", price: 9.9 });
    expect((await s.call(other, "PUT", url, { agentName: "抢名字" })).statusCode).toBe(404);
    expect((await s.call(foreign, "PUT", url, { agentName: "抢名字" })).statusCode).toBe(404);
    expect((await s.call(null, "PUT", url, { agentName: "抢名字" })).statusCode).toBe(403);
    expect((await s.call(admin, "PUT", url, { agentName: "管理员改名" })).statusCode).toBe(200);
  });

  it("deletes only the caller's own agent ('删除成功')", async () => {
    const id = await s.create(owner, "待删除");
    expect((await s.call(other, "DELETE", `/agent_api/api/agent/${id}`)).statusCode).toBe(404);
    expect((await s.call(foreign, "DELETE", `/agent_api/api/agent/${id}`)).statusCode).toBe(404);
    expect((await s.call(null, "DELETE", `/agent_api/api/agent/${id}`)).statusCode).toBe(403);
    const res = await s.call(owner, "DELETE", `/agent_api/api/agent/${id}`);
    expect(res.json()).toMatchObject({ code: 200, msg: "删除成功" });
    expect((await s.call(owner, "GET", `/aiagent_api/agent/draft/${id}`)).statusCode).toBe(404);
    expect((await s.call(owner, "DELETE", `/agent_api/api/agent/${id}`)).statusCode).toBe(404);
  });
});

describe("listing and review", () => {
  it("runs submit -> 审核中 -> approve -> listed -> off the shelf", async () => {
    const u = await createUser(t, { memberLevel: "MONTHLY" });
    const unreleased = await s.create(u);
    expect((await s.call(u, "POST", "/agent_api/api/agentApply/saveInfo", { agentId: unreleased })).json()).toMatchObject({
      code: 400,
      msg: "智能体未发布",
    });
    const id = await s.released(u, {}, "上架助手");
    expect((await s.call(other, "POST", "/agent_api/api/agentApply/saveInfo", { agentId: id })).statusCode).toBe(404);
    expect((await s.call(null, "POST", "/agent_api/api/agentApply/saveInfo", { agentId: id })).statusCode).toBe(403);
    const submit = await s.call(u, "POST", "/agent_api/api/agentApply/saveInfo", { agentId: id });
    expect(submit.json()).toMatchObject({ code: 200, msg: "审核中", data: { status: "PENDING" } });
    // Submitting again keeps one pending request.
    await s.call(u, "POST", "/agent_api/api/agentApply/saveInfo", { agentId: id });
    expect((await s.mine(u)).list.find((x: { id: string }) => x.id === id)).toMatchObject({ applyStatus: "PENDING", launchVersion: null });
    // Not listed until approved.
    expect((await s.market(other, { name: "上架助手" })).total).toBe(0);
    // Only administrators see or act on the queue.
    expect((await s.call(u, "POST", "/agent_api/api/agentApply/page", {})).statusCode).toBe(401);
    expect((await s.call(null, "POST", "/agent_api/api/agentApply/page", {})).statusCode).toBe(403);
    const queue = (await s.call(admin, "POST", "/agent_api/api/agentApply/page", { status: "PENDING" })).json().data;
    const mineApplies = queue.list.filter((a: { agentId: string }) => a.agentId === id);
    expect(mineApplies).toHaveLength(1);
    expect(mineApplies[0]).toMatchObject({ versionNo: 1, status: "PENDING", agentName: "上架助手", applicant: u.username });
    const applyId = mineApplies[0].id;
    expect((await s.call(u, "POST", `/agent_api/api/agentApply/approve/${applyId}`)).statusCode).toBe(401);
    expect((await s.call(foreign, "POST", `/agent_api/api/agentApply/approve/${applyId}`)).statusCode).toBe(401);
    expect((await s.call(admin, "POST", `/agent_api/api/agentApply/approve/${applyId}`)).statusCode).toBe(200);
    expect((await s.call(admin, "POST", `/agent_api/api/agentApply/approve/${applyId}`)).json().msg).toBe("该申请已处理");
    const card = (await s.mine(u)).list.find((x: { id: string }) => x.id === id);
    expect(card).toMatchObject({ launchVersion: 1, launchVersionDisabled: false, applyStatus: "APPROVED" });
    expect((await s.mine(u, { status: "C90_Launched" })).list.map((x: { id: string }) => x.id)).toContain(id);
    expect((await s.market(other, { name: "上架助手" })).list[0]).toMatchObject({ id, mine: false, launchVersion: 1 });
    expect((await s.market(u, { name: "上架助手" })).list[0]).toMatchObject({ mine: true });
    // Same version again: already listed.
    expect((await s.call(u, "POST", "/agent_api/api/agentApply/saveInfo", { agentId: id })).json().msg).toBe("当前版本已上架");
    // The owner may take it down but not put it back; the administrator may do both.
    const shelf = `/agent_api/api/agent/launchVersionDisabled/${id}`;
    expect((await s.call(other, "PUT", shelf, { disabled: true })).statusCode).toBe(404);
    expect((await s.call(u, "PUT", shelf, { disabled: true })).json().data).toMatchObject({ launchVersionDisabled: true });
    expect((await s.market(other, { name: "上架助手" })).total).toBe(0);
    expect((await s.mine(u, { status: "C90_bay" })).list.map((x: { id: string }) => x.id)).toContain(id);
    expect((await s.call(u, "PUT", shelf, { disabled: false })).statusCode).toBe(401);
    expect((await s.call(admin, "PUT", shelf, { disabled: false })).statusCode).toBe(200);
    expect((await s.market(other, { name: "上架助手" })).total).toBe(1);
  });

  it("rejects with a reason that the owner sees; the marketplace keeps the earlier listed version", async () => {
    const u = await createUser(t, { memberLevel: "MONTHLY" });
    const id = await s.listed(u, admin, { name: "驳回助手" });
    await s.save(u, id, { persona: "第二版人设" });
    await s.debugOk(u, id);
    await s.release(u, id, "二版");
    await s.call(u, "POST", "/agent_api/api/agentApply/saveInfo", { agentId: id });
    const queue = (await s.call(admin, "POST", "/agent_api/api/agentApply/page", { status: "PENDING" })).json().data;
    const apply = queue.list.find((a: { agentId: string }) => a.agentId === id);
    expect(apply.versionNo).toBe(2);
    expect((await s.call(admin, "POST", `/agent_api/api/agentApply/reject/${apply.id}`, { reason: "" })).statusCode).toBe(400);
    expect((await s.call(admin, "POST", `/agent_api/api/agentApply/reject/${apply.id}`, { reason: "人设描述不完整" })).statusCode).toBe(
      200,
    );
    const card = (await s.mine(u)).list.find((x: { id: string }) => x.id === id);
    expect(card).toMatchObject({ applyStatus: "REJECTED", applyReason: "人设描述不完整", launchVersion: 1 });
    const hirer = await t.services.agents.runtimeAgent(await s.caller(other), id, { release: true });
    expect(hirer.persona).toBe("你是一名测试助手");
  });
});

describe("marketplace scope and hirer view", () => {
  it("shows the public platform's listed agents to everyone and a tenant's only to that tenant", async () => {
    const acmeOwner = await createUser(t, { domain: "acme" });
    const pub = await s.listed(owner, admin, { name: "公共市场助手" });
    const tenantOnly = await s.listed(acmeOwner, admin, { name: "租户内部助手" });
    const ids = (page: { list: { id: string }[] }) => page.list.map((x) => x.id);
    expect(ids(await s.market(other))).toContain(pub);
    expect(ids(await s.market(other))).not.toContain(tenantOnly);
    expect(ids(await s.market(foreign))).toEqual(expect.arrayContaining([pub, tenantOnly]));
    expect(ids(await s.market(null))).toContain(pub);
    expect(ids(await s.market(null))).not.toContain(tenantOnly);
    // Details of a tenant's agent are not found for other tenants.
    expect((await s.call(other, "GET", `/agent_api/api/agent/detail/${tenantOnly}`)).statusCode).toBe(404);
    expect((await s.call(foreign, "GET", `/agent_api/api/agent/detail/${tenantOnly}`)).statusCode).toBe(200);
  });

  it("filters by name, tag and label, 99 a page at most", async () => {
    const labels = (await s.call(other, "GET", "/agent_api/api/lables/list")).json().data;
    expect(Array.isArray(labels)).toBe(true);
    const id = await s.listed(owner, admin, { name: "保险标签助手", patch: { launchTags: ["insurance"] } });
    expect((await s.market(other, { tag: "insurance" })).list.map((x: { id: string }) => x.id)).toContain(id);
    expect((await s.market(other, { tag: "bank" })).list.map((x: { id: string }) => x.id)).not.toContain(id);
    expect((await s.call(other, "POST", "/agent_api/api/agent/launch/page", { tag: "nonsense" })).statusCode).toBe(400);
    expect((await s.call(other, "POST", "/agent_api/api/agent/launch/page", { size: 100 })).statusCode).toBe(400);
    expect((await s.market(other, { labelId: "none" })).total).toBe(0);
  });

  it("a marketplace card shows the listing as the owner's card does: price, tags, label, uses, time", async () => {
    const labelId = (await s.call(other, "GET", "/agent_api/api/lables/list")).json().data[0]?.id ?? null;
    const id = await s.listed(owner, admin, { name: "卡片核对助手", price: 12.5, patch: { launchTags: ["insurance"], labelId } });
    await t.platform.db.execute(sql`update agents set use_count = 4321 where id = ${id}`);
    const own = (await s.mine(owner, { name: "卡片核对助手" })).list[0];
    const card = (await s.market(other, { name: "卡片核对助手" })).list[0];
    expect(card).toMatchObject({
      id,
      agentName: "卡片核对助手",
      price: 12.5,
      launchTags: ["insurance"],
      labelId,
      taskNum: 4321,
      mine: false,
    });
    expect(card.lastModifiedDate).toBe(own.lastModifiedDate);
    expect((await s.market(owner, { name: "卡片核对助手" })).list[0].mine).toBe(true);
    // A row listed before listing cards existed shows its own card.
    await t.platform.db.execute(sql`update agents set listing = null, agent_name = '旧卡片助手' where id = ${id}`);
    const old = (await s.market(other, { tag: "insurance" })).list.find((x: { id: string }) => x.id === id);
    expect(old).toMatchObject({ agentName: "旧卡片助手", name: "旧卡片助手", price: 12.5, copyable: false, skillNum: 0 });
  });

  it("never shows a hirer the persona, model or variables", async () => {
    const id = await s.listed(owner, admin, {
      name: "保密助手",
      patch: { persona: "绝密人设", variables: [{ name: "k", default: "v", description: "" }], usageGuide: "指南" },
    });
    for (const path of [
      `/agent_api/api/remote/agent/schema/release/${id}`,
      `/agent_api/api/agent/detail/${id}`,
      `/agent_api/api/widget/${id}`,
    ]) {
      const res = await s.call(other, "GET", path);
      expect(res.statusCode, path).toBe(200);
      expect(res.body).not.toContain("绝密人设");
      expect(res.body).not.toContain('"variables"');
      expect(res.body).not.toContain('"model"');
    }
    const schema = (await s.call(other, "GET", `/agent_api/api/remote/agent/schema/release/${id}`)).json().data;
    expect(schema).toMatchObject({ agentName: "保密助手", usageGuide: "指南", versionNo: 1 });
    const detail = (await s.call(other, "GET", `/agent_api/api/agent/detail/${id}`)).json().data;
    expect(detail).toMatchObject({ mine: false, creator: expect.any(String), versions: [{ versionNo: 1 }] });
  });

  it("keeps unlisted agents private and reports Unreleased in details for the owner", async () => {
    const id = await s.create(owner, "未发布助手");
    const mineDetail = (await s.call(owner, "GET", `/agent_api/api/agent/detail/${id}`)).json().data;
    expect(mineDetail.agent.agentStatus).toContain("Unreleased");
    expect((await s.call(owner, "GET", `/agent_api/api/remote/agent/schema/release/${id}`)).json().msg).toBe("智能体未发布");
    for (const path of [
      `/agent_api/api/agent/detail/${id}`,
      `/agent_api/api/remote/agent/schema/release/${id}`,
      `/agent_api/api/widget/${id}`,
    ]) {
      expect((await s.call(other, "GET", path)).statusCode, path).toBe(404);
      expect((await s.call(foreign, "GET", path)).statusCode, path).toBe(404);
      expect((await s.call(null, "GET", path)).statusCode, path).toBe(404);
    }
  });

  it("counts chats once per user, agent and day", async () => {
    const id = await s.listed(owner, admin, { name: "计数助手" });
    const add = (u: TestUser | null) => s.call(u, "POST", "/agent_api/api/agentSession/addCounts", { agentId: id });
    expect((await add(other)).json().data).toEqual({ chatCount: 1 });
    expect((await add(other)).json().data).toEqual({ chatCount: 1 });
    expect((await add(foreign)).json().data).toEqual({ chatCount: 2 });
    expect((await add(null)).statusCode).toBe(403);
    const hidden = await s.create(owner);
    expect((await s.call(other, "POST", "/agent_api/api/agentSession/addCounts", { agentId: hidden })).statusCode).toBe(404);
  });
});

describe("limits", () => {
  it("refuses more than the hourly budget of new agents per user", async () => {
    const u = await createUser(t, { memberLevel: "MONTHLY" });
    for (let i = 0; i < AGENT_CREATES_PER_HOUR; i++) await s.create(u, `批量${i}`);
    const over = await s.call(u, "POST", "/aiagent_api/agent/quick/add", { agentName: "再来一个" });
    expect(over.statusCode).toBe(429);
    expect((await s.mine(u)).total).toBe(AGENT_CREATES_PER_HOUR);
    expect((await s.call(owner, "POST", "/aiagent_api/agent/quick/add", { agentName: "别人的" })).statusCode).toBe(200);
  });
});
