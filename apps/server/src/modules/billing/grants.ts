import type { MemberLevel } from "@agentfair/contracts";
import { and, desc, eq, gt, inArray, isNotNull, or } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { benefitBatches, benefitCodes, orders } from "../../db/schema/index.ts";
import { applyGrant, isActive, type Membership } from "./membership.ts";

/**
 * The membership as a history of grants: paid membership orders (each records the membership
 * before and after its grant, and when) and redeemed level codes. Taking an order's grant back
 * (refund, freeze) or giving it back (release) replays the history from the membership before
 * that order, so exactly that order's grant goes or comes, and the later grants are applied again
 * on what is left. Callers hold the user's row lock (`lockUser`).
 */

const DAY_MS = 86_400_000;
type OrderRow = typeof orders.$inferSelect;
type Prices = (level: MemberLevel) => number;

const NONE: Membership = { level: "FREE", endAt: null };
const rateOf = (centsPerDay: number | null) => (centsPerDay == null ? undefined : centsPerDay / DAY_MS);
const perDay = (rate: number | undefined) => (rate == null ? null : rate * DAY_MS);
const same = (a: Membership, b: Membership) => a.level === b.level && (a.endAt?.getTime() ?? null) === (b.endAt?.getTime() ?? null);

export const prevOf = (o: OrderRow): Membership => ({
  level: (o.prevLevel ?? "FREE") as MemberLevel,
  endAt: o.prevEndAt,
  rate: rateOf(o.prevCentsPerDay),
});
const grantedOf = (o: OrderRow): Membership => ({
  level: o.grantedLevel as MemberLevel,
  endAt: o.grantedEndAt,
  rate: rateOf(o.grantedCentsPerDay),
});

/** The columns recording a grant on its order. */
export const grantColumns = (before: Membership, after: Membership | null, at?: Date) => ({
  prevLevel: before.level,
  prevEndAt: before.endAt,
  prevCentsPerDay: perDay(before.rate),
  ...(after ? { grantedLevel: after.level, grantedEndAt: after.endAt, grantedCentsPerDay: perDay(after.rate) } : {}),
  ...(at ? { grantedAt: at } : {}),
});

type Event = { at: Date; order?: OrderRow; code?: { level: MemberLevel; days: number } };

/** The user's grants after `since`, oldest first: paid and frozen membership orders (and `include`), redeemed level codes. */
async function grantsAfter(tx: Tx, userId: string, since: Date, include?: string): Promise<Event[]> {
  const after = gt(orders.grantedAt, since);
  const paid = await tx
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.kind, "MEMBERSHIP"),
        inArray(orders.status, ["PAID", "FROZEN"]),
        include ? or(after, eq(orders.id, include)) : after,
      ),
    );
  const codes = await tx
    .select({ at: benefitCodes.redeemedAt, level: benefitBatches.memberLevel, days: benefitBatches.days })
    .from(benefitCodes)
    .innerJoin(benefitBatches, eq(benefitBatches.id, benefitCodes.batchId))
    .where(and(eq(benefitCodes.redeemedBy, userId), eq(benefitBatches.grant, "LEVEL"), gt(benefitCodes.redeemedAt, since)));
  const events: Event[] = [
    ...paid.flatMap((o) => (o.grantedAt ? [{ at: o.grantedAt, order: o }] : [])),
    ...codes.flatMap((c) => (c.at && c.level ? [{ at: c.at, code: { level: c.level as MemberLevel, days: c.days ?? 0 } }] : [])),
  ];
  return events.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/**
 * Applies the grants in order: a paid order's grant is applied and (with `write`) its row brought
 * up to date; a frozen order only notes the membership it would start from, for its release.
 */
async function replay(tx: Tx, start: Membership, events: Event[], prices: Prices, write: boolean) {
  let state = start;
  for (const e of events) {
    if (e.code) {
      state = applyGrant(state, e.code, prices, e.at);
      continue;
    }
    const o = e.order as OrderRow;
    const before = isActive(state, e.at) ? state : NONE;
    const after =
      o.status === "PAID"
        ? applyGrant(before, { level: o.memberLevel as MemberLevel, months: o.monthNum ?? 1, amountCents: o.amountCents }, prices, e.at)
        : null;
    if (after) state = after;
    if (write) await tx.update(orders).set(grantColumns(before, after)).where(eq(orders.id, o.id));
  }
  return state;
}

/**
 * The user's membership now with what its time is worth: replayed from the latest paid order
 * when that explains the user's row, else the row itself (valued at list prices).
 */
export async function membershipOf(
  tx: Tx,
  user: { id: string; memberLevel: string; memberEndAt: Date | null },
  prices: Prices,
  now: Date,
): Promise<Membership> {
  const row: Membership = { level: user.memberLevel as MemberLevel, endAt: user.memberEndAt };
  if (!isActive(row, now)) return NONE;
  const [last] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.userId, user.id), eq(orders.kind, "MEMBERSHIP"), eq(orders.status, "PAID"), isNotNull(orders.grantedAt)))
    .orderBy(desc(orders.grantedAt))
    .limit(1);
  if (last?.grantedAt && last.grantedLevel) {
    const state = await replay(tx, grantedOf(last), await grantsAfter(tx, user.id, last.grantedAt), prices, false);
    if (same(state, row)) return state;
  }
  return row;
}

/**
 * The membership after an order's grant was taken back (the order is no longer PAID) or given
 * back (PAID again): replayed from the membership before it, with every later grant; later
 * orders' records are brought up to date. Only for orders that recorded their grant (`grantedAt`).
 */
export async function rebuildFrom(tx: Tx, order: OrderRow, prices: Prices, now = new Date()): Promise<Membership> {
  const since = order.grantedAt as Date;
  const state = await replay(tx, prevOf(order), await grantsAfter(tx, order.userId, since, order.id), prices, true);
  return isActive(state, now) ? state : NONE;
}

/** The latest time a grant of this user was recorded, so the next one is strictly later. */
export async function lastGrantAt(tx: Tx, userId: string) {
  const [row] = await tx
    .select({ at: orders.grantedAt })
    .from(orders)
    .where(and(eq(orders.userId, userId), isNotNull(orders.grantedAt)))
    .orderBy(desc(orders.grantedAt))
    .limit(1);
  return row?.at ?? null;
}
