import { randomUUID } from "node:crypto";
import { emptyBindings } from "@agentfair/contracts";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { dataTables, ruleDirs, ruleProjects, rules, users } from "../../db/schema/index.ts";
import type { RuleParamRow } from "../../db/schema/rules.ts";
import type { DemoSeed } from "../../seed/demo-seed.ts";
import { defaultConfig } from "../agents/agents.mappers.ts";
import { insertReleasedAgent } from "../agents/agents.seed.ts";
import { createPhysical, insertPhysical } from "../datatables/datatables.service.ts";
import { compile } from "./formula/evaluate.ts";

const ORDERS = [
  ["张三", 1280, "2026-01-05", true],
  ["李四", 560, "2026-01-09", true],
  ["王五", 2300, "2026-02-11", false],
  ["张三", 860, "2026-02-20", true],
  ["赵六", 120, "2026-03-02", true],
  ["王五", 1500, "2026-03-15", true],
] as const;

/**
 * Demo: the member's data table of orders, a rule project with three rules (two read the orders
 * through an SQL field, one of them with the rule's input), and a released agent that evaluates
 * them in chat and lets its owner configure rules from the chat.
 */
export const seedRules: DemoSeed = async (db: Db, ctx) => {
  const ownerId = ctx.users.member;
  if (!ownerId) return;
  const [member] = await db.select({ id: users.id, tenantId: users.tenantId }).from(users).where(eq(users.id, ownerId));
  await db.transaction(async (tx) => {
    const fields = [
      { name: "customer", label: "客户", type: "text" as const, required: true },
      { name: "amount", label: "金额", type: "number" as const, required: true },
      { name: "order_date", label: "下单日期", type: "date" as const, required: false },
      { name: "paid", label: "已付款", type: "boolean" as const, required: false },
    ];
    const [table] = await tx
      .insert(dataTables)
      .values({
        tenantId: member.tenantId,
        ownerId,
        name: "orders",
        introduction: "演示订单：客户、金额、下单日期、是否付款",
        fields,
        physicalName: `t_${randomUUID().replace(/-/g, "")}`,
        rowCount: ORDERS.length,
      })
      .returning();
    await createPhysical(tx, table);
    await insertPhysical(
      tx,
      table,
      ORDERS.map(([customer, amount, order_date, paid]) => ({ customer, amount, order_date, paid })),
    );
  });

  const [project] = await db
    .insert(ruleProjects)
    .values({
      tenantId: member.tenantId,
      ownerId,
      name: "会员规则",
      description: "会员等级与折扣",
      fieldConfig: [{ key: "input1", label: "业务线" }],
    })
    .returning();
  const [dir] = await db.insert(ruleDirs).values({ projectId: project.id, name: "会员等级" }).returning();
  const make = (r: { name: string; ruleKey: string; description: string; remark: string; params: RuleParamRow[]; expression: string }) => {
    const labels = Object.fromEntries(r.params.map((p) => [p.name, p.description]));
    const c = compile(r.expression, new Set(r.params.map((p) => p.name)), labels);
    return {
      ...r,
      projectId: project.id,
      dirId: dir.id,
      tenantId: member.tenantId,
      ownerId,
      showExpression: c.showExpression,
      expressionCn: c.expressionCn,
      aiRemark: r.remark,
      formKeys: r.params.some((p) => p.type === "sql") ? ["orders"] : [],
      category: "会员",
      inputs: { input1: "零售" },
    };
  };
  await db.insert(rules).values([
    make({
      name: "会员等级",
      ruleKey: "member_level",
      description: "按累计消费金额判断会员等级",
      remark: "累计消费满2000为金卡，满1000为银卡，否则为普通会员",
      params: [{ name: "amount", type: "basic", description: "累计消费金额", tableName: "", sql: "" }],
      expression: 'IFS(amount >= 2000, "金卡", amount >= 1000, "银卡", TRUE, "普通会员")',
    }),
    make({
      name: "大额订单提醒",
      ruleKey: "big_orders_alert",
      description: "未付款订单金额合计超过阈值时提醒",
      remark: "",
      params: [
        { name: "threshold", type: "basic", description: "阈值", tableName: "", sql: "" },
        {
          name: "unpaid",
          type: "sql",
          description: "未付款订单金额合计",
          tableName: "orders",
          sql: "SELECT coalesce(sum(amount), 0) FROM orders WHERE NOT paid",
        },
      ],
      expression: 'IF(unpaid > threshold, CONCAT("需要跟进：未付款合计 ", unpaid, " 元"), "正常")',
    }),
    make({
      name: "重点客户",
      ruleKey: "key_customer",
      description: "按客户的订单金额合计判断是否为重点客户",
      remark: "",
      params: [
        { name: "customer", type: "basic", description: "客户", tableName: "", sql: "" },
        {
          name: "spent",
          type: "sql",
          description: "该客户订单金额合计",
          tableName: "orders",
          // The rule's input, bound as a query parameter.
          sql: "SELECT coalesce(sum(amount), 0) FROM orders WHERE customer = :customer",
        },
      ],
      expression: 'IF(spent >= 3000, "重点客户", "普通客户")',
    }),
  ]);

  const name = "会员规则助手";
  const desc = "按「会员规则」判断会员等级、检查未付款订单（规则引擎演示）。";
  const config = {
    ...defaultConfig(),
    persona: "你是会员服务助手。判断会员等级或订单提醒时，调用规则引擎 evaluate_rule，并说明规则结果。",
    usageGuide:
      "问：消费 1500 元是什么会员等级？未付款订单要跟进吗（阈值 1000）？王五是重点客户吗？也可以说「配置一条规则 …」在对话中新建规则，确认后保存。",
    chatOption: {
      ...defaultConfig().chatOption,
      prologue: "你好，我可以按会员规则帮你判断会员等级，或检查未付款订单。",
      presetQuestions: ["消费1500元是什么会员等级？", "阈值1000，未付款订单需要跟进吗？", "王五是重点客户吗？"],
      enableFastConfigRuleOnChat: true,
    },
    bindings: { ...emptyBindings(), rules: [dir.id] },
  };
  const card = { agentName: name, agentDescription: desc, agentIcon: "8", agentIconBackground: "#fff7e8" };
  await insertReleasedAgent(db, member, card, config);
};
