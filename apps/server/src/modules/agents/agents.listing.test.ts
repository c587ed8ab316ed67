import { skillCount } from "@agentfair/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { agentSteps } from "./agents.fixtures.ts";

let t: TestApp;
let s: ReturnType<typeof agentSteps>;
let owner: TestUser;
let hirer: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  s = agentSteps(t);
  owner = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  hirer = await createUser(t, { memberLevel: "MONTHLY", balanceCents: 10_000 });
  admin = await createUser(t, { username: "admin" });
});
afterAll(async () => {
  await t.close();
});

const copyUrl = (id: string) => `/agent_api/api/agent/quick/copy-from-launch/${id}`;
const shareCopyUrl = (id: string) => `/agent_api/api/agent/quick/copy-from-launch_share/${id}`;
const card = async (user: TestUser | null, name: string) =>
  (await s.market(user, { name })).list.find((c: { agentName: string }) => c.agentName === name);

describe("copies are the owner's choice (issue 17.1)", () => {
  it("attack: a listing without the owner's consent cannot be copied, by either path; the persona stays with the owner", async () => {
    const id = await s.listed(owner, admin, { name: "不可复制", copyable: false, patch: { persona: "私密人设" } });
    for (const url of [copyUrl(id), shareCopyUrl(id)]) {
      const res = await s.call(hirer, "POST", url);
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe("该智能体的创建者未允许复制，可直接使用");
    }
    const en = await t.app.inject({ method: "POST", url: copyUrl(id), headers: { ...hirer.headers, "accept-language": "en" } });
    expect(en.json().msg).toBe("The creator of this agent does not allow copies; you can still use it");
    expect((await s.mine(hirer)).list.some((a: { agentName: string }) => a.agentName === "不可复制")).toBe(false);
    // The card and the detail say so, so the web hides the copy button.
    expect((await card(hirer, "不可复制")).copyable).toBe(false);
    expect((await s.call(hirer, "GET", `/agent_api/api/agent/detail/${id}`)).json().data.copyable).toBe(false);
    // The owner keeps copying their own agent.
    expect((await s.call(owner, "POST", copyUrl(id))).statusCode).toBe(200);
  });

  it("a listing without a copy choice (the spec's client sends only agentId) is not copyable", async () => {
    const id = await s.released(owner, {}, "默认不可复制");
    expect((await s.call(owner, "POST", "/agent_api/api/agentApply/saveInfo", { agentId: id })).statusCode).toBe(200);
    await s.approvePending(admin, id);
    expect((await s.call(hirer, "POST", copyUrl(id))).statusCode).toBe(400);
  });

  it("allowed copies work; withdrawing the permission applies at once, granting it again waits for review", async () => {
    const id = await s.listed(owner, admin, { name: "可复制", copyable: true });
    expect((await card(hirer, "可复制")).copyable).toBe(true);
    expect((await s.call(hirer, "GET", `/agent_api/api/agent/detail/${id}`)).json().data.copyable).toBe(true);
    expect((await s.call(hirer, "POST", copyUrl(id))).statusCode).toBe(200);

    const withdraw = await s.call(owner, "POST", "/agent_api/api/agentApply/saveInfo", { agentId: id, copyable: false });
    expect(withdraw.statusCode).toBe(200);
    expect((await s.call(hirer, "POST", copyUrl(id))).statusCode).toBe(400);
    await s.approvePending(admin, id);
    expect((await s.call(owner, "POST", "/agent_api/api/agentApply/saveInfo", { agentId: id, copyable: true })).statusCode).toBe(200);
    expect((await s.call(hirer, "POST", copyUrl(id))).statusCode).toBe(400);
    const queue = (await s.call(admin, "POST", "/agent_api/api/agentApply/page", { status: "PENDING", size: 100 })).json().data;
    expect(queue.list.find((a: { agentId: string }) => a.agentId === id)).toMatchObject({ copyable: true });
    await s.approvePending(admin, id);
    expect((await s.call(hirer, "POST", copyUrl(id))).statusCode).toBe(200);
  });
});

