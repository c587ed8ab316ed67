import { randomInt } from "node:crypto";
import {
  canTransition,
  type MemberLevel,
  membershipPriceCents,
  type Order,
  type OrderCreated,
  type OrderStatus,
  type Language,
  type PayChannel,
} from "@agentfair/contracts";
import { and, count, desc, eq, gt, inArray, isNull, lt, ne, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db, Tx } from "../../db/client.ts";
import { orders, paymentNotifications, planTemplates, userGroups, users } from "../../db/schema/index.ts";
import { type Caller, requireAccess } from "../../platform/auth.ts";
import { AppError, badRequest, notFound } from "../../platform/errors.ts";
import { translate } from "../../platform/messages.ts";
import type { Platform } from "../../platform/platform.ts";
import { type CatalogRepository, changeBalance, lockUser, type PlanRow, planText, recordEvent, yuan } from "./billing.repository.ts";
import { grantColumns, lastGrantAt, membershipOf, rebuildFrom } from "./grants.ts";
import { applyGrant, isActive, type Membership, purchaseKind } from "./membership.ts";
import { type PaymentProvider, PaymentVerificationError, type VerifiedPayment } from "./payment/provider.ts";

type OrderRow = typeof orders.$inferSelect;
type NewOrder = Omit<typeof orders.$inferInsert, "orderNo" | "userId" | "tenantId" | "payChannel">;

/** The web route base of the caller: tenant users' pages live under /{domain}. */
const basePath = (caller: Caller) => (caller.tenantIsDefault ? "" : `/${encodeURIComponent(caller.tenantDomain)}`);

