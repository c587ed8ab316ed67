import { LEVEL_RANK, levelCategory, type MemberLevel } from "@agentfair/contracts";

const DAY_MS = 86_400_000;

export function addMonths(from: Date, months: number) {
  const d = new Date(from);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/** A level for a period; `amountCents` is what was paid for it (absent, a benefit code: its list price). */
export type Grant = { level: MemberLevel; months?: number; days?: number; amountCents?: number };
/**
 * A membership, with what its remaining time is worth in cents per millisecond (`rate`; absent:
 * the level's list price).
 */
export type Membership = { level: MemberLevel; endAt: Date | null; rate?: number };

export const isActive = (m: Membership, now: Date) => m.level !== "FREE" && !!m.endAt && m.endAt > now;

/**
 * How a purchase or benefit code changes a membership (the one rule, documented in the README):
 * - no active paid level: the new level runs from now for the bought period;
 * - RENEW (same level): the period is added to the current end date;
 * - UPGRADE (higher level, or the other category): the new level starts now for the bought
 *   period, and the remaining days of the old level are carried over by value: what they are
 *   worth (pro rata of what was paid for them) buys days at the rate paid for the new level;
 * - a lower level while a higher one is active (only possible when a payment settles after the
 *   user upgraded meanwhile): its value is carried over into the current level.
 * Values are what was paid (the order's amount, so duration and plan discounts are kept) or,
 * for benefit codes and memberships of no known order, the levels' list prices (`monthlyCents`).
 */
export function applyGrant(current: Membership, grant: Grant, monthlyCents: (level: MemberLevel) => number, now = new Date()): Membership {
  const span = (from: Date) => (grant.months ? addMonths(from, grant.months) : new Date(from.getTime() + (grant.days ?? 0) * DAY_MS));
  const listRate = (level: MemberLevel) => monthlyCents(level) / (addMonths(now, 1).getTime() - now.getTime());
  const bought = span(now).getTime() - now.getTime();
  const grantValue = grant.amountCents ?? listRate(grant.level) * bought;
  const grantRate = bought > 0 ? grantValue / bought : 0;
  if (!isActive(current, now) || !current.endAt) return { level: grant.level, endAt: span(now), rate: grantRate };
  const remaining = current.endAt.getTime() - now.getTime();
  const rate = current.rate ?? listRate(current.level);
  if (current.level === grant.level) {
    const endAt = span(current.endAt);
    return { level: grant.level, endAt, rate: (remaining * rate + grantValue) / (endAt.getTime() - now.getTime()) };
  }
  const sameCategory = levelCategory(current.level) === levelCategory(grant.level);
  if (sameCategory && LEVEL_RANK[grant.level] < LEVEL_RANK[current.level]) {
    const carried = rate > 0 ? grantValue / rate : 0;
    return { level: current.level, endAt: new Date(current.endAt.getTime() + carried), rate };
  }
  const carried = grantRate > 0 ? (remaining * rate) / grantRate : 0;
  return { level: grant.level, endAt: new Date(span(now).getTime() + carried), rate: grantRate };
}

/** The kind of a purchase as the server sees it; a lower level than the active one is refused. */
export function purchaseKind(current: Membership, target: MemberLevel, now = new Date()): "RENEW" | "UPGRADE" | "DOWNGRADE" {
  if (!isActive(current, now)) return "UPGRADE";
  if (current.level === target) return "RENEW";
  const sameCategory = levelCategory(current.level) === levelCategory(target);
  if (sameCategory && LEVEL_RANK[target] < LEVEL_RANK[current.level]) return "DOWNGRADE";
  return "UPGRADE";
}
