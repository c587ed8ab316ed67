import { DATE_LINK_FORM, defaultKnowledgeSettings, type Widget } from "@agentfair/contracts";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { designs, users } from "../../db/schema/index.ts";
import { defaultConfig } from "../agents/agents.mappers.ts";
import { insertReleasedAgent } from "../agents/agents.seed.ts";

const col = (id: string, widgets: Widget[]): Widget => ({
  type: "col",
  id,
  options: { name: `col-${id.slice(0, 4)}`, span: 12, offset: 0, push: 0, pull: 0 },
  widgetList: widgets,
});

/** A travel report form: what the designer's render mode shows when fed the sample result below. */
export const DEMO_DESIGN_WIDGETS: Widget[] = [
  {
    type: "row",
    id: "a1b2c3d4e5f60718293a4b5c6d7e8f90",
    options: { name: "row-1", key: "rowDemo1", gutter: 12, justify: "start" },
    cols: [
      col("b1b2c3d4e5f60718293a4b5c6d7e8f91", [
        {
          type: "input",
          id: "c1b2c3d4e5f60718293a4b5c6d7e8f92",
          options: { name: "input-1", key: "name", label: "出行人", placeholder: "请输入出行人", useVar: "traveller.name", value: "" },
        },
      ]),
      col("d1b2c3d4e5f60718293a4b5c6d7e8f93", [
        {
          type: "select",
          id: "e1b2c3d4e5f60718293a4b5c6d7e8f94",
          options: {
            name: "select-1",
            key: "city",
            label: "目的地",
            placeholder: "请选择",
            useVar: "traveller.city",
            value: "",
            optionItems: [
              { label: "北京", value: "北京" },
              { label: "上海", value: "上海" },
              { label: "杭州", value: "杭州" },
            ],
          },
        },
      ]),
    ],
  },
  {
    type: "date",
    id: "f1b2c3d4e5f60718293a4b5c6d7e8f95",
    options: { name: "date-1", key: "date", label: "出发日期", format: "YYYY-MM-DD", useVar: "trip.date", value: "" },
  },
  {
    type: "chart",
    id: "a2b2c3d4e5f60718293a4b5c6d7e8f96",
    options: { name: "chart-1", key: "chartDemo1", label: "近一周气温", useVar: "chart" },
  },
  {
    type: "button",
    id: "b2b2c3d4e5f60718293a4b5c6d7e8f97",
    options: { name: "button-1", key: "buttonDemo1", label: "生成报告", type: "primary", value: "帮我使用这些参数生成报告：" },
  },
];

export const DEMO_DESIGN_RESULT = JSON.stringify(
  {
    traveller: { name: "张三", city: "杭州" },
    trip: { date: "2026-12-01" },
    chart: {
      xAxis: { type: "category", data: ["周一", "周二", "周三", "周四", "周五", "周六", "周日"] },
      yAxis: { type: "value" },
      series: [{ type: "line", name: "最高气温", data: [12, 14, 11, 9, 13, 15, 16] }],
    },
  },
  null,
  2,
);

const dateField = (id: string, name: string, key: string, label: string): Widget => ({
  type: "date",
  id,
  options: { name, key, label, format: "YYYY-MM-DD", placeholder: "请选择日期", value: "" },
});

/** The §5 linked form: picking a birth date fills its three dependent dates. */
export const INSURANCE_FORM_WIDGETS: Widget[] = [
  dateField(DATE_LINK_FORM.policyholderBirthId, "date-1", "policyholderBirth", "投保人出生日期"),
  dateField(DATE_LINK_FORM.insuredBirthId, "date-2", "insuredBirth", "被保险人出生日期"),
  dateField(DATE_LINK_FORM.insuredDependentIds[0], "date-3", "beneficiaryBirth", "受益人出生日期"),
  dateField(DATE_LINK_FORM.insuredDependentIds[1], "date-4", "insuredCertBirth", "被保险人证件出生日期"),
  dateField(DATE_LINK_FORM.insuredDependentIds[2], "date-5", "insuredHealthBirth", "健康告知出生日期"),
  dateField(DATE_LINK_FORM.policyholderDependentIds[0], "date-6", "payerBirth", "缴费人出生日期"),
  dateField(DATE_LINK_FORM.policyholderDependentIds[1], "date-7", "holderCertBirth", "投保人证件出生日期"),
  dateField(DATE_LINK_FORM.policyholderDependentIds[2], "date-8", "applicantBirth", "申请人出生日期"),
  {
    type: "button",
    id: "f8c1a2b3c4d5e6f7a8b9c0d1e2f3a4b5",
    options: { name: "button-1", key: "buttonIns01", label: "提交投保信息", type: "primary", value: "" },
  },
];

/**
 * Demo seed: the member's travel form, ready to open in /designer and preview in render mode, and a
 * released agent that shows it under every reply (send it the JSON of a trip to see the form filled).
 */
export async function seedDesigner(db: Db, ctx: { users: Record<string, string> }) {
  const ownerId = ctx.users.member;
  if (!ownerId) return;
  const [owner] = await db.select({ tenantId: users.tenantId }).from(users).where(eq(users.id, ownerId));
  const [travel] = await db
    .insert(designs)
    .values({
      tenantId: owner.tenantId,
      ownerId,
      name: "出行报告表单",
      widgetList: DEMO_DESIGN_WIDGETS,
      sampleResult: DEMO_DESIGN_RESULT,
    })
    .returning();
  const card = {
    agentName: "出行报告助手",
    agentDescription: "把出行信息整理成表单，确认后一键生成出行报告。",
    agentIcon: "5",
    agentIconBackground: "#f0f5ff",
  };
  const config = {
    ...defaultConfig(),
    persona:
      '你是出行报告助手。从用户的话里整理出行信息，只输出 JSON：{"traveller":{"name":"出行人","city":"目的地"},"trip":{"date":"YYYY-MM-DD"}}。',
    chatOption: {
      ...defaultConfig().chatOption,
      prologue: "告诉我谁、哪天、去哪里，我把它整理成表单，确认后点“生成报告”。",
      presetQuestions: ['{"traveller":{"name":"张三","city":"杭州"},"trip":{"date":"2026-12-01"}}'],
    },
    knowledge: defaultKnowledgeSettings(),
    designId: travel.id,
  };
  await insertReleasedAgent(db, { id: ownerId, tenantId: owner.tenantId }, card, config);
  await db.insert(designs).values({
    id: DATE_LINK_FORM.formId,
    tenantId: owner.tenantId,
    ownerId,
    name: "投保信息表（日期联动）",
    widgetList: INSURANCE_FORM_WIDGETS,
    sampleResult: "{}",
  });
}
