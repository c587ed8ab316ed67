import { type AgentDraft, parseChatEvents, type RuleTreeProject } from "@agentfair/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";
import { agentSteps } from "../agents/agents.fixtures.ts";

let t: TestApp;
let llm: LlmServer;
let alice: TestUser;
let bob: TestUser;
let stranger: TestUser;
let projectId: string;
let dirId: string;

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

const baseRule = (over: Record<string, unknown> = {}) => ({
  projectId,
  dirId,
  name: "会员等级",
  ruleKey: "member_level",
  description: "按消费金额判断会员等级",
  remark: "",
  params: [{ name: "amount", type: "basic", description: "消费金额" }],
  expression: 'IF(amount >= 1000, "VIP", "普通")',
  ...over,
});

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k" });
  alice = await createUser(t, { domain: "rulesacme", memberLevel: "PER_FLAGSHIP_MONTHLY" });
  bob = await createUser(t, { domain: "rulesacme" });
  stranger = await createUser(t, { domain: "rulesother" });
  projectId = (await call(alice, "POST", "/rule/project", { name: "会员项目", fieldConfig: [{ key: "input1", label: "业务线" }] })).data.id;
  dirId = (await call(alice, "POST", "/rule/dir", { projectId, name: "等级" })).data.id;
  await call(alice, "POST", "/datatable", {
    name: "orders",
    fields: [
      { name: "customer", type: "text" },
      { name: "amount", type: "number" },
    ],
  });
  const tables = (await call(alice, "POST", "/datatable/page", {})).data.list;
  await call(alice, "POST", `/datatable/${tables[0].id}/rows`, { customer: "a", amount: 600 });
  await call(alice, "POST", `/datatable/${tables[0].id}/rows`, { customer: "b", amount: 700 });
}, 60_000);
afterAll(async () => {
  await t.close();
  await llm.close();
});

