import type {
  AdminPlanTemplate,
  DurationConfig,
  Language,
  PayChannel,
  PlanCategory,
  PlanTemplate,
  RechargeOption,
} from "@agentfair/contracts";
import { and, eq, lt, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import type { durationConfigInput, planTemplateInput, rechargeOptionInput } from "@agentfair/contracts";
import {
  chatChargeFlags,
  durationConfigs,
  freeChatUsage,
  planTemplates,
  rechargeOptions,
  transferRequests,
  users,
} from "../../db/schema/index.ts";
import type { Caller } from "../../platform/auth.ts";
import { badRequest, notFound } from "../../platform/errors.ts";
import type { Platform } from "../../platform/platform.ts";
import type { FeeTemplateSource } from "../users/users.service.ts";
import { Benefits } from "./benefits.ts";
import { CatalogRepository, cents, type PlanRow, planText, yuan } from "./billing.repository.ts";
import type { Billing, ChatCharge, PlanLimits } from "./billing.seam.ts";
import { OrdersService } from "./orders.service.ts";
import type { PaymentProvider } from "./payment/provider.ts";
import { SandboxProvider } from "./payment/sandbox.ts";
import { WechatPayProvider, wechatPaySettings } from "./payment/wechatpay.ts";
import { exempt, Quotas, shanghaiDay } from "./quotas.ts";
import { walletLog } from "./wallet.ts";

const ENTERPRISE_LEVELS = new Set(["ENT_ADVANCED_MONTHLY", "ENT_FLAGSHIP_MONTHLY"]);

/** What billing needs to know of an agent for fee calls by agentId; the agents module provides it. */
export interface AgentFeeLookup {
  agentForFee(caller: Caller, agentId: string): Promise<{ agentId: string; agentName: string; priceCents: number }>;
}

export const planWire = (p: PlanRow, lang: Language): PlanTemplate => ({
  id: p.id,
  category: p.category as PlanCategory,
  memberLevel: p.memberLevel as PlanTemplate["memberLevel"],
  ...planText(p, lang),
  num: yuan(p.monthlyCents),
  types: p.types,
  discount: p.discount,
  countPerDay: p.countPerDay,
  paidAgentCount: p.paidAgentCount,
  insightPerDay: p.insightPerDay,
  editCount: p.editCount,
  knowledgeSpace: p.knowledgeSpace,
  pluginsNum: p.pluginsNum,
  invitedNum: p.invitedNum,
  fees: yuan(p.feeCents),
  sort: p.sort,
  enabled: p.enabled,
});
const adminPlanWire = (p: PlanRow): AdminPlanTemplate => ({ ...planWire(p, "zh"), nameEn: p.nameEn, descriptionEn: p.descriptionEn });
const durationWire = (d: typeof durationConfigs.$inferSelect): DurationConfig => ({
  id: d.id,
  monthNum: d.monthNum,
  priceDiscount: d.priceDiscount,
  enabled: d.enabled,
});
const optionWire = (o: typeof rechargeOptions.$inferSelect): RechargeOption => ({
  id: o.id,
  amount: yuan(o.amountCents),
  enabled: o.enabled,
});
const planValues = (input: z.output<typeof planTemplateInput>) => {
  const { num, fees, ...rest } = input;
  return { ...rest, monthlyCents: cents(num), feeCents: cents(fees) };
};

/** Membership, orders and payment, wallet, benefit codes, fees and quotas. */
export class BillingService implements Billing, FeeTemplateSource {
  readonly catalog: CatalogRepository;
  readonly orders: OrdersService;
  readonly quotas: Quotas;
  readonly benefits: Benefits;
  readonly sandbox: SandboxProvider;
  private agents: AgentFeeLookup | null = null;

  constructor(readonly platform: Platform) {
    this.catalog = new CatalogRepository(platform.db);
    this.sandbox = new SandboxProvider(platform.secret);
    const channel: PayChannel = platform.config.PAYMENT_PROVIDER;
    const providers: Record<PayChannel, PaymentProvider | null> = {
      sandbox: channel === "sandbox" ? this.sandbox : null,
      wechatpay: channel === "wechatpay" ? new WechatPayProvider(wechatPaySettings(platform.config)) : null,
    };
    this.orders = new OrdersService(platform, this.catalog, providers, channel);
    if (channel === "sandbox")
      platform.log.warn("PAYMENT_PROVIDER=sandbox: payments are confirmed on the built-in pay page (evaluation only)");
    this.quotas = new Quotas(platform, this.catalog);
    this.benefits = new Benefits(platform, this.catalog);
    platform.jobs.schedule("billing.expire-members", "* * * * *", () => this.expireMembers());
    platform.jobs.schedule("billing.reconcile-orders", "*/2 * * * *", () => this.orders.reconcile());
    platform.jobs.schedule("billing.cleanup", "17 3 * * *", () => this.cleanup());
  }

  /** The agents module registers how to look an agent up (price, name) for the fee calls. */
  useAgents(lookup: AgentFeeLookup) {
    this.agents = lookup;
  }

  async agentForFee(caller: Caller, agentId: string) {
    if (!this.agents) throw badRequest("agentNotFoundForFee");
    return this.agents.agentForFee(caller, agentId);
  }

  // ---- seams -------------------------------------------------------------------------------

  async feeFor(caller: Caller): Promise<{ category: PlanCategory; fees: number }> {
    const plan = await this.catalog.planForLevel(caller.memberLevel);
    return { category: ENTERPRISE_LEVELS.has(caller.memberLevel) ? "ENTERPRISE" : "PERSONAL", fees: yuan(plan?.feeCents ?? 0) };
  }

  async chargeAgentCopy(caller: Caller, agent: { agentId: string; agentName: string; priceCents: number }): Promise<void> {
    await this.quotas.chargeCopy(caller, agent);
  }

  async chargeAgentEdit(caller: Caller, agent: { agentId: string; agentName: string }): Promise<void> {
    await this.quotas.recordEdit(caller, agent);
  }

  async insightPerDay(caller: Caller) {
    if (exempt(caller)) return null;
    return (await this.catalog.planForLevel(caller.memberLevel))?.insightPerDay ?? null;
  }

  async insightTypes(caller: Caller) {
    if (exempt(caller)) return null;
    const plan = await this.catalog.planForLevel(caller.memberLevel);
    if (!plan) return null;
    return plan.types
      .split(/[,，]/)
      .map((t) => t.trim())
      .filter(Boolean);
  }

  /**
   * The member template's pluginsNum, knowledgeSpace (MB) and paidAgentCount, as the chat count is
   * decided: exempt callers and levels without an enabled template have no limit; tenant users their level's.
   */
  async planLimits(caller: Caller): Promise<PlanLimits> {
    const none = { plugins: null, knowledgeBytes: null, pricedAgents: null };
    if (exempt(caller)) return none;
    const plan = await this.catalog.planForLevel(caller.memberLevel);
    if (!plan) return none;
    return { plugins: plan.pluginsNum, knowledgeBytes: plan.knowledgeSpace * 1024 * 1024, pricedAgents: plan.paidAgentCount };
  }

  chatNeedsMembership(caller: Caller, agent: { priceCents: number }) {
    return this.quotas.chatNeedsMembership(caller, agent);
  }
  checkChat(
    caller: Caller,
    agent: { agentId: string; agentName: string; priceCents: number; ownerId: string },
    sessionId: string,
    model?: { tenantId: string | null },
  ) {
    return this.quotas.checkChat(caller, agent, sessionId, model);
  }
  refundChat(charge: ChatCharge) {
    return this.quotas.refundChat(charge);
  }
  async claimModelCall(caller: Caller, model: { tenantId: string | null }) {
    await this.quotas.claimDailyChat(caller, model);
  }

  // ---- catalogue ---------------------------------------------------------------------------

  async plans(lang: Language, category?: PlanCategory) {
    return (await this.catalog.plans(category)).map((p) => planWire(p, lang));
  }
  /** Every plan as administrators edit it: the Chinese texts and the English ones. */
  async adminPlans(category?: PlanCategory): Promise<AdminPlanTemplate[]> {
    return (await this.catalog.plans(category, false)).map(adminPlanWire);
  }
  async durations(all = false) {
    return (await this.catalog.durations(!all)).map(durationWire);
  }
  async rechargeOptions(all = false) {
    return (await this.catalog.rechargeOptions(!all)).map(optionWire);
  }

  async savePlan(id: string | null, input: z.output<typeof planTemplateInput>) {
    const db = this.platform.db;
    const values = planValues(input);
    const [row] = id
      ? await db.update(planTemplates).set(values).where(eq(planTemplates.id, id)).returning()
      : await db.insert(planTemplates).values(values).returning();
    if (!row) throw notFound();
    return adminPlanWire(row);
  }
  async deletePlan(id: string) {
    const rows = await this.platform.db.delete(planTemplates).where(eq(planTemplates.id, id)).returning();
    if (!rows[0]) throw notFound();
  }
  async saveDuration(id: string | null, input: z.output<typeof durationConfigInput>) {
    const db = this.platform.db;
    const [row] = id
      ? await db.update(durationConfigs).set(input).where(eq(durationConfigs.id, id)).returning()
      : await db.insert(durationConfigs).values(input).returning();
    if (!row) throw notFound();
    return durationWire(row);
  }
  async deleteDuration(id: string) {
    const rows = await this.platform.db.delete(durationConfigs).where(eq(durationConfigs.id, id)).returning();
    if (!rows[0]) throw notFound();
  }
  async saveRechargeOption(id: string | null, input: z.output<typeof rechargeOptionInput>) {
    const db = this.platform.db;
    const values = { amountCents: cents(input.amount), enabled: input.enabled };
    const [row] = id
      ? await db.update(rechargeOptions).set(values).where(eq(rechargeOptions.id, id)).returning()
      : await db.insert(rechargeOptions).values(values).returning();
    if (!row) throw notFound();
    return optionWire(row);
  }
  async deleteRechargeOption(id: string) {
    const rows = await this.platform.db.delete(rechargeOptions).where(eq(rechargeOptions.id, id)).returning();
    if (!rows[0]) throw notFound();
  }

  // ---- wallet ------------------------------------------------------------------------------

  walletLog(
    caller: Caller,
    type: "USE" | "ALL",
    req: { pageNumber: number; pageSize: number; startDate?: string; endDate?: string },
    lang: Language,
  ) {
    return walletLog(this.platform.db, caller, type, req, lang);
  }

  async balance(userId: string) {
    const [u] = await this.platform.db.select({ b: users.balanceCents }).from(users).where(eq(users.id, userId));
    return yuan(u?.b ?? 0);
  }

  // ---- membership expiry -------------------------------------------------------------------

  /** Expired levels return to FREE (the job runs every minute; sign-in already treats them as FREE). */
  async expireMembers() {
    await this.platform.db
      .update(users)
      .set({ memberLevel: "FREE", memberEndAt: null })
      .where(and(ne(users.memberLevel, "FREE"), lt(users.memberEndAt, sql`now()`)));
  }

  /** Old charging flags and free-chat counters are no longer needed: both only look at today. */
  async cleanup() {
    const db = this.platform.db;
    await db.delete(chatChargeFlags).where(lt(chatChargeFlags.lastActivityAt, sql`now() - interval '2 days'`));
    await db.delete(freeChatUsage).where(lt(freeChatUsage.day, shanghaiDay(new Date(Date.now() - 7 * 86_400_000))));
  }

  // ---- bank transfer -----------------------------------------------------------------------

  async submitTransfer(caller: Caller, form: { companyName: string; contacts: string; mime: string; image: Buffer }) {
    if (!this.platform.config.BANK_TRANSFER) throw badRequest("transferDisabled");
    const png = form.image.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const jpg = form.image[0] === 0xff && form.image[1] === 0xd8 && form.image[2] === 0xff;
    if (!png && !jpg) throw badRequest("transferImageType");
    await this.platform.db.insert(transferRequests).values({
      userId: caller.userId,
      companyName: form.companyName,
      contacts: form.contacts,
      imageType: png ? "image/png" : "image/jpeg",
      image: form.image,
    });
  }

  async transfers() {
    const rows = await this.platform.db
      .select({ t: transferRequests, username: users.username })
      .from(transferRequests)
      .innerJoin(users, eq(users.id, transferRequests.userId));
    return rows.map(({ t, username }) => ({
      id: t.id,
      companyName: t.companyName,
      contacts: t.contacts,
      username,
      createTime: t.createdAt.toISOString(),
    }));
  }

  async transferImage(id: string) {
    const [row] = await this.platform.db.select().from(transferRequests).where(eq(transferRequests.id, id));
    if (!row) throw notFound();
    return { type: row.imageType, image: row.image };
  }
}
