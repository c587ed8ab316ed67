import type { Db } from "../../db/client.ts";
import { benefitBatches, benefitCodes, durationConfigs, planTemplates, rechargeOptions } from "../../db/schema/index.ts";
import type { DemoSeed } from "../../seed/demo-seed.ts";
import { changeBalance } from "./billing.repository.ts";

/** A demo benefit code a newcomer can try (MONTHLY for 30 days); README lists it. */
export const DEMO_BENEFIT_CODE = "AFDEMO2026";

/** Plans, durations, top-up options and one demo benefit code. */
export const billingDemoSeed: DemoSeed = async (db: Db, ctx) => {
  const types = "chatBi,chat dashboard,chatWord,chatPPT,industry report";
  await db.insert(planTemplates).values([
    {
      category: "PERSONAL",
      memberLevel: "FREE",
      name: "免费版",
      description: "体验智能体广场与基础对话",
      nameEn: "Free",
      descriptionEn: "Try the agent marketplace and basic chat",
      monthlyCents: 0,
      types: "chatBi",
      countPerDay: 20,
      paidAgentCount: 0,
      insightPerDay: 1,
      editCount: 3,
      knowledgeSpace: 100,
      pluginsNum: 3,
      invitedNum: 0,
      feeCents: 100,
      sort: 0,
    },
    {
      category: "PERSONAL",
      memberLevel: "MONTHLY",
      name: "基础版",
      description: "个人日常办公的好帮手",
      nameEn: "Basic",
      descriptionEn: "A good helper for everyday work",
      monthlyCents: 2900,
      types: "chatBi,chatWord",
      countPerDay: 200,
      paidAgentCount: 5,
      insightPerDay: 5,
      editCount: 20,
      knowledgeSpace: 1024,
      pluginsNum: 10,
      invitedNum: 1,
      feeCents: 50,
      sort: 1,
    },
    {
      category: "PERSONAL",
      memberLevel: "PER_FLAGSHIP_MONTHLY",
      name: "个人旗舰版",
      description: "全部个人能力，不限量使用",
      nameEn: "Personal flagship",
      descriptionEn: "Every personal feature, without limits",
      monthlyCents: 9900,
      types,
      discount: 0.8,
      countPerDay: 1000,
      paidAgentCount: 50,
      insightPerDay: 30,
      editCount: 100,
      knowledgeSpace: 10240,
      pluginsNum: 50,
      invitedNum: 3,
      feeCents: 20,
      sort: 2,
    },
    {
      category: "ENTERPRISE",
      memberLevel: "ENT_ADVANCED_MONTHLY",
      name: "企业基础版",
      description: "团队协作，共享知识库",
      nameEn: "Enterprise basic",
      descriptionEn: "Teamwork with shared knowledge bases",
      monthlyCents: 29900,
      types,
      discount: 0.9,
      countPerDay: 2000,
      paidAgentCount: 100,
      insightPerDay: 50,
      editCount: 300,
      knowledgeSpace: 51200,
      pluginsNum: 100,
      invitedNum: 10,
      feeCents: 10,
      sort: 1,
    },
    {
      category: "ENTERPRISE",
      memberLevel: "ENT_FLAGSHIP_MONTHLY",
      name: "企业旗舰版",
      description: "大型团队与专属服务",
      nameEn: "Enterprise flagship",
      descriptionEn: "For large teams, with dedicated service",
      monthlyCents: 99900,
      types,
      discount: 0.85,
      countPerDay: 10000,
      paidAgentCount: 500,
      insightPerDay: 200,
      editCount: 1000,
      knowledgeSpace: 204800,
      pluginsNum: 500,
      invitedNum: 50,
      feeCents: 0,
      sort: 2,
    },
  ]);
  await db.insert(durationConfigs).values([
    { monthNum: 1, priceDiscount: 1 },
    { monthNum: 3, priceDiscount: 0.95 },
    { monthNum: 6, priceDiscount: 0.9 },
    { monthNum: 12, priceDiscount: 0.8 },
  ]);
  await db.insert(rechargeOptions).values([10, 50, 100, 200, 500, 1000].map((y) => ({ amountCents: y * 100 })));
  // The member's opening balance goes through the wallet like any other money, with its ledger row.
  const member = ctx.users.member;
  if (member) await db.transaction((tx) => changeBalance(tx, member, 10000, { kind: "ADJUST", note: "演示账户初始余额" }));
  const admin = ctx.users.admin;
  if (admin) {
    const [batch] = await db
      .insert(benefitBatches)
      .values({ name: "演示权益码", grant: "LEVEL", memberLevel: "MONTHLY", days: 30, count: 1, createdBy: admin })
      .returning();
    await db.insert(benefitCodes).values({ code: DEMO_BENEFIT_CODE, batchId: batch.id });
  }
};
