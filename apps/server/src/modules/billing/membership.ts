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

export type Grant = { level: MemberLevel; months?: number; days?: number };
export type Membership = { level: MemberLevel; endAt: Date | null };

/**
 * How a purchase or benefit code changes a membership (the one rule, documented in the README):
 * - no active paid level: the new level runs from now for the bought period;
 * - RENEW (same level): the period is added to the current end date;
 * - UPGRADE (higher level, or the other category): the new level starts now for the bought
 *   period, and the remaining days of the old level are carried over by value, converted at the
 *   ratio of the two monthly prices (old remaining days × old price / new price);
 * - a lower level while a higher one is active (only possible when a payment settles after the
 *   user upgraded meanwhile): its period is carried over by value into the current level.
 */
export function applyGrant(current: Membership, grant: Grant, monthlyCents: (level: MemberLevel) => number, now = new Date()): Membership {
  const span = (from: Date) => (grant.months ? addMonths(from, grant.months) : new Date(from.getTime() + (grant.days ?? 0) * DAY_MS));
  const active = current.level !== "FREE" && current.endAt && current.endAt > now;
  if (!active || !current.endAt) return { level: grant.level, endAt: span(now) };
  if (current.level === grant.level) return { level: grant.level, endAt: span(current.endAt) };
  const sameCategory = levelCategory(current.level) === levelCategory(grant.level);
  const oldPrice = monthlyCents(current.level);
  const newPrice = monthlyCents(grant.level);
  if (sameCategory && LEVEL_RANK[grant.level] < LEVEL_RANK[current.level]) {
    const bought = span(now).getTime() - now.getTime();
    const carried = oldPrice > 0 ? (bought * newPrice) / oldPrice : 0;
    return { level: current.level, endAt: new Date(current.endAt.getTime() + carried) };
  }
  const remaining = current.endAt.getTime() - now.getTime();
  const carried = newPrice > 0 ? (remaining * oldPrice) / newPrice : 0;
  return { level: grant.level, endAt: new Date(span(now).getTime() + carried) };
}

/** The kind of a purchase as the server sees it; a lower level than the active one is refused. */
export function purchaseKind(current: Membership, target: MemberLevel, now = new Date()): "RENEW" | "UPGRADE" | "DOWNGRADE" {
  const active = current.level !== "FREE" && current.endAt && current.endAt > now;
  if (!active) return "UPGRADE";
  if (current.level === target) return "RENEW";
  const sameCategory = levelCategory(current.level) === levelCategory(target);
  if (sameCategory && LEVEL_RANK[target] < LEVEL_RANK[current.level]) return "DOWNGRADE";
  return "UPGRADE";
}