const newOrderNo = () => {
  const d = new Date(Date.now() + 8 * 3600_000).toISOString().replace(/\D/g, "").slice(0, 14);
  return `AF${d}${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;
};

/**
 * What an order is for, in the reader's language: the top-up amount, or the plan's name (from
 * the plan when it still exists, else as sold) and the months.
 */
export function orderTitle(o: OrderRow, lang: Language, plan?: PlanRow | null) {
  if (o.kind === "RECHARGE") return translate("rechargeOrderTitle", lang, { amount: yuan(o.amountCents) });
  if (!plan) return o.title;
  return translate("membershipOrderTitle", lang, { name: planText(plan, lang).name, months: o.monthNum ?? 1 });
}

export function orderWire(o: OrderRow, username?: string, title = o.title): Order {
  return {
    orderId: o.id,
    orderNo: o.orderNo,
    kind: o.kind as Order["kind"],
    title,
    memberLevel: (o.memberLevel as MemberLevel | null) ?? null,
    monthNum: o.monthNum,
    renewUpgrade: (o.renewUpgrade as Order["renewUpgrade"]) ?? null,
    groupName: o.groupName,
    payUrl: o.status === "PENDING" ? o.payUrl : "",
    payChannel: o.payChannel as PayChannel,
    orderStatus: o.status as OrderStatus,
    totalAmount: yuan(o.amountCents),
    orderAmount: yuan(o.amountCents),
    createTime: o.createdAt.toISOString(),
    paidTime: o.paidAt?.toISOString() ?? null,
    ...(username !== undefined ? { username } : {}),
  };
}

const created = (o: OrderRow): OrderCreated => ({
  orderId: o.id,
  orderNo: o.orderNo,
  payUrl: o.payUrl,
  payChannel: o.payChannel as PayChannel,
  orderAmount: yuan(o.amountCents),
  orderStatus: o.status as OrderStatus,
});

/** Orders from creation to settlement, cancellation, refund and freeze; only legal transitions. */
export class OrdersService {
  constructor(
    private readonly platform: Platform,
    private readonly catalog: CatalogRepository,
    private readonly providers: Record<PayChannel, PaymentProvider | null>,
    private readonly channel: PayChannel,
  ) {}

  private get db(): Db {
    return this.platform.db;
  }

  private provider(channel: string): PaymentProvider {
    const p = this.providers[channel as PayChannel];
    if (!p) throw new Error(`payment channel ${channel} is not configured`);
    return p;
  }

  private async byIdempotencyKey(tx: Tx, caller: Caller, key: string | null | undefined) {
    if (!key) return null;
    const [row] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.userId, caller.userId), eq(orders.idempotencyKey, key)));
    return row ?? null;
  }

  /**
   * The caller's open order for the same purchase (plan, duration, kind, group and amount),
   * while it has at least half its life left for the payer to scan and pay. Older ones are
   * left to the reconciliation job, which closes them when they expire.
   */
  private async openOrderFor(tx: Tx, caller: Caller, values: NewOrder) {
    const same = (column: AnyPgColumn, value: string | number | null | undefined) => (value == null ? isNull(column) : eq(column, value));
    const halfLife = (this.platform.config.ORDER_EXPIRE_MINUTES * 60_000) / 2;
    const [row] = await tx
      .select()
      .from(orders)
      .where(
        and(
          eq(orders.userId, caller.userId),
          eq(orders.status, "PENDING"),
          eq(orders.payChannel, this.channel),
          eq(orders.kind, values.kind),
          eq(orders.amountCents, values.amountCents),
          same(orders.templateId, values.templateId),
          same(orders.configId, values.configId),
          same(orders.memberLevel, values.memberLevel),
          same(orders.renewUpgrade, values.renewUpgrade),
          same(orders.groupId, values.groupId),
          same(orders.groupName, values.groupName),
          gt(orders.createdAt, new Date(Date.now() - halfLife)),
        ),
      )
      .orderBy(desc(orders.createdAt))
      .limit(1);
    return row ?? null;
  }

  /**
   * An order for this purchase: the one the idempotency key names, else the caller's open order
   * for the same purchase, else a new one. The caller's row lock makes parallel creates (a
   * double click, a dialog opened twice) wait for each other, so they yield one order.
   */
  private async open(caller: Caller, values: NewOrder, origin: string) {
    const existing =
      (await this.byIdempotencyKey(this.db, caller, values.idempotencyKey)) ?? (await this.openOrderFor(this.db, caller, values));
    if (existing) return this.withPayment(caller, existing, origin);
    // Each new order may call the payment provider: a user opens at most 60 in 10 minutes.
    const limitKey = `order:${caller.userId}`;
    await this.platform.rateLimiter.take(limitKey, 60, 600);
    let found: { row: OrderRow; fresh: boolean };
    try {
      found = await this.db.transaction(async (tx) => {
        await lockUser(tx, caller.userId);
        const open = (await this.byIdempotencyKey(tx, caller, values.idempotencyKey)) ?? (await this.openOrderFor(tx, caller, values));
        if (open) return { row: open, fresh: false };
        const [row] = await tx
          .insert(orders)
          .values({ ...values, orderNo: newOrderNo(), userId: caller.userId, tenantId: caller.tenantId, payChannel: this.channel })
          .returning();
        return { row, fresh: true };
      });
    } catch (err) {
      // A key used at the same moment by a request that did not wait for the lock.
      const again = await this.byIdempotencyKey(this.db, caller, values.idempotencyKey);
      if (again) return this.withPayment(caller, again, origin);
      throw err;
    }
    return this.withPayment(caller, found.row, origin, found.fresh);
  }

  /**
   * The order with its pay URL, asked of the provider (outside any transaction) when it has none
   * yet: a new order, or one whose creator is still waiting for the provider (creation is
   * idempotent per orderNo). A new order whose payment cannot be created is cancelled.
   */
  private async withPayment(caller: Caller, row: OrderRow, origin: string, fresh = false) {
    if (row.payUrl || row.status !== "PENDING") return created(row);
    try {
      const { payUrl } = await this.provider(row.payChannel).create(
        {
          orderNo: row.orderNo,
          amountCents: row.amountCents,
          description: row.title,
          expiresAt: this.expiresAt(row),
          basePath: basePath(caller),
        },
        origin,
      );
      const [updated] = await this.db.update(orders).set({ payUrl }).where(eq(orders.id, row.id)).returning();
      return created(updated);
    } catch (err) {
      this.platform.log.error({ err, orderNo: row.orderNo }, "payment creation failed");
      if (fresh)
        await this.db
          .update(orders)
          .set({ status: "CANCELLED" })
          .where(and(eq(orders.id, row.id), eq(orders.status, "PENDING")));
      throw badRequest("paymentFailed");
    }
  }

  private expiresAt(o: OrderRow) {
    return new Date(o.createdAt.getTime() + this.platform.config.ORDER_EXPIRE_MINUTES * 60_000);
  }

  async createMembership(
    caller: Caller,
    templateId: string,
    body: { configId?: string; groupName?: string; groupId?: string; idempotencyKey?: string },
    origin: string,
  ) {
    const plan = await this.catalog.plan(templateId);
    if (!plan?.enabled) throw badRequest("planNotFound");
    if (plan.memberLevel === "FREE" || plan.monthlyCents <= 0) throw badRequest("freePlanNotForSale");
    const durations = await this.catalog.durations();
    const duration = body.configId ? await this.catalog.duration(body.configId) : (durations[0] ?? null);
    if (body.configId && !duration?.enabled) throw badRequest("durationNotFound");
    const monthNum = duration?.monthNum ?? 1;
    const priceDiscount = duration?.priceDiscount ?? 1;
    const kind = purchaseKind({ level: caller.memberLevel, endAt: caller.memberEndAt }, plan.memberLevel as MemberLevel);
    if (kind === "DOWNGRADE") throw badRequest("cannotDowngrade");
    let groupName: string | null = null;
    let groupId: string | null = null;
    if (plan.category === "ENTERPRISE") {
      if (body.groupId) {
        const [group] = await this.db
          .select()
          .from(userGroups)
          .where(and(eq(userGroups.id, body.groupId), eq(userGroups.userId, caller.userId)));
        if (!group) throw badRequest("groupNotFound");
        groupId = group.id;
        groupName = group.groupName;
      } else if (body.groupName) groupName = body.groupName;
    }
    return this.open(
      caller,
      {
        kind: "MEMBERSHIP",
        // As sold, in Chinese: the provider's description; readers see it in their language.
        title: translate("membershipOrderTitle", "zh", { name: plan.name, months: monthNum }),
        templateId: plan.id,
        configId: duration?.id ?? null,
        memberLevel: plan.memberLevel,
        monthNum,
        renewUpgrade: kind,
        groupName,
        groupId,
        amountCents: membershipPriceCents(plan.monthlyCents, monthNum, priceDiscount, plan.discount),
        idempotencyKey: body.idempotencyKey ?? null,
      },
      origin,
    );
  }

  async createRecharge(caller: Caller, amountCents: number, idempotencyKey: string | undefined, origin: string) {
    return this.open(
      caller,
      {
        kind: "RECHARGE",
        title: translate("rechargeOrderTitle", "zh", { amount: yuan(amountCents) }),
        amountCents,
        idempotencyKey: idempotencyKey ?? null,
      },
      origin,
    );
  }

  /** An order's title in the reader's language (pay detail, the sandbox pay page). */
  async titleOf(o: OrderRow, lang: Language) {
    return orderTitle(o, lang, o.templateId ? await this.catalog.plan(o.templateId) : null);
  }

  /** The caller's order by id or orderNo; another user's order is not found. */
  async owned(caller: Caller, ref: string) {
    const [row] = await this.db.select().from(orders).where(sql`${orders.id} = ${ref} or ${orders.orderNo} = ${ref}`);
    requireAccess(caller, row ? { ownerId: row.userId, tenantId: row.tenantId } : null, "read");
    return row as OrderRow;
  }

  async list(caller: Caller, req: { pageNumber: number; pageSize: number; orderStatus?: OrderStatus; all?: boolean }, lang: Language) {
    const conds = [];
    if (!req.all) conds.push(eq(orders.userId, caller.userId));
    if (req.orderStatus) conds.push(eq(orders.status, req.orderStatus));
    const where = conds.length ? and(...conds) : undefined;
    const rows = await this.db
      .select({ order: orders, username: users.username, plan: planTemplates })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .leftJoin(planTemplates, eq(planTemplates.id, orders.templateId))
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(req.pageSize)
      .offset(req.pageNumber * req.pageSize);
    const [{ total }] = await this.db.select({ total: count() }).from(orders).where(where);
    return {
      list: rows.map((r) => orderWire(r.order, req.all ? r.username : undefined, orderTitle(r.order, lang, r.plan))),
      total,
    };
  }

  /** Pay again: the open payment of a pending order, or a new one if the provider closed it. */
  async rePay(caller: Caller, ref: string, origin: string) {
    const row = await this.owned(caller, ref);
    if (row.status !== "PENDING") throw badRequest("orderNotPending");
    if (this.expiresAt(row) < new Date()) {
      await this.cancelRow(row);
      throw badRequest("orderNotPending");
    }
    return this.withPayment(caller, row, origin);
  }

  async cancel(caller: Caller, ref: string) {
    const row = await this.owned(caller, ref);
    if (row.status !== "PENDING") throw new AppError("orderTransitionIllegal", 400, { from: row.status, to: "CANCELLED" });
    return this.cancelRow(row);
  }

  /**
   * Closes the payment at the provider first; if the provider says it was paid meanwhile, the
   * order settles instead. Then PENDING -> CANCELLED, only if still pending.
   */
  async cancelRow(row: OrderRow) {
    const provider = this.provider(row.payChannel);
    try {
      await provider.close(row.orderNo);
    } catch (err) {
      const payment = await provider.query(row.orderNo).catch(() => null);
      if (payment?.state === "SUCCESS") {
        await this.settle(row.payChannel as PayChannel, payment);
        throw new AppError("orderTransitionIllegal", 400, { from: "PAID", to: "CANCELLED" });
      }
      this.platform.log.warn({ err, orderNo: row.orderNo }, "closing the payment failed");
    }
    const [updated] = await this.db
      .update(orders)
      .set({ status: "CANCELLED" })
      .where(and(eq(orders.id, row.id), eq(orders.status, "PENDING")))
      .returning();
    if (!updated) {
      const [now] = await this.db.select().from(orders).where(eq(orders.id, row.id));
      throw new AppError("orderTransitionIllegal", 400, { from: now?.status ?? "?", to: "CANCELLED" });
    }
    return orderWire(updated);
  }

  /** A notification from a provider: verified, then settled exactly once. */
  async notify(channel: PayChannel, headers: Record<string, string | string[] | undefined>, rawBody: string) {
    const provider = this.providers[channel];
    if (!provider) throw notFound();
    let payment: VerifiedPayment;
    try {
      payment = await provider.verifyNotification(headers, rawBody);
    } catch (err) {
      // Anyone can send one: the audit keeps the first 100 an hour of each channel, the log all of them.
      const outcome = `rejected: ${(err as Error).message}`;
      const kept = await this.platform.rateLimiter
        .take(`payment-notify-rejected:${channel}`, 100, 3600)
        .then(() => true)
        .catch(() => false);
      if (kept) await this.db.insert(paymentNotifications).values({ provider: channel, outcome });
      else this.platform.log.warn({ channel, outcome }, "payment notification rejected");
      throw badRequest("paymentNotificationInvalid");
    }
    const outcome = await this.settle(channel, payment);
    await this.db.insert(paymentNotifications).values({ provider: channel, orderNo: payment.orderNo, outcome });
    if (outcome === "rejected") throw badRequest("paymentNotificationInvalid");
    return outcome;
  }

  /**
   * The one settlement path (notifications, the sandbox page and reconciliation): the order
   * moves PENDING -> PAID by a conditional update, and in the same transaction the membership is
   * granted or the balance credited with its ledger row. Replays find it PAID and change nothing.
   */
  async settle(channel: PayChannel, payment: VerifiedPayment): Promise<"settled" | "duplicate" | "ignored" | "rejected"> {
    if (payment.state !== "SUCCESS") return "ignored";
    const [order] = await this.db.select().from(orders).where(eq(orders.orderNo, payment.orderNo));
    if (!order || order.payChannel !== channel || payment.amountCents !== order.amountCents) return "rejected";
    const prices = await this.catalog.monthlyPrices();
    const outcome = await this.db.transaction(async (tx) => {
      const [paid] = await tx
        .update(orders)
        .set({ status: "PAID", paidAt: new Date(), transactionId: payment.transactionId })
        .where(and(eq(orders.id, order.id), eq(orders.status, "PENDING")))
        .returning();
      if (!paid) {
        if (order.status === "CANCELLED")
          this.platform.log.warn({ orderNo: order.orderNo }, "payment arrived for a cancelled order: refund it by hand");
        return "duplicate" as const;
      }
      if (paid.kind === "RECHARGE") {
        await changeBalance(tx, paid.userId, paid.amountCents, { kind: "RECHARGE", orderId: paid.id, note: paid.orderNo });
      } else {
        await this.grant(tx, paid, (l) => prices.get(l) ?? 0);
      }
      return "settled" as const;
    });
    if (outcome === "settled" && order.kind !== "RECHARGE") {
      await this.platform.invalidate("user", order.userId);
      await this.closeOtherPurchases(order.userId, order.id);
    }
    return outcome;
  }

  /**
   * Once a membership is bought, the other plans and durations its buyer chose in the buy dialog
   * (each an open order, reused while the dialog is open) are abandoned: they are closed (at the
   * provider first, see cancelRow), so none can be paid later by mistake. One the provider reports
   * paid meanwhile settles instead.
   */
  private async closeOtherPurchases(userId: string, paid: string) {
    const others = await this.db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, userId), eq(orders.kind, "MEMBERSHIP"), eq(orders.status, "PENDING"), ne(orders.id, paid)));
    for (const row of others)
      await this.cancelRow(row).catch((err) => {
        if (!(err instanceof AppError)) this.platform.log.warn({ err, orderNo: row.orderNo }, "closing an abandoned purchase failed");
      });
  }

  private async grant(tx: Tx, order: OrderRow, monthlyCents: (l: MemberLevel) => number) {
    const user = await lockUser(tx, order.userId);
    if (!user) return;
    await this.applyOrder(tx, user, order, monthlyCents);
    if (order.groupName && !order.groupId) {
      const [group] = await tx.insert(userGroups).values({ userId: user.id, groupName: order.groupName }).returning();
      await tx.update(orders).set({ groupId: group.id }).where(eq(orders.id, order.id));
    }
    await recordEvent(tx, user.id, { kind: "MEMBERSHIP", orderId: order.id, note: `${order.title} ¥${yuan(order.amountCents)}` });
  }

  /**
   * Applies a paid order's grant to the (locked) user's membership now, and records on the order
   * what it changed: the membership before and after, and when (strictly after the user's last
   * grant, so the history has one order).
   */
  private async applyOrder(
    tx: Tx,
    user: { id: string; memberLevel: string; memberEndAt: Date | null },
    order: OrderRow,
    monthlyCents: (l: MemberLevel) => number,
  ) {
    const last = await lastGrantAt(tx, user.id);
    const now = new Date(Math.max(Date.now(), (last?.getTime() ?? 0) + 1));
    const before = await membershipOf(tx, user, monthlyCents, now);
    const next = applyGrant(
      before,
      { level: order.memberLevel as MemberLevel, months: order.monthNum ?? 1, amountCents: order.amountCents },
      monthlyCents,
      now,
    );
    await this.setMembership(tx, user.id, next);
    await tx
      .update(orders)
      .set(grantColumns(before, next, now))
      .where(eq(orders.id, order.id));
  }

  private async setMembership(tx: Tx, userId: string, m: Membership) {
    const active = isActive(m, new Date());
    await tx
      .update(users)
      .set({ memberLevel: active ? m.level : "FREE", memberEndAt: active ? m.endAt : null })
      .where(eq(users.id, userId));
  }

  /**
   * Administrator transitions of a paid order. Refund and freeze take back what settlement gave
   * (a top-up's amount, only while the balance covers it; exactly the membership the order
   * granted); release gives it back. The user's row is locked first (as by every grant), then the
   * order, so transitions of one user's orders run one after another.
   */
  async adminTransition(orderId: string, to: "REFUNDED" | "FROZEN" | "PAID") {
    const [seen] = await this.db.select().from(orders).where(eq(orders.id, orderId));
    if (!seen) throw notFound();
    // A pending order may be settling (it holds its row, then waits for the user's): refused before locking.
    if (seen.status === "PENDING") throw new AppError("orderTransitionIllegal", 400, { from: seen.status, to });
    const prices = seen.kind === "RECHARGE" ? null : await this.catalog.monthlyPrices();
    const result = await this.db.transaction(async (tx) => {
      const user = await lockUser(tx, seen.userId);
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
      if (!order) throw notFound();
      const from = order.status as OrderStatus;
      if (!canTransition(from, to) || from === "PENDING") throw new AppError("orderTransitionIllegal", 400, { from, to });
      const takeBack = from === "PAID";
      const [updated] = await tx
        .update(orders)
        .set({ status: to, ...(to === "REFUNDED" ? { refundState: "REQUESTED" } : {}) })
        .where(eq(orders.id, order.id))
        .returning();
      if (order.kind === "RECHARGE") {
        if (takeBack) {
          const ok = await changeBalance(tx, order.userId, -order.amountCents, {
            kind: to === "FROZEN" ? "FREEZE" : "REFUND",
            orderId: order.id,
            note: order.orderNo,
          });
          if (ok === null) throw badRequest("balanceInsufficientRefund");
        } else if (to === "PAID") {
          await changeBalance(tx, order.userId, order.amountCents, { kind: "UNFREEZE", orderId: order.id, note: order.orderNo });
        } else {
          await recordEvent(tx, order.userId, { kind: "REFUND", orderId: order.id, note: order.orderNo });
        }
        return updated;
      }
      const monthly = (l: MemberLevel) => prices?.get(l) ?? 0;
      if (user && (takeBack || to === "PAID")) {
        if (order.grantedAt) {
          // Replayed from the membership before this order, without it (or with it again).
          await this.setMembership(tx, user.id, await rebuildFrom(tx, updated, monthly));
        } else if (to === "PAID") {
          // Settled before grants were recorded: released as a grant now.
          await this.applyOrder(tx, user, updated, monthly);
        } else {
          await this.takeBackUnrecorded(tx, user, order);
        }
      }
      await recordEvent(tx, order.userId, {
        kind: to === "FROZEN" ? "FREEZE" : to === "PAID" ? "UNFREEZE" : "REFUND",
        orderId: order.id,
        note: order.orderNo,
      });
      return updated;
    });
    if (result.kind !== "RECHARGE") await this.platform.invalidate("user", result.userId);
    // The money goes back through the provider after the commit (never inside the transaction);
    // a failed call stays REQUESTED and the reconciliation job tries again.
    if (to === "REFUNDED") await this.sendRefund(result);
    return orderWire(result);
  }

  /**
   * An order settled before grants were recorded: its grant is taken back while it is the user's
   * membership as it left it; when a later change was made on it (its time carried into a later
   * order or code) that change must be refunded first; a lapsed grant has nothing to take back.
   */
  private async takeBackUnrecorded(tx: Tx, user: { id: string; memberLevel: string; memberEndAt: Date | null }, order: OrderRow) {
    const now = new Date();
    const current: Membership = { level: user.memberLevel as MemberLevel, endAt: user.memberEndAt };
    const unchanged = current.level === order.grantedLevel && current.endAt?.getTime() === order.grantedEndAt?.getTime();
    if (unchanged) return this.setMembership(tx, user.id, { level: "FREE", endAt: null });
    if (order.grantedEndAt && order.grantedEndAt > now && isActive(current, now)) throw badRequest("membershipRefundLaterFirst");
  }

  private async sendRefund(order: OrderRow) {
    const provider = this.providers[order.payChannel as PayChannel];
    if (!provider) return;
    try {
      await provider.refund({
        orderNo: order.orderNo,
        refundNo: `R${order.orderNo}`,
        amountCents: order.amountCents,
        totalCents: order.amountCents,
        reason: order.title,
      });
      await this.db.update(orders).set({ refundState: "DONE" }).where(eq(orders.id, order.id));
    } catch (err) {
      this.platform.log.error({ err, orderNo: order.orderNo }, "refund through the provider failed; will retry");
    }
  }

  /** The sandbox pay page: the order as the payer sees it. */
  async byOrderNo(orderNo: string) {
    const [row] = await this.db.select().from(orders).where(eq(orders.orderNo, orderNo));
    return row ?? null;
  }

  /**
   * Reconciliation job: pending orders the provider never notified are asked about; paid ones
   * settle through the same path, expired unpaid ones are closed and cancelled.
   */
  async reconcile() {
    const quiet = new Date(Date.now() - 60_000);
    const refunds = await this.db
      .select()
      .from(orders)
      .where(and(eq(orders.status, "REFUNDED"), eq(orders.refundState, "REQUESTED"), lt(orders.updatedAt, quiet)))
      .limit(100);
    for (const row of refunds) await this.sendRefund(row);
    const pending = await this.db
      .select()
      .from(orders)
      .where(and(eq(orders.status, "PENDING"), lt(orders.createdAt, quiet), inArray(orders.payChannel, Object.keys(this.providers))))
      .orderBy(orders.createdAt)
      .limit(200);
    for (const row of pending) {
      const provider = this.providers[row.payChannel as PayChannel];
      if (!provider) continue;
      try {
        const payment = await provider.query(row.orderNo);
        if (payment.state === "SUCCESS") {
          await this.settle(row.payChannel as PayChannel, payment);
          continue;
        }
        if (this.expiresAt(row) < new Date()) await this.cancelRow(row).catch(() => undefined);
      } catch (err) {
        if (err instanceof PaymentVerificationError) this.platform.log.warn({ err, orderNo: row.orderNo }, "unverifiable query answer");
        else this.platform.log.warn({ err, orderNo: row.orderNo }, "reconciliation failed");
      }
    }
  }
}
