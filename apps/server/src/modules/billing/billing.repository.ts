import type { Language, MemberLevel, PlanCategory } from "@agentfair/contracts";
import { and, asc, eq, gte, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { durationConfigs, planTemplates, rechargeOptions, users, walletLedger } from "../../db/schema/index.ts";

export type PlanRow = typeof planTemplates.$inferSelect;
export type WalletKind =
  | "RECHARGE"
  | "MEMBERSHIP"
  | "USE"
  | "EDIT_FEE"
  | "COPY_FEE"
  | "BENEFIT"
  | "REFUND"
  | "FREEZE"
  | "UNFREEZE"
  | "ADJUST";

/** A plan's name and description in the reader's language (Chinese when it has no English). */
export const planText = (p: Pick<PlanRow, "name" | "description" | "nameEn" | "descriptionEn">, lang: Language) => ({
  name: (lang === "en" && p.nameEn) || p.name,
  description: (lang === "en" && p.descriptionEn) || p.description,
});

export const cents = (yuan: number) => Math.round(yuan * 100);
export const yuan = (c: number) => Math.round(c) / 100;

/**
 * The one way a balance changes: an atomic conditional update (a debit only applies while the
 * balance covers it) and its ledger row, in the caller's transaction. Returns the new balance,
 * or null when a debit was refused (then nothing has changed).
 */
export async function changeBalance(
  tx: Tx,
  userId: string,
  deltaCents: number,
  entry: { kind: WalletKind; agentId?: string | null; agentName?: string | null; orderId?: string | null; note?: string },
): Promise<number | null> {
  const where = deltaCents < 0 ? and(eq(users.id, userId), gte(users.balanceCents, -deltaCents)) : eq(users.id, userId);
  const rows = await tx
    .update(users)
    .set({ balanceCents: sql`${users.balanceCents} + ${deltaCents}` })
    .where(where)
    .returning({ balance: users.balanceCents });
  if (!rows[0]) return null;
  await tx.insert(walletLedger).values({
    userId,
    kind: entry.kind,
    amountCents: deltaCents,
    balanceAfterCents: rows[0].balance,
    agentId: entry.agentId ?? null,
    agentName: entry.agentName ?? null,
    orderId: entry.orderId ?? null,
    note: entry.note ?? "",
  });
  return rows[0].balance;
}

/** A ledger row that moves no money (membership purchases, code grants): the history stays whole. */
export async function recordEvent(tx: Tx, userId: string, entry: { kind: WalletKind; orderId?: string | null; note?: string }) {
  const [user] = await tx.select({ balance: users.balanceCents }).from(users).where(eq(users.id, userId));
  await tx.insert(walletLedger).values({
    userId,
    kind: entry.kind,
    amountCents: 0,
    balanceAfterCents: user?.balance ?? 0,
    orderId: entry.orderId ?? null,
    note: entry.note ?? "",
  });
}

/** Locks the user's row for the rest of the transaction: one money or quota decision at a time. */
export async function lockUser(tx: Tx, userId: string) {
  const rows = await tx.select().from(users).where(eq(users.id, userId)).for("update");
  return rows[0] ?? null;
}

/** Plan templates, durations and top-up options. */
export class CatalogRepository {
  constructor(private readonly db: Db) {}

  plans(category?: PlanCategory, onlyEnabled = true) {
    const conds = [];
    if (category) conds.push(eq(planTemplates.category, category));
    if (onlyEnabled) conds.push(eq(planTemplates.enabled, true));
    return this.db
      .select()
      .from(planTemplates)
      .where(conds.length ? and(...conds) : undefined)
      .orderBy(asc(planTemplates.category), asc(planTemplates.sort), asc(planTemplates.monthlyCents));
  }

  async plan(id: string) {
    const [row] = await this.db.select().from(planTemplates).where(eq(planTemplates.id, id));
    return row ?? null;
  }

  /** The template of a level: its limits and fees (the first enabled one by sort). */
  async planForLevel(level: MemberLevel): Promise<PlanRow | null> {
    const [row] = await this.db
      .select()
      .from(planTemplates)
      .where(and(eq(planTemplates.memberLevel, level), eq(planTemplates.enabled, true)))
      .orderBy(asc(planTemplates.sort))
      .limit(1);
    return row ?? null;
  }

  async monthlyPrices(): Promise<Map<string, number>> {
    const rows = await this.plans(undefined, false);
    const map = new Map<string, number>();
    for (const r of rows) if (!map.has(r.memberLevel)) map.set(r.memberLevel, r.monthlyCents);
    return map;
  }

  durations(onlyEnabled = true) {
    return this.db
      .select()
      .from(durationConfigs)
      .where(onlyEnabled ? eq(durationConfigs.enabled, true) : undefined)
      .orderBy(asc(durationConfigs.monthNum));
  }

  async duration(id: string) {
    const [row] = await this.db.select().from(durationConfigs).where(eq(durationConfigs.id, id));
    return row ?? null;
  }

  rechargeOptions(onlyEnabled = true) {
    return this.db
      .select()
      .from(rechargeOptions)
      .where(onlyEnabled ? eq(rechargeOptions.enabled, true) : undefined)
      .orderBy(asc(rechargeOptions.amountCents));
  }

  async rechargeOption(id: string) {
    const [row] = await this.db.select().from(rechargeOptions).where(eq(rechargeOptions.id, id));
    return row ?? null;
  }
}
