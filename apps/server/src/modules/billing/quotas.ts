import { BILLING_TIME_ZONE, CHARGE_IDLE_MS, FREE_CHATS_PER_DAY, type MemberLevel } from "@agentfair/contracts";
import { and, count, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { agentEditRecords, chatChargeFlags, freeChatUsage, users } from "../../db/schema/index.ts";
import type { Caller } from "../../platform/auth.ts";
import { AppError, badRequest } from "../../platform/errors.ts";
import type { Platform } from "../../platform/platform.ts";
import { type CatalogRepository, changeBalance, lockUser, yuan } from "./billing.repository.ts";
import type { ChatCharge } from "./billing.seam.ts";

/** YYYY-MM-DD (or YYYY-MM) of an instant in Asia/Shanghai. */
export function shanghaiDay(at = new Date()) {
  return new Intl.DateTimeFormat("en-CA", { timeZone: BILLING_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);
}
export const shanghaiMonth = (at = new Date()) => shanghaiDay(at).slice(0, 7);

/** A model of the platform, not of a tenant: what a chat is counted on unless told otherwise. */
const PLATFORM_MODEL = { tenantId: null };

/** Whether the caller is exempt from membership checks (admin, white flag, the exempt user). */
export function exempt(caller: Caller) {
  return caller.isAdmin || caller.isWhite || caller.isExempt;
}

/** Edit allowance, copy and edit fees, the daily free chats and the per-use chat charge. */
export class Quotas {
  constructor(
    private readonly platform: Platform,
    private readonly catalog: CatalogRepository,
  ) {}

  private get db(): Db {
    return this.platform.db;
  }

  async editNum(level: MemberLevel) {
    return (await this.catalog.planForLevel(level))?.editCount ?? 0;
  }

  async useEditNum(caller: Caller) {
    const [{ used }] = await this.db
      .select({ used: count() })
      .from(agentEditRecords)
      .where(and(eq(agentEditRecords.userId, caller.userId), eq(agentEditRecords.month, shanghaiMonth())));
    return { useNum: used, editNum: await this.editNum(caller.memberLevel) };
  }

  /**
   * One studio edit: free within the month's allowance, otherwise the template's fee is debited.
   * The user's row is locked, so parallel edits count and pay one after another.
   */
  async recordEdit(caller: Caller, agent: { agentId: string; agentName?: string }) {
    const plan = await this.catalog.planForLevel(caller.memberLevel);
    const editNum = plan?.editCount ?? 0;
    const fee = plan?.feeCents ?? 0;
    const month = shanghaiMonth();
    return this.db.transaction(async (tx) => {
      await lockUser(tx, caller.userId);
      const [{ used }] = await tx
        .select({ used: count() })
        .from(agentEditRecords)
        .where(and(eq(agentEditRecords.userId, caller.userId), eq(agentEditRecords.month, month)));
      let charged = 0;
      if (used >= editNum && fee > 0) {
        const ok = await changeBalance(tx, caller.userId, -fee, {
          kind: "EDIT_FEE",
          agentId: agent.agentId,
          agentName: agent.agentName ?? null,
        });
        if (ok === null) throw badRequest("balanceInsufficient");
        charged = fee;
      }
      await tx.insert(agentEditRecords).values({ userId: caller.userId, agentId: agent.agentId, month, chargedCents: charged });
      const [user] = await tx.select({ balance: users.balanceCents }).from(users).where(eq(users.id, caller.userId));
      return { charged: yuan(charged), balance: yuan(user?.balance ?? 0), useNum: used + 1, editNum };
    });
  }

  async copyFee(caller: Caller, priceCents: number) {
    if (priceCents <= 0) return 0;
    return (await this.catalog.planForLevel(caller.memberLevel))?.feeCents ?? 0;
  }

  /** Copying a priced agent debits the template's fee; free agents copy for nothing. */
  async chargeCopy(caller: Caller, agent: { agentId: string; agentName: string; priceCents: number }) {
    const fee = await this.copyFee(caller, agent.priceCents);
    if (fee <= 0) return 0;
    const balance = await this.db.transaction((tx) =>
      changeBalance(tx, caller.userId, -fee, { kind: "COPY_FEE", agentId: agent.agentId, agentName: agent.agentName }),
    );
    if (balance === null) throw badRequest("balanceInsufficient");
    return fee;
  }

  /** Priced agents need a paid level, unless the caller is exempt. */
  chatNeedsMembership(caller: Caller, agent: { priceCents: number }) {
    return agent.priceCents > 0 && caller.memberLevel === "FREE" && !exempt(caller);
  }

  /**
   * Before a chat reply. Priced agents: a paid level is needed (unless exempt), and the agent's
   * price is debited once per usage stretch — the charging flag of (user, session, agent) is
   * claimed by an atomic upsert only when it is older than 5 minutes idle. Free agents: one of the
   * day's chats of the caller's level (claimDailyChat) on the model that answers.
   */
  async checkChat(
    caller: Caller,
    agent: { agentId: string; agentName: string; priceCents: number; ownerId: string },
    sessionId: string,
    model: { tenantId: string | null } = PLATFORM_MODEL,
  ): Promise<ChatCharge | null> {
    if (agent.priceCents > 0) {
      if (this.chatNeedsMembership(caller, agent)) throw new AppError("memberFeatureRequired", 400);
      if (agent.ownerId === caller.userId) return null;
      const idle = `${Math.floor(CHARGE_IDLE_MS / 1000)} seconds`;
      return this.db.transaction(async (tx): Promise<ChatCharge | null> => {
        const claimed = await tx
          .insert(chatChargeFlags)
          .values({ userId: caller.userId, sessionId, agentId: agent.agentId, lastActivityAt: sql`now()`, chargedAt: sql`now()` })
          .onConflictDoUpdate({
            target: [chatChargeFlags.userId, chatChargeFlags.sessionId, chatChargeFlags.agentId],
            set: { lastActivityAt: sql`now()`, chargedAt: sql`now()` },
            setWhere: sql`${chatChargeFlags.lastActivityAt} < now() - ${idle}::interval`,
          })
          .returning({ chargedAt: chatChargeFlags.chargedAt });
        if (claimed.length === 0) {
          await tx
            .update(chatChargeFlags)
            .set({ lastActivityAt: sql`now()` })
            .where(
              and(
                eq(chatChargeFlags.userId, caller.userId),
                eq(chatChargeFlags.sessionId, sessionId),
                eq(chatChargeFlags.agentId, agent.agentId),
              ),
            );
          return null;
        }
        const ok = await changeBalance(tx, caller.userId, -agent.priceCents, {
          kind: "USE",
          agentId: agent.agentId,
          agentName: agent.agentName,
        });
        // Throwing rolls the flag back too: nothing is charged, the next send tries again.
        if (ok === null) throw badRequest("balanceInsufficient");
        return {
          kind: "use",
          userId: caller.userId,
          agentId: agent.agentId,
          agentName: agent.agentName,
          sessionId,
          cents: agent.priceCents,
        };
      });
    }
    const claimed = await this.claimDailyChat(caller, model);
    return claimed && { kind: "free", day: claimed.day, userId: caller.userId };
  }

  /**
   * One of the day's chats (Asia/Shanghai) of the caller's level: FREE 20 (the spec's free chats), other
   * levels their template's `countPerDay`, counted by an atomic conditional upsert. A chat reply on a free
   * agent takes one, and so does each model call of a workflow node. Not counted: exempt callers, levels
   * without a template, and a model of the caller's own tenant (the tenant pays for it). null: not counted.
   */
  async claimDailyChat(caller: Caller, model: { tenantId: string | null }): Promise<{ day: string } | null> {
    if (exempt(caller) || (!caller.tenantIsDefault && model.tenantId === caller.tenantId)) return null;
    const free = caller.memberLevel === "FREE";
    const limit = free ? FREE_CHATS_PER_DAY : ((await this.catalog.planForLevel(caller.memberLevel))?.countPerDay ?? 0);
    if (limit <= 0) return null;
    const day = shanghaiDay();
    const rows = await this.db
      .insert(freeChatUsage)
      .values({ userId: caller.userId, day, count: 1 })
      .onConflictDoUpdate({
        target: [freeChatUsage.userId, freeChatUsage.day],
        set: { count: sql`${freeChatUsage.count} + 1` },
        setWhere: sql`${freeChatUsage.count} < ${limit}`,
      })
      .returning({ count: freeChatUsage.count });
    if (rows.length === 0) throw new AppError(free ? "freeChatsExhausted" : "dailyChatsExhausted", 400, { count: limit });
    return { day };
  }

  /**
   * Gives back one reply's charge to whoever paid it. The price and the flag move in one transaction,
   * so they agree.
   */
  async refundChat(charge: ChatCharge) {
    if (charge.kind === "free") {
      await this.db
        .update(freeChatUsage)
        .set({ count: sql`${freeChatUsage.count} - 1` })
        .where(and(eq(freeChatUsage.userId, charge.userId), eq(freeChatUsage.day, charge.day), gt(freeChatUsage.count, 0)));
      return;
    }
    await this.db.transaction(async (tx) => {
      await changeBalance(tx, charge.userId, charge.cents, {
        kind: "REFUND",
        agentId: charge.agentId,
        agentName: charge.agentName,
      });
      // The stretch this charge opened is over: the session's next send pays again.
      await tx
        .delete(chatChargeFlags)
        .where(
          and(
            eq(chatChargeFlags.userId, charge.userId),
            eq(chatChargeFlags.sessionId, charge.sessionId),
            eq(chatChargeFlags.agentId, charge.agentId),
          ),
        );
    });
  }
}
