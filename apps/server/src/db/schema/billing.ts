import {
  bigint,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns.ts";
import { users } from "./users.ts";

const bytea = customType<{ data: Buffer }>({ dataType: () => "bytea" });

/** Plan templates per category and member level (doc 1 §3). Prices in integer cents. */
export const planTemplates = pgTable("plan_templates", {
  id: id(),
  category: text("category").notNull(),
  memberLevel: text("member_level").notNull(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  /** The English name and description; empty: the Chinese ones are shown. */
  nameEn: text("name_en").notNull().default(""),
  descriptionEn: text("description_en").notNull().default(""),
  monthlyCents: bigint("monthly_cents", { mode: "number" }).notNull(),
  types: text("types").notNull().default(""),
  discount: real("discount").notNull().default(1),
  countPerDay: integer("count_per_day").notNull().default(0),
  paidAgentCount: integer("paid_agent_count").notNull().default(0),
  insightPerDay: integer("insight_per_day").notNull().default(0),
  editCount: integer("edit_count").notNull().default(0),
  knowledgeSpace: integer("knowledge_space").notNull().default(0),
  pluginsNum: integer("plugins_num").notNull().default(0),
  invitedNum: integer("invited_num").notNull().default(0),
  /** Fee per edit past the allowance and per copy of a priced agent (agentDeductFeeTemplates.fees). */
  feeCents: bigint("fee_cents", { mode: "number" }).notNull().default(0),
  sort: integer("sort").notNull().default(0),
  enabled: boolean("enabled").notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const durationConfigs = pgTable("duration_configs", {
  id: id(),
  monthNum: integer("month_num").notNull(),
  priceDiscount: real("price_discount").notNull().default(1),
  enabled: boolean("enabled").notNull().default(true),
  createdAt: createdAt(),
});

export const rechargeOptions = pgTable("recharge_options", {
  id: id(),
  amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
  enabled: boolean("enabled").notNull().default(true),
  createdAt: createdAt(),
});

export const orders = pgTable(
  "orders",
  {
    id: id(),
    orderNo: text("order_no").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tenantId: text("tenant_id").notNull(),
    kind: text("kind").notNull(),
    title: text("title").notNull(),
    templateId: text("template_id"),
    configId: text("config_id"),
    memberLevel: text("member_level"),
    monthNum: integer("month_num"),
    renewUpgrade: text("renew_upgrade"),
    groupName: text("group_name"),
    groupId: text("group_id"),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    status: text("status").notNull().default("PENDING"),
    payChannel: text("pay_channel").notNull(),
    payUrl: text("pay_url").notNull().default(""),
    idempotencyKey: text("idempotency_key"),
    transactionId: text("transaction_id"),
    /**
     * What the grant changed, so a refund or freeze takes back exactly this order's grant (the
     * membership is replayed from `prev*` without it) and a release gives it back: the membership
     * before and after, each with the value of its time in cents per day (null: list price), and
     * when it was granted. Orders settled before these were recorded have only `granted*`.
     */
    grantedLevel: text("granted_level"),
    grantedEndAt: timestamp("granted_end_at", { withTimezone: true }),
    grantedCentsPerDay: doublePrecision("granted_cents_per_day"),
    grantedAt: timestamp("granted_at", { withTimezone: true }),
    prevLevel: text("prev_level"),
    prevEndAt: timestamp("prev_end_at", { withTimezone: true }),
    prevCentsPerDay: doublePrecision("prev_cents_per_day"),
    /** Money back to the payer through the provider: REQUESTED, then DONE (retried by reconciliation). */
    refundState: text("refund_state"),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique("orders_user_idempotency").on(t.userId, t.idempotencyKey), index("orders_status_created").on(t.status, t.createdAt)],
);

/** Every balance change: one row, written in the same transaction as the change. */
export const walletLedger = pgTable(
  "wallet_ledger",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    balanceAfterCents: bigint("balance_after_cents", { mode: "number" }).notNull(),
    agentId: text("agent_id"),
    agentName: text("agent_name"),
    orderId: text("order_id"),
    note: text("note").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [index("wallet_ledger_user_created").on(t.userId, t.createdAt)],
);

/** Payment notifications received, verified or not (audit; replays are visible here). */
export const paymentNotifications = pgTable("payment_notifications", {
  id: id(),
  provider: text("provider").notNull(),
  orderNo: text("order_no"),
  outcome: text("outcome").notNull(),
  createdAt: createdAt(),
});

export const benefitBatches = pgTable("benefit_batches", {
  id: id(),
  name: text("name").notNull(),
  grant: text("grant").notNull(),
  memberLevel: text("member_level"),
  days: integer("days"),
  amountCents: bigint("amount_cents", { mode: "number" }),
  count: integer("count").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }),
  createdBy: text("created_by").notNull(),
  createdAt: createdAt(),
});

export const benefitCodes = pgTable("benefit_codes", {
  code: text("code").primaryKey(),
  batchId: text("batch_id")
    .notNull()
    .references(() => benefitBatches.id, { onDelete: "cascade" }),
  redeemedBy: text("redeemed_by").references(() => users.id, { onDelete: "set null" }),
  redeemedAt: timestamp("redeemed_at", { withTimezone: true }),
});

/** The per-use charging flag of a chat session: charged again after 5 minutes idle. */
export const chatChargeFlags = pgTable(
  "chat_charge_flags",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: text("session_id").notNull(),
    agentId: text("agent_id").notNull(),
    lastActivityAt: timestamp("last_activity_at", { withTimezone: true }).notNull(),
    chargedAt: timestamp("charged_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.sessionId, t.agentId] })],
);

/** Free chats used per Asia/Shanghai day. */
export const freeChatUsage = pgTable(
  "free_chat_usage",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

/** Studio edits, for the free allowance (useNum counts this calendar month, Asia/Shanghai). */
export const agentEditRecords = pgTable(
  "agent_edit_records",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    agentId: text("agent_id").notNull(),
    month: text("month").notNull(),
    chargedCents: bigint("charged_cents", { mode: "number" }).notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("agent_edit_records_user_month").on(t.userId, t.month)],
);

/** Offline bank transfer forms (behind BANK_TRANSFER). */
export const transferRequests = pgTable("transfer_requests", {
  id: id(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  companyName: text("company_name").notNull(),
  contacts: text("contacts").notNull(),
  imageType: text("image_type").notNull(),
  image: bytea("image").notNull(),
  createdAt: createdAt(),
});
