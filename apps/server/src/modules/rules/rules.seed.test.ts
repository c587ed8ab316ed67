import { afterAll, beforeAll, expect, it } from "vitest";
import { DEMO_PASSWORD, seedDemo } from "../../seed/demo.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  expect(await seedDemo(t.platform.db, t.services.tenants)).toBe(true);
});
afterAll(() => t.close());

it("the demo member has an orders table, a rule project whose rules evaluate (through SQL, with an input), and a rules agent", async () => {
  const login = await t.app.inject({
    method: "POST",
    url: "/agent_api/api/auth/login",
    payload: { username: "member", password: DEMO_PASSWORD, domain: "" },
  });
  const headers = { authorization: `Bearer ${login.json().data.token}` };
  const query = await t.app.inject({
    method: "POST",
    url: "/aiagent_api/datatable/query",
    headers,
    payload: { sql: "select count(*) as n from orders" },
  });
  expect(query.json().data.rows).toEqual([[6]]);
  const tree = (await t.app.inject({ url: "/aiagent_api/rule/tree", headers })).json().data;
  expect(tree[0]).toMatchObject({ name: "会员规则", ruleDirs: [{ name: "会员等级" }] });
  const listed = tree[0].ruleDirs[0].rules as { id: string; ruleKey: string }[];
  expect(listed.map((r) => r.ruleKey).sort()).toEqual(["big_orders_alert", "key_customer", "member_level"]);
  const id = listed.find((r) => r.ruleKey === "big_orders_alert")?.id;
  const rule = (await t.app.inject({ url: `/aiagent_api/rule/${id}`, headers })).json().data;
  const test = await t.app.inject({
    method: "POST",
    url: "/aiagent_api/rule/test",
    headers,
    payload: { expression: rule.expression, params: { threshold: 1000 }, ruleParams: rule.params },
  });
  expect(test.json().data.value).toBe("需要跟进：未付款合计 2300 元");
  const keyId = listed.find((r) => r.ruleKey === "key_customer")?.id;
  const keyRule = (await t.app.inject({ url: `/aiagent_api/rule/${keyId}`, headers })).json().data;
  const ask = async (customer: string) =>
    (
      await t.app.inject({
        method: "POST",
        url: "/aiagent_api/rule/test",
        headers,
        payload: { expression: keyRule.expression, params: { customer }, ruleParams: keyRule.params },
      })
    ).json().data.value;
  expect(await ask("王五")).toBe("重点客户");
  expect(await ask("张三")).toBe("普通客户");
});