describe("hirers see and pay the approved card and price (issue 17.4)", () => {
  it("attack: renaming and repricing a listed agent changes nothing for hirers until the new request is approved", async () => {
    const id = await s.listed(owner, admin, { name: "原名助手", price: 1, copyable: true });
    const change = await s.call(owner, "PUT", `/agent_api/api/agent/intro/${id}`, {
      agentName: "改名助手",
      agentDescription: "改过的介绍",
      price: 99,
    });
    expect(change.statusCode).toBe(200);
    // The owner's card shows the change and that it waits for review.
    expect(change.json().data).toMatchObject({ agentName: "改名助手", price: 99, applyStatus: "PENDING" });

    // Marketplace (and its name search), detail, release schema, widget and the runtime keep the approved card.
    expect(await card(hirer, "改名助手")).toBeUndefined();
    expect(await card(hirer, "原名助手")).toMatchObject({ price: 1, agentDescription: "" });
    const detail = (await s.call(hirer, "GET", `/agent_api/api/agent/detail/${id}`)).json().data;
    expect(detail.agent).toMatchObject({ agentName: "原名助手", price: 1 });
    expect((await s.call(hirer, "GET", `/agent_api/api/remote/agent/schema/release/${id}`)).json().data).toMatchObject({
      agentName: "原名助手",
      price: 1,
    });
    expect((await s.call(hirer, "GET", `/agent_api/api/widget/${id}`)).json().data.agentName).toBe("原名助手");
    const run = await t.services.agents.runtimeAgent(await s.caller(hirer), id, { release: true });
    expect(run).toMatchObject({ agentName: "原名助手", priceCents: 100 });
    // The copy fee is the approved price too (the owner sees their own new price).
    expect((await t.services.agents.agentForFee(await s.caller(hirer), id)).priceCents).toBe(100);
    expect((await t.services.agents.agentForFee(await s.caller(owner), id)).priceCents).toBe(9900);
    // The owner's chat page and run use the agent's own new name, as their card does (not the release's).
    expect((await s.call(owner, "GET", `/agent_api/api/agent/detail/${id}`)).json().data.agent).toMatchObject({ agentName: "改名助手" });
    expect(await t.services.agents.runtimeAgent(await s.caller(owner), id, { release: true })).toMatchObject({ agentName: "改名助手" });

    // The administrator reviews the new card; approving it reaches hirers.
    const queue = (await s.call(admin, "POST", "/agent_api/api/agentApply/page", { status: "PENDING", size: 100 })).json().data;
    expect(queue.list.find((a: { agentId: string }) => a.agentId === id)).toMatchObject({ agentName: "改名助手", price: 99 });
    await s.approvePending(admin, id);
    expect(await card(hirer, "改名助手")).toMatchObject({ price: 99, agentDescription: "改过的介绍" });
    expect((await t.services.agents.runtimeAgent(await s.caller(hirer), id, { release: true })).priceCents).toBe(9900);
  });

  it("a rejected change leaves the approved card; changing an unlisted agent files nothing", async () => {
    const id = await s.listed(owner, admin, { name: "驳回改价" });
    await s.call(owner, "PUT", `/agent_api/api/agent/intro/${id}`, { agentName: "驳回改价", price: 50 });
    const queue = (await s.call(admin, "POST", "/agent_api/api/agentApply/page", { status: "PENDING", size: 100 })).json().data;
    const apply = queue.list.find((a: { agentId: string }) => a.agentId === id);
    expect((await s.call(admin, "POST", `/agent_api/api/agentApply/reject/${apply.id}`, { reason: "价格过高" })).statusCode).toBe(200);
    expect(await card(hirer, "驳回改价")).toMatchObject({ price: 0 });

    const unlisted = await s.released(owner, {}, "未上架改价");
    const res = await s.call(owner, "PUT", `/agent_api/api/agent/intro/${unlisted}`, { agentName: "未上架改价", price: 5 });
    expect(res.json().data).toMatchObject({ price: 5, applyStatus: null });
  });

  it("submitting the listed version and card again is refused as already listed", async () => {
    const id = await s.listed(owner, admin, { name: "重复上架", copyable: true });
    const again = await s.call(owner, "POST", "/agent_api/api/agentApply/saveInfo", { agentId: id, copyable: true });
    expect(again.json()).toMatchObject({ code: 400, msg: "当前版本已上架" });
  });
});

describe("skills (issue 18.20)", () => {
  it("the card's skill count is the number of skills the detail lists", async () => {
    const bindings = { plugins: ["p1", "p2"], externalPlugins: ["x1"], workflows: ["w1"], knowledgeBases: ["kb"], rules: [] };
    const id = await s.listed(owner, admin, { name: "技能助手", patch: { bindings } });
    const detail = (await s.call(hirer, "GET", `/agent_api/api/agent/detail/${id}`)).json().data.agent;
    expect((await card(hirer, "技能助手")).skillNum).toBe(4);
    expect(skillCount(detail)).toBe(4);
  });
});

describe("the studio's membership gate (issue 17.8)", () => {
  it("attack: a FREE user of the public platform cannot create, save or release agents through the calls", async () => {
    const free = await createUser(t);
    const add = await s.call(free, "POST", "/aiagent_api/agent/quick/add", { agentName: "免费创建" });
    expect(add.json()).toMatchObject({ code: 400, msg: "会员权益功能，请先开通会员" });
    const en = await t.app.inject({
      method: "POST",
      url: "/aiagent_api/agent/quick/add",
      payload: { agentName: "免费创建" },
      headers: { ...free.headers, "accept-language": "en" },
    });
    expect(en.json().msg).toBe("membership feature, please open membership first");
    expect((await s.mine(free)).total).toBe(0);

    // A copy is theirs, but editing and releasing it is the studio's.
    const listed = await s.listed(owner, admin, { name: "免费可复制", copyable: true });
    const copy = (await s.call(free, "POST", copyUrl(listed))).json().data.agentId as string;
    const draft = (await s.call(free, "GET", `/aiagent_api/agent/draft/${copy}`)).json().data.draft;
    expect((await s.call(free, "PUT", `/aiagent_api/agent/draft/${copy}`, { ...draft, persona: "改" })).json().msg).toBe(
      "会员权益功能，请先开通会员",
    );
    expect((await s.call(free, "POST", `/aiagent_api/agent/release/${copy}`, { notes: "" })).json().msg).toBe("会员权益功能，请先开通会员");
  });

  it("white-listed users, tenant users and administrators pass the gate", async () => {
    for (const user of [await createUser(t, { isWhite: true }), await createUser(t, { domain: "acme" }), admin]) {
      expect((await s.call(user, "POST", "/aiagent_api/agent/quick/add", { agentName: "可以创建" })).statusCode).toBe(200);
    }
  });
});
