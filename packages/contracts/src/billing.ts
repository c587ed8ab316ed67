import { z } from "zod";
import { type MemberLevel, memberLevel, type PlanCategory, planCategory } from "./auth.ts";

/** Order statuses (doc 1 §3). */
export const ORDER_STATUSES = ["PENDING", "PAID", "CANCELLED", "REFUNDED", "FROZEN"] as const;
export const orderStatus = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatus>;

/**
 * The only legal order transitions. PENDING settles (PAID) or is cancelled; an administrator
 * refunds or freezes a paid order; a frozen order is released (PAID) or refunded.
 */
export const ORDER_TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  PENDING: ["PAID", "CANCELLED"],
  PAID: ["REFUNDED", "FROZEN"],
  FROZEN: ["PAID", "REFUNDED"],
  CANCELLED: [],
  REFUNDED: [],
};
export const canTransition = (from: OrderStatus, to: OrderStatus) => ORDER_TRANSITIONS[from].includes(to);

export const RENEW_UPGRADE = ["RENEW", "UPGRADE"] as const;
export const renewUpgrade = z.enum(RENEW_UPGRADE);
export const ORDER_KINDS = ["MEMBERSHIP", "RECHARGE"] as const;
export const orderKind = z.enum(ORDER_KINDS);
export const PAY_CHANNELS = ["sandbox", "wechatpay"] as const;
export const payChannel = z.enum(PAY_CHANNELS);
export type PayChannel = z.infer<typeof payChannel>;

/** Doc 1 §4 and §9. */
export const ORDER_POLL_MS = 3000;
export const RELOAD_AFTER_PAY_MS = 2000;
export const ORDER_PAGE_SIZE = 100;
export const BUY_QR_SIZE = 112;
export const RECHARGE_QR_SIZE = 160;
/** Free plan: 20 free chats a day on free agents, the day in Asia/Shanghai. */
export const FREE_CHATS_PER_DAY = 20;
export const BILLING_TIME_ZONE = "Asia/Shanghai";
/** The per-use charging flag resets after 5 minutes without activity (doc 2 §4). */
export const CHARGE_IDLE_MS = 5 * 60 * 1000;
/** A custom top-up amount, in yuan. */
export const RECHARGE_MIN_YUAN = 1;
export const RECHARGE_MAX_YUAN = 50000;

/** Rank of a level within its category; FREE is below both. */
export const LEVEL_RANK: Record<MemberLevel, number> = {
  FREE: 0,
  MONTHLY: 1,
  PER_FLAGSHIP_MONTHLY: 2,
  ENT_ADVANCED_MONTHLY: 1,
  ENT_FLAGSHIP_MONTHLY: 2,
};
export const levelCategory = (level: MemberLevel): PlanCategory | null =>
  level === "FREE" ? null : level.startsWith("ENT_") ? "ENTERPRISE" : "PERSONAL";

export type PlanButtonState = "use" | "enjoyed" | "renew" | "upgrade";
/**
 * The plan button states of doc 1 §4: a FREE user sees use (free column) / upgrade; a paid
 * user sees 'enjoyed' below their level, renew on their own level and upgrade above it.
 * Team plans: renew when the level matches, otherwise upgrade.
 */
export function planButtonState(
  userLevel: MemberLevel | null | undefined,
  plan: { memberLevel: MemberLevel; category: PlanCategory },
): PlanButtonState {
  const level = userLevel ?? "FREE";
  if (plan.category === "ENTERPRISE") return level === plan.memberLevel ? "renew" : "upgrade";
  if (plan.memberLevel === "FREE") return level === "FREE" ? "use" : "enjoyed";
  if (levelCategory(level) === "ENTERPRISE") return "upgrade";
  const mine = LEVEL_RANK[level];
  const theirs = LEVEL_RANK[plan.memberLevel];
  if (theirs < mine) return "enjoyed";
  if (theirs === mine) return "renew";
  return "upgrade";
}

/** Discount shown as discount × 10 '折' (doc 1 §9); 1 means no discount. */
export const discountFold = (discount: number) => Math.round(discount * 100) / 10;
/** The same discount as English says it: 0.8 is 20% off. */
export const discountPercentOff = (discount: number) => Math.round((1 - discount) * 1000) / 10;

/** The price of a membership order in cents: monthly price × months × duration discount × plan discount. */
export function membershipPriceCents(monthlyCents: number, monthNum: number, priceDiscount: number, discount: number) {
  return Math.max(0, Math.round(monthlyCents * monthNum * priceDiscount * discount));
}

const yuan = z.number();
const id = z.string().min(1).max(64);

