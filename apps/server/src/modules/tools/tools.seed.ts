import { pluginInput } from "@agentfair/contracts";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { plugins, users } from "../../db/schema/index.ts";
import { STANDARD_PLUGINS } from "./standard-plugins.ts";
import { definitionOf, hashOf } from "./tools.service.ts";

/** A JavaScript plugin that works offline: China's monthly individual income tax on wages (2019 brackets). */
export const DEMO_TAX_PLUGIN = pluginInput.parse({
  pluginName: "个税计算器",
  pluginDescription: "按2019年起的综合所得税率表，计算月工资的个人所得税与税后收入（起征点5000元）",
  pluginIcon: "8",
  pluginIconBackground: "#e8fffb",
  pluginType: "JAVASCRIPT",
  pluginCallableName: "income_tax",
  pluginTags: ["金融"],
  parameters: [
    { name: "salary", type: "number", required: true, description: "税前月工资（元）" },
    { name: "insurance", type: "number", description: "个人缴纳的五险一金（元），默认0" },
  ],
  code: `// main(params) 的返回值就是工具结果
const BRACKETS = [
  [36000, 0.03, 0], [144000, 0.1, 2520], [300000, 0.2, 16920], [420000, 0.25, 31920],
  [660000, 0.3, 52920], [960000, 0.35, 85920], [Infinity, 0.45, 181920],
];
function main(params) {
  const salary = Number(params.salary);
  const insurance = Number(params.insurance ?? 0);
  const taxable = Math.max(0, salary - insurance - 5000);
  const yearly = taxable * 12;
  const [, rate, deduction] = BRACKETS.find(([limit]) => yearly <= limit);
  const tax = Math.round(((yearly * rate - deduction) / 12) * 100) / 100;
  return { salary, taxable, rate, tax, afterTax: Math.round((salary - insurance - tax) * 100) / 100 };
}`,
});

/**
 * The standard tools, published and owned by an administrator (a row needs an owner; being
 * standard is what makes them visible to everyone and never editable). Skips those already there.
 */
export async function seedStandardPlugins(db: Db, adminId: string) {
  const [owner] = await db.select({ tenantId: users.tenantId }).from(users).where(eq(users.id, adminId));
  const have = new Set(
    (await db.select({ name: plugins.pluginCallableName }).from(plugins).where(eq(plugins.ownerId, adminId))).map((r) => r.name),
  );
  for (const { input, builtin } of STANDARD_PLUGINS) {
    if (have.has(input.pluginCallableName)) continue;
    const definition = { ...definitionOf(input), ...(builtin ? { builtin } : {}) };
    const row = { pluginType: input.pluginType ?? "HTTP", definition, authSecretEnc: null };
    await db.insert(plugins).values({
      tenantId: owner.tenantId,
      ownerId: adminId,
      pluginName: input.pluginName,
      pluginDescription: input.pluginDescription,
      pluginIcon: input.pluginIcon,
      pluginIconBackground: input.pluginIconBackground,
      pluginCallableName: input.pluginCallableName,
      pluginTags: input.pluginTags,
      standard: true,
      ...row,
      pluginStatus: "C90_Released",
      testedHash: hashOf(row),
    });
  }
}

/** Demo seed: the standard tools, and the member's published tax plugin (its definition is the one tests run). */
export async function seedTools(db: Db, ctx: { users: Record<string, string> }) {
  if (ctx.users.admin) await seedStandardPlugins(db, ctx.users.admin);
  const ownerId = ctx.users.member;
  if (!ownerId) return;
  const [owner] = await db.select({ tenantId: users.tenantId }).from(users).where(eq(users.id, ownerId));
  const definition = definitionOf(DEMO_TAX_PLUGIN);
  const row = { pluginType: "JAVASCRIPT", definition, authSecretEnc: null };
  await db.insert(plugins).values({
    tenantId: owner.tenantId,
    ownerId,
    pluginName: DEMO_TAX_PLUGIN.pluginName,
    pluginDescription: DEMO_TAX_PLUGIN.pluginDescription,
    pluginIcon: DEMO_TAX_PLUGIN.pluginIcon,
    pluginIconBackground: DEMO_TAX_PLUGIN.pluginIconBackground,
    pluginCallableName: DEMO_TAX_PLUGIN.pluginCallableName,
    pluginTags: DEMO_TAX_PLUGIN.pluginTags,
    ...row,
    pluginStatus: "C90_Released",
    testedHash: hashOf(row),
  });
}