describe("rule test and functions (the acceptance API)", () => {
  it("evaluates with params and returns the value and a trace", async () => {
    const r = await call(alice, "POST", "/rule/test", { expression: "ROUND(price * qty * 0.9, 2)", params: { price: 19.99, qty: "3" } });
    expect(r).toMatchObject({ code: 200, msg: "测试成功", data: { value: 53.97 } });
    expect(r.data.trace.at(-1).expression).toBe("ROUND(price * qty * 0.9, 2)");
    expect((await call(alice, "POST", "/rule/test", { expression: "1+1" }, "en")).msg).toBe("Test successful");
  });
  it("reads the encoded form", async () => {
    const exp = encodeURIComponent('IF(城市 = "上海", "华东", "其他")');
    const params = encodeURIComponent(JSON.stringify({ 城市: "上海" }));
    expect((await call(alice, "POST", "/rule/test", { exp, params })).data.value).toBe("华东");
    expect((await call(alice, "POST", "/rule/test", { exp, params: "%E0%A4%A" })).msg).toBe("参数编码错误");
  });
  it("gives clear errors for invalid and hostile expressions", async () => {
    const cases: [unknown, string][] = [
      [{ expression: "1 +" }, "表达式不完整"],
      [{ expression: "constructor.constructor('return process')()" }, "此处不应出现该内容"],
      [{ expression: "__proto__" }, "未定义的参数"],
      [{ expression: "FOO(1)" }, "未知函数"],
      [{ expression: `${"(".repeat(500)}1${")".repeat(500)}` }, "嵌套"],
      [{ expression: "1e999" }, "数字无效"],
      [{ expression: "10^400" }, "超出范围"],
      [{ expression: "x".repeat(1_000_001) }, "不能超过"],
    ];
    for (const [body, msg] of cases) {
      const r = await call(alice, "POST", "/rule/test", body);
      expect(r.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(r.msg).toContain(msg);
    }
    const en = await call(alice, "POST", "/rule/test", { expression: "FOO(1)" }, "en");
    expect(en.msg).toBe("unknown function: FOO (at character 1)");
    const proto = await t.app.inject({
      method: "POST",
      url: "/aiagent_api/rule/test",
      headers: { ...alice.headers, "content-type": "application/json" },
      payload: '{"expression":"a","params":{"__proto__":{"a":1}}}',
    });
    expect(proto.statusCode).toBe(400);
  });
  it("computes SQL fields through the read-only guard", async () => {
    const ok = await call(alice, "POST", "/rule/test", {
      expression: "total > 1000",
      ruleParams: [{ name: "total", type: "sql", tableName: "orders", sql: "select sum(amount) from orders" }],
    });
    expect(ok.data.value).toBe(true);
    const refused = await call(alice, "POST", "/rule/test", {
      expression: "x",
      ruleParams: [{ name: "x", type: "sql", tableName: "orders", sql: "select pg_sleep(600)" }],
    });
    expect(refused.msg).toBe("不允许使用该函数：pg_sleep");
    const other = await call(stranger, "POST", "/rule/test", {
      expression: "x",
      ruleParams: [{ name: "x", type: "sql", tableName: "orders", sql: "select sum(amount) from orders" }],
    });
    expect(other.msg).toContain("不允许访问：orders");
  });
  it("lets SQL fields read the rule's inputs as bound parameters, never spliced into the text", async () => {
    const sum = (sql: string, params: Record<string, unknown>, extra: { name: string }[] = [{ name: "who" }]) =>
      call(alice, "POST", "/rule/test", {
        expression: "total",
        params,
        ruleParams: [...extra.map((p) => ({ ...p, type: "basic" })), { name: "total", type: "sql", tableName: "orders", sql }],
      });
    expect((await sum("select sum(amount) from orders where customer = :who", { who: "a" })).data.value).toBe(600);
    expect((await sum("select sum(amount) from orders where customer = #{input1}", { input1: "b" }, [])).data.value).toBe(700);
    // Literals, quoted names, comments and casts keep their colons.
    const literal = await sum("select count(*)::int from orders where customer <> ':who' -- :who\n and customer = :who", { who: "b" });
    expect(literal.data.value).toBe(1);
    // An injection through an input value is only ever a value.
    const injected = await sum("select count(*) from orders where customer = :who", { who: "a' OR '1'='1" });
    expect(injected).toMatchObject({ code: 200, data: { value: 0 } });
    const dropped = await sum("select count(*) from orders where customer = :who", { who: "a'; DROP TABLE orders; --" });
    expect(dropped.data.value).toBe(0);
    expect((await sum("select sum(amount) from orders", {})).data.value).toBe(1300);
    // Only the rule's inputs may be named; positional placeholders and the guard's refusals stay.
    expect((await sum("select sum(amount) from orders where customer = :nope", { who: "a" })).msg).toBe("SQL 引用了规则中没有的输入：nope");
    expect((await sum("select sum(amount) from orders where customer = $1", { who: "a" })).msg).toBe("查询中不能包含参数占位符");
    expect((await sum("select pg_sleep(:who)", { who: "600" })).msg).toBe("不允许使用该函数：pg_sleep");
    expect((await sum("select count(*) from orders where customer = :who; delete from orders", { who: "a" })).status).toBe(400);
    expect((await sum("select sum(amount) from orders where customer = :who", { who: { x: 1 } })).status).toBe(400);
  });
  it("lists the functions from the evaluator", async () => {
    const r = await call(alice, "GET", "/rule/functions");
    expect(r.code).toBe(200);
    expect(r.data.find((f: { name: string }) => f.name === "DATEDIF")).toMatchObject({ example: 'DATEDIF(birthday, TODAY(), "Y")' });
    const en = await call(alice, "GET", "/rule/functions", undefined, "en");
    expect(en.data.find((f: { name: string }) => f.name === "IF").description).toMatch(/condition/);
  });
});

describe("the rule library", () => {
  it("validates with the spec's messages, in order", async () => {
    const msg = async (over: Record<string, unknown>, lang = "zh") => (await call(alice, "POST", "/rule/save", baseRule(over), lang)).msg;
    expect(await msg({ name: "" }, "en")).toBe("Please enter rule name");
    expect(await msg({ name: " " })).toBe("请输入规则名称");
    expect(await msg({ ruleKey: "" })).toContain("唯一标识");
    expect(await msg({ description: "" })).toBe("请输入规则描述");
    expect(await msg({ params: [] })).toBe("请添加参数");
    expect(await msg({ params: [{ name: "a b" }] })).toContain("参数名称无效");
    expect(await msg({ params: [{ name: "t", type: "sql" }] })).toContain("需要来源表和SQL");
    expect(await msg({ params: [{ name: "t", type: "sql", tableName: "orders", sql: "drop table orders" }] })).toContain("SELECT");
    expect(await msg({ expression: "IF(other > 1, 1, 0)" })).toContain("未定义的参数：other");
    expect(await msg({ remark: "金额大于一千为VIP", aiRemark: "旧的配置" }, "en")).toBe("please generate the rules first");
  });

  let ruleId: string;
  it("saves, reads back with the Chinese reading, keeps the key unique per project, and saves as a copy", async () => {
    const saved = await call(alice, "POST", "/rule/save", { ...baseRule(), input1: "零售", input7: "ignored" });
    expect(saved).toMatchObject({ code: 200, msg: "保存成功" });
    ruleId = saved.data.id;
    const got = await call(alice, "GET", `/rule/${ruleId}`);
    expect(got.data).toMatchObject({
      ruleKey: "member_level",
      showExpression: 'IF(amount >= 1000, "VIP", "普通")',
      expressionCn: "如果【消费金额】大于等于1000，则“VIP”，否则“普通”",
      useData: 1,
      isPublic: false,
      input1: "零售",
      creator: alice.username,
      stale: false,
    });
    expect(got.data.input7).toBeUndefined();
    expect((await call(alice, "POST", "/rule/save", baseRule({ ruleKey: "MEMBER_LEVEL" }))).msg).toBe("唯一标识已存在：MEMBER_LEVEL");
    const copy = await call(alice, "POST", "/rule/save", baseRule({ name: "会员等级-副本", ruleKey: "member_level_copy" }));
    expect(copy.code).toBe(200);
    const edited = await call(alice, "POST", "/rule/save", baseRule({ id: ruleId, description: "新描述" }));
    expect(edited.data.description).toBe("新描述");
    const tree = await call(alice, "GET", "/rule/tree");
    expect(tree.data[0]).toMatchObject({
      name: "会员项目",
      ruleDirs: [{ name: "等级", rules: [{ ruleKey: "member_level" }, { ruleKey: "member_level_copy" }] }],
    });
    expect((await call(alice, "GET", "/rule/tree?search=copy")).data[0].ruleDirs[0].rules).toHaveLength(1);
  });

  it("enables, disables, shares with the tenant; others see only public rules", async () => {
    expect((await call(bob, "GET", `/rule/${ruleId}`)).status).toBe(404);
    expect((await call(bob, "GET", "/rule/tree")).data).toEqual([]);
    const pub = await call(alice, "POST", "/rule/state", { id: ruleId, isPublic: true, useData: 0 });
    expect(pub.data).toMatchObject({ isPublic: true, useData: 0 });
    expect((await call(bob, "GET", `/rule/${ruleId}`)).data.mine).toBe(false);
    expect((await call(bob, "GET", "/rule/tree")).data[0].ruleDirs[0].rules.map((r: { ruleKey: string }) => r.ruleKey)).toEqual([
      "member_level",
    ]);
    expect((await call(bob, "POST", "/rule/save", baseRule({ id: ruleId }))).status).toBe(404);
    expect((await call(bob, "POST", "/rule/state", { id: ruleId, useData: 1 })).status).toBe(404);
    expect((await call(stranger, "GET", `/rule/${ruleId}`)).status).toBe(404);
    await call(alice, "POST", "/rule/state", { id: ruleId, useData: 1 });
  });

  it("generates an expression from the remark with the model, and SQL for an SQL field", async () => {
    expect((await call(alice, "POST", "/rule/ai/expression", { remark: " " }, "en")).msg).toBe("Please enter rule configuration");
    const gen = await call(alice, "POST", "/rule/ai/expression", {
      remark: "消费满1000为VIP",
      params: [{ name: "spend", description: "消费" }],
    });
    expect(gen.data).toMatchObject({ expression: 'IF(spend >= 1000, "VIP", "普通")', aiRemark: "消费满1000为VIP" });
    llm.script({ chunks: ["DROP(everything"] });
    expect((await call(alice, "POST", "/rule/ai/expression", { remark: "x", params: [{ name: "a" }] })).msg).toContain("生成失败");
    // After generation, the remark is edited: the expression is stale until generated again.
    const stale = await call(alice, "POST", "/rule/save", baseRule({ id: ruleId, remark: "消费满2000为VIP", aiRemark: "消费满1000为VIP" }));
    expect(stale.msg).toBe("请先生成规则");

    expect((await call(alice, "POST", "/rule/ai/sql", { projectId, name: "n", question: "" })).msg).toBe(
      "请选择来源表，并填写参数名称和参数内容",
    );
    const sql = await call(alice, "POST", "/rule/ai/sql", { projectId, name: "n", question: "订单数", tableNames: ["orders"] });
    expect(sql.data.sql).toBe("SELECT count(*) FROM orders");
    llm.script({ chunks: ["DELETE FROM orders"] });
    expect((await call(alice, "POST", "/rule/ai/sql", { projectId, name: "n", question: "x", tableNames: ["orders"] })).msg).toContain(
      "SELECT",
    );
    const forms = await call(alice, "GET", `/rule/forms?projectId=${projectId}`);
    expect(forms.data.map((f: { name: string }) => f.name)).toEqual(["orders"]);
    expect((await call(stranger, "GET", `/rule/forms?projectId=${projectId}`)).status).toBe(404);
  });

  it("offers bound rules to the model as a tool and evaluates them in chat", async () => {
    const agentId = (await call(alice, "POST", "/agent/quick/add", { agentName: "会员助手" })).data.agentId as string;
    const draft = (await call(alice, "GET", `/agent/draft/${agentId}`)).data.draft;
    // The directory binds both rules of it; a stranger's id is ignored.
    await call(alice, "PUT", `/agent/draft/${agentId}`, { ...draft, bindings: { ...draft.bindings, rules: [dirId] } });
    let offered: { function: { name: string; parameters: { properties: { ruleKey: { enum: string[] } } } } }[] = [];
    llm.script((body) => {
      offered = body.tools as typeof offered;
      return { toolCalls: [{ name: "evaluate_rule", arguments: JSON.stringify({ ruleKey: "member_level", inputs: { amount: 1500 } }) }] };
    });
    const res = await t.app.inject({
      method: "POST",
      url: "/agent/agent_runtime/chat",
      payload: { token: alice.token, schema_id: agentId, release: false, query: "消费1500是什么等级" },
    });
    const evs = parseChatEvents(res.payload);
    const tool = offered.find((o) => o.function.name === "evaluate_rule");
    expect(tool?.function.parameters.properties.ruleKey.enum.sort()).toEqual(["member_level", "member_level_copy"]);
    const end = evs.find((e) => e.type === "tool_call_end");
    expect(end).toMatchObject({ toolCall: { function: { name: "evaluate_rule" }, metaInfo: { name: "规则引擎" } }, error: false });
    expect(end?.type === "tool_call_end" && JSON.parse(end.result)).toMatchObject({ ruleKey: "member_level", value: "VIP" });
  });

  it("round-trips the agent's ruleTree, rules and fast-config option through save, get and release", async () => {
    const steps = agentSteps(t);
    const id = await steps.create(alice, "规则绑定");
    const foreign = (await call(stranger, "POST", "/rule/project", { name: "外人项目" })).data.id as string;
    const draft = (await steps.draft(alice, id)).draft as AgentDraft;
    const saved = await steps.save(alice, id, {
      bindings: { ...draft.bindings, rules: [dirId, ruleId, foreign] },
      chatOption: { ...draft.chatOption, enableFastConfigRuleOnChat: true },
    });
    expect(saved.statusCode).toBe(200);
    const back = (await steps.draft(alice, id)).draft as AgentDraft;
    expect(back.bindings.rules).toEqual([dirId, ruleId, foreign]);
    expect(back.chatOption.enableFastConfigRuleOnChat).toBe(true);
    const expected = {
      rules: [dirId, ruleId],
      ruleTree: [
        {
          id: projectId,
          name: "会员项目",
          ruleDirs: [
            {
              id: dirId,
              name: "等级",
              rules: [
                { ruleKey: "member_level", name: "会员等级", mine: true },
                { ruleKey: "member_level_copy", mine: true },
              ],
            },
          ],
        },
      ],
    };
    // Before the first release the detail shows the draft.
    expect((await steps.call(alice, "GET", `/agent_api/api/agent/detail/${id}`)).json().data.agent).toMatchObject(expected);
    await steps.debugOk(alice, id);
    expect((await steps.release(alice, id)).statusCode).toBe(200);
    const schema = (await steps.call(alice, "GET", `/agent_api/api/remote/agent/schema/release/${id}`)).json().data;
    expect(schema).toMatchObject({ ...expected, chatOption: { enableFastConfigRuleOnChat: true } });
    expect(schema.ruleTree[0].ruleDirs).toHaveLength(1);
    // A disabled rule leaves the tree (the agent no longer evaluates it); the release itself is unchanged.
    await call(alice, "POST", "/rule/state", { id: ruleId, useData: 0 });
    const after = (await steps.call(alice, "GET", `/agent_api/api/remote/agent/schema/release/${id}`)).json().data;
    expect(after.ruleTree[0].ruleDirs[0].rules.map((r: { ruleKey: string }) => r.ruleKey)).toEqual(["member_level_copy"]);
    expect(after.rules).toEqual([dirId]);
    await call(alice, "POST", "/rule/state", { id: ruleId, useData: 1 });
  });

  it("proposes a rule from the chat when fast config is on, and saves it only on the owner's confirmation", async () => {
    const agentId = (await call(alice, "POST", "/agent/quick/add", { agentName: "快速配置" })).data.agentId as string;
    const draft = (await call(alice, "GET", `/agent/draft/${agentId}`)).data.draft;
    const setFast = (enable: boolean) =>
      call(alice, "PUT", `/agent/draft/${agentId}`, { ...draft, chatOption: { ...draft.chatOption, enableFastConfigRuleOnChat: enable } });
    const chat = async (user: TestUser, query: string, sessionId?: string) => {
      const before = llm.requests.length;
      const res = await t.app.inject({
        method: "POST",
        url: "/agent/agent_runtime/chat",
        payload: { token: user.token, schema_id: agentId, release: false, query, session_id: sessionId },
      });
      const evs = parseChatEvents(res.payload);
      const offered = ((llm.requests[before]?.body.tools ?? []) as { function: { name: string } }[]).map((x) => x.function.name);
      const session = evs.find((e) => e.type === "session");
      const ends = evs.filter((e) => e.type === "tool_call_end");
      const text = evs.map((e) => (e.type === "content" ? e.delta : "")).join("");
      return { offered, ends, text, sessionId: session?.type === "session" ? session.session_id : "" };
    };
    const keys = async () =>
      ((await call(alice, "GET", "/rule/tree")).data as RuleTreeProject[]).flatMap((p) =>
        p.ruleDirs.flatMap((d) => d.rules.map((r) => r.ruleKey)),
      );

    await setFast(false);
    expect((await chat(alice, "配置一条规则 points_rule：消费满1000得VIP")).offered).not.toContain("configure_rule");
    await setFast(true);
    const asked = await chat(alice, "配置一条规则 points_rule：消费满1000得VIP");
    expect(asked.offered).toEqual(expect.arrayContaining(["configure_rule", "confirm_rule"]));
    expect(asked.ends[0]).toMatchObject({ toolCall: { function: { name: "configure_rule" } }, error: false });
    // The reply asks; nothing is saved yet.
    expect(asked.text).toContain('将创建规则「对话规则points_rule」（points_rule）：IF(amount >= 1000, "VIP", "普通")');
    expect(asked.text).toContain("请回复“确认”保存规则");
    expect(await keys()).not.toContain("points_rule");
    // Another session of the owner cannot confirm it.
    const proposalId = asked.text.match(/提案编号：([0-9a-f-]{36})/)?.[1];
    llm.script({ toolCalls: [{ name: "confirm_rule", arguments: JSON.stringify({ proposalId }) }] });
    const elsewhere = await chat(alice, "确认");
    expect(elsewhere.ends[0]).toMatchObject({ toolCall: { function: { name: "confirm_rule" } }, error: true });
    expect(elsewhere.ends[0]?.type === "tool_call_end" && elsewhere.ends[0].result).toContain("没有找到待确认的规则配置");

    const confirmed = await chat(alice, "确认", asked.sessionId);
    const end = confirmed.ends[0];
    expect(end?.type === "tool_call_end" && JSON.parse(end.result)).toMatchObject({
      saved: true,
      adjusted: false,
      ruleKey: "points_rule",
      expression: 'IF(amount >= 1000, "VIP", "普通")',
    });
    const tree = (await call(alice, "GET", "/rule/tree")).data as { name: string }[];
    expect(tree.map((p) => p.name)).toContain("对话配置的规则");
    expect(await keys()).toContain("points_rule");
    // A proposal is used once.
    expect((await chat(alice, "确认", asked.sessionId)).ends[0]).toMatchObject({ error: true });

    // The same key again adjusts the rule.
    const again = await chat(alice, "配置一条规则 points_rule：消费满2000得VIP", asked.sessionId);
    expect(again.text).toContain("将调整规则");
    const adjusted = (await chat(alice, "确认", asked.sessionId)).ends[0];
    expect(adjusted?.type === "tool_call_end" && JSON.parse(adjusted.result)).toMatchObject({ adjusted: true });

    // A proposal cannot be confirmed in the reply that made it: the user has not seen it. (The
    // scripts: the reply's first round, the expression generation, the reply's second round.)
    const configure = { name: "x", ruleKey: "same_reply", remark: "满1000", params: [{ name: "amount" }] };
    llm.script(
      { toolCalls: [{ name: "configure_rule", arguments: JSON.stringify(configure) }] },
      { chunks: ["amount >= 1000"] },
      (body) => {
        const messages = body.messages as { role: string; content: string }[];
        const proposalId = messages.at(-1)?.content.match(/"proposalId":"([^"]+)"/)?.[1];
        return { toolCalls: [{ name: "confirm_rule", arguments: JSON.stringify({ proposalId }) }] };
      },
    );
    const hasty = await chat(alice, "随便说点");
    expect(hasty.ends[1]?.type === "tool_call_end" && hasty.ends[1].result).toContain("用户确认后再保存");
    expect(await keys()).not.toContain("same_reply");

    // A key that cannot be saved is refused before the user is asked.
    llm.script({
      toolCalls: [
        {
          name: "configure_rule",
          arguments: JSON.stringify({ name: "x", ruleKey: "1bad", remark: "满1000", params: [{ name: "amount" }] }),
        },
      ],
    });
    const bad = await chat(alice, "随便说点");
    expect(bad.ends[0]?.type === "tool_call_end" && bad.ends[0].result).toContain("唯一标识");
  });

  it("deletes rules, directories and projects of the owner only", async () => {
    expect((await call(bob, "DELETE", `/rule/${ruleId}`)).status).toBe(404);
    expect((await call(alice, "DELETE", `/rule/${ruleId}`)).code).toBe(200);
    expect((await call(bob, "DELETE", `/rule/dir/${dirId}`)).status).toBe(404);
    expect((await call(alice, "DELETE", `/rule/dir/${dirId}`)).code).toBe(200);
    expect((await call(alice, "DELETE", `/rule/project/${projectId}`)).code).toBe(200);
    expect((await call(alice, "GET", "/rule/tree")).data.map((p: { name: string }) => p.name)).toEqual(["对话配置的规则"]);
  });
});