export const planTemplate = z.object({
  id: z.string(),
  category: planCategory,
  memberLevel,
  name: z.string(),
  description: z.string(),
  /** Monthly price in yuan. */
  num: yuan,
  types: z.string(),
  discount: z.number(),
  countPerDay: z.number().int(),
  paidAgentCount: z.number().int(),
  insightPerDay: z.number().int(),
  editCount: z.number().int(),
  knowledgeSpace: z.number().int(),
  pluginsNum: z.number().int(),
  invitedNum: z.number().int(),
  /** The edit / copy fee of this level in yuan (agentDeductFeeTemplates.fees). */
  fees: yuan,
  sort: z.number().int(),
  enabled: z.boolean(),
});
export type PlanTemplate = z.infer<typeof planTemplate>;
/**
 * A plan as administrators edit it: name and description are the Chinese texts, with their
 * English ones beside (the plan calls answer with the caller's language, Chinese when no English).
 */
export const adminPlanTemplate = planTemplate.extend({ nameEn: z.string(), descriptionEn: z.string() });
export type AdminPlanTemplate = z.infer<typeof adminPlanTemplate>;

const int = (max: number) => z.number().int().min(0).max(max);
export const planTemplateInput = z.object({
  category: planCategory,
  memberLevel,
  name: z.string().trim().min(1).max(40),
  description: z.string().trim().max(500).default(""),
  nameEn: z.string().trim().max(60).default(""),
  descriptionEn: z.string().trim().max(800).default(""),
  num: z.number().min(0).max(1_000_000),
  types: z.string().trim().max(200).default(""),
  discount: z.number().gt(0).max(1).default(1),
  countPerDay: int(1_000_000).default(0),
  paidAgentCount: int(1_000_000).default(0),
  insightPerDay: int(1_000_000).default(0),
  editCount: int(1_000_000).default(0),
  knowledgeSpace: int(1_000_000).default(0),
  pluginsNum: int(1_000_000).default(0),
  invitedNum: int(1_000_000).default(0),
  fees: z.number().min(0).max(100_000).default(0),
  sort: z.number().int().min(0).max(10_000).default(0),
  enabled: z.boolean().default(true),
});
export type PlanTemplateInput = z.input<typeof planTemplateInput>;

export const durationConfig = z.object({ id: z.string(), monthNum: z.number().int(), priceDiscount: z.number(), enabled: z.boolean() });
export type DurationConfig = z.infer<typeof durationConfig>;
export const durationConfigInput = z.object({
  monthNum: z.number().int().min(1).max(120),
  priceDiscount: z.number().gt(0).max(1),
  enabled: z.boolean().default(true),
});

export const rechargeOption = z.object({ id: z.string(), amount: yuan, enabled: z.boolean() });
export type RechargeOption = z.infer<typeof rechargeOption>;
export const rechargeOptionInput = z.object({
  amount: z.number().min(RECHARGE_MIN_YUAN).max(RECHARGE_MAX_YUAN),
  enabled: z.boolean().default(true),
});

/** Body of POST /api/order/{id}/create and /api/order/buyMembers. Client amounts are ignored. */
export const createOrderRequest = z.object({
  renewUpgrade: renewUpgrade.optional(),
  configId: id.optional(),
  groupName: z.string().trim().max(64).optional(),
  groupId: z.string().max(64).optional(),
  idempotencyKey: z.string().trim().min(8).max(64).optional(),
});
export const buyMembersRequest = createOrderRequest.extend({ orderTemplateId: id });

export const orderCreated = z.object({
  orderId: z.string(),
  orderNo: z.string(),
  payUrl: z.string(),
  payChannel,
  orderAmount: yuan,
  orderStatus,
});
export type OrderCreated = z.infer<typeof orderCreated>;

export const rechargeByAmountRequest = z.object({
  amount: z.number().min(RECHARGE_MIN_YUAN).max(RECHARGE_MAX_YUAN),
  idempotencyKey: z.string().trim().min(8).max(64).optional(),
});

export const order = z.object({
  orderId: z.string(),
  orderNo: z.string(),
  kind: orderKind,
  title: z.string(),
  memberLevel: memberLevel.nullable(),
  monthNum: z.number().int().nullable(),
  renewUpgrade: renewUpgrade.nullable(),
  groupName: z.string().nullable(),
  payUrl: z.string(),
  payChannel,
  orderStatus,
  totalAmount: yuan,
  orderAmount: yuan,
  createTime: z.string(),
  paidTime: z.string().nullable(),
  username: z.string().optional(),
});
export type Order = z.infer<typeof order>;

export const orderListRequest = z.object({
  createdByMe: z.boolean().default(true),
  pageNumber: z.number().int().min(0).max(100_000).default(0),
  pageSize: z.number().int().min(1).max(ORDER_PAGE_SIZE).default(ORDER_PAGE_SIZE),
  orderStatus: orderStatus.optional(),
});
export const orderPage = z.object({ list: z.array(order), total: z.number() });

export const cancelOrderRequest = z.object({ orderId: z.string().max(64).optional(), orderNo: z.string().max(64).optional() });

export const payDetail = order.extend({ subject: z.string() });

/** Sandbox pay page: what the payer sees, and their decision. */
export const sandboxPayInfo = z.object({
  orderNo: z.string(),
  subject: z.string(),
  orderAmount: yuan,
  orderStatus,
});
export const sandboxDecision = z.object({ t: z.string().min(1).max(200), decision: z.enum(["confirm", "decline"]) });

export const WALLET_LOG_TYPES = ["USE", "ALL"] as const;
export const WALLET_KINDS = [
  "RECHARGE",
  "MEMBERSHIP",
  "USE",
  "EDIT_FEE",
  "COPY_FEE",
  "BENEFIT",
  "REFUND",
  "FREEZE",
  "UNFREEZE",
  "ADJUST",
] as const;
export const walletKind = z.enum(WALLET_KINDS);
export const walletLogRequest = z.object({
  pageNumber: z.number().int().min(0).max(100_000).default(0),
  pageSize: z.number().int().min(1).max(100).default(10),
  /** YYYY-MM-DD, Asia/Shanghai, inclusive. */
  startDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  endDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
});
export const walletLogRow = z.object({
  id: z.string(),
  kind: walletKind,
  amount: yuan,
  balanceAfter: yuan,
  agentId: z.string().nullable(),
  agentName: z.string().nullable(),
  orderNo: z.string().nullable(),
  note: z.string(),
  createTime: z.string(),
});
export const walletLogPage = z.object({
  list: z.array(walletLogRow),
  total: z.number(),
  lineChart: z.array(z.object({ dates: z.string(), agentName: z.string(), amount: yuan })),
  pieChart: z.array(z.object({ agentName: z.string(), amount: yuan })),
});
export type WalletLogPage = z.infer<typeof walletLogPage>;

export const useCodeRequest = z.object({ benefitCode: z.string().max(64).optional() });
export const BENEFIT_GRANTS = ["LEVEL", "AMOUNT"] as const;
export const benefitGrant = z.enum(BENEFIT_GRANTS);
export const benefitResult = z.object({
  grant: benefitGrant,
  memberLevel: memberLevel.nullable(),
  endDate: z.string().nullable(),
  amount: yuan,
});
export const benefitBatchInput = z
  .object({
    name: z.string().trim().min(1).max(60),
    grant: benefitGrant,
    memberLevel: memberLevel.optional(),
    days: z.number().int().min(1).max(3660).optional(),
    amount: z.number().min(0.01).max(RECHARGE_MAX_YUAN).optional(),
    count: z.number().int().min(1).max(1000),
    expiresAt: z.string().datetime({ offset: true }).optional(),
  })
  .refine((b) => (b.grant === "LEVEL" ? !!b.memberLevel && b.memberLevel !== "FREE" && !!b.days : !!b.amount), {
    message: "LEVEL needs memberLevel and days; AMOUNT needs amount",
  });
export const benefitBatch = z.object({
  id: z.string(),
  name: z.string(),
  grant: benefitGrant,
  memberLevel: memberLevel.nullable(),
  days: z.number().nullable(),
  amount: yuan.nullable(),
  count: z.number(),
  redeemed: z.number(),
  expiresAt: z.string().nullable(),
  createTime: z.string(),
});
export const benefitCodeRow = z.object({ code: z.string(), redeemedBy: z.string().nullable(), redeemedAt: z.string().nullable() });

/** Edit allowance (doc 1 §3). */
export const useEditNum = z.object({ useNum: z.number().int(), editNum: z.number().int() });
export const agentIdRequest = z.object({ agentId: z.string().min(1).max(64) });
export const editRecordRequest = z.object({ agentId: z.string().min(1).max(64), agentName: z.string().max(100).optional() });
export const feeResult = z.object({ charged: yuan, balance: yuan, useNum: z.number().int(), editNum: z.number().int() });
export const copyCost = z.object({ fee: yuan, priced: z.boolean(), balance: yuan });

/** Offline bank transfer form (doc 1 §3, §5). */
export const TRANSFER_IMAGE_TYPES = ["image/png", "image/jpeg"] as const;
export const transferForm = z.object({ companyName: z.string().trim().min(1).max(100), contacts: z.string().trim().min(1).max(100) });
export const transferRequest = z.object({
  id: z.string(),
  companyName: z.string(),
  contacts: z.string(),
  username: z.string(),
  createTime: z.string(),
});
