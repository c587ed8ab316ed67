import { randomInt } from "node:crypto";
import { BENEFIT_CODE_LEVELS, type MemberLevel } from "@agentfair/contracts";
import { and, count, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { benefitBatches, benefitCodes, users } from "../../db/schema/index.ts";
import type { Caller } from "../../platform/auth.ts";
import { AppError, badRequest, notFound } from "../../platform/errors.ts";
import type { Platform } from "../../platform/platform.ts";
import { type CatalogRepository, cents, changeBalance, lockUser, recordEvent, yuan } from "./billing.repository.ts";
import { membershipOf } from "./grants.ts";
import { applyGrant } from "./membership.ts";

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const newCode = () => Array.from({ length: 12 }, () => ALPHABET[randomInt(0, ALPHABET.length)]).join("");
const FAILED_LIMIT = 20;
const FAILED_WINDOW_S = 600;

type BatchInput = {
  name: string;
  grant: "LEVEL" | "AMOUNT";
  memberLevel?: MemberLevel;
  days?: number;
  amount?: number;
  count: number;
  expiresAt?: string;
};

/** Benefit codes: administrators generate batches; each code is redeemed exactly once. */
export class Benefits {
  constructor(
    private readonly platform: Platform,
    private readonly catalog: CatalogRepository,
  ) {}

  private get db(): Db {
    return this.platform.db;
  }

  async createBatch(admin: Caller, input: BatchInput, fixedCodes: string[] = []) {
    return this.db.transaction(async (tx) => {
      const [batch] = await tx
        .insert(benefitBatches)
        .values({
          name: input.name,
          grant: input.grant,
          memberLevel: input.grant === "LEVEL" ? input.memberLevel : null,
          days: input.grant === "LEVEL" ? input.days : null,
          amountCents: input.grant === "AMOUNT" ? cents(input.amount ?? 0) : null,
          count: input.count,
          expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
          createdBy: admin.userId,
        })
        .returning();
      const codes = new Set(fixedCodes);
      while (codes.size < input.count) codes.add(newCode());
      await tx
        .insert(benefitCodes)
        .values([...codes].map((code) => ({ code, batchId: batch.id })))
        .onConflictDoNothing();
      return { batch: this.batchWire(batch, 0), codes: [...codes] };
    });
  }

  batchWire(b: typeof benefitBatches.$inferSelect, redeemed: number) {
    return {
      id: b.id,
      name: b.name,
      grant: b.grant as "LEVEL" | "AMOUNT",
      memberLevel: (b.memberLevel as MemberLevel | null) ?? null,
      days: b.days,
      amount: b.amountCents === null ? null : yuan(b.amountCents),
      count: b.count,
      redeemed,
      expiresAt: b.expiresAt?.toISOString() ?? null,
      createTime: b.createdAt.toISOString(),
    };
  }

  async batches() {
    const rows = await this.db
      .select({ batch: benefitBatches, redeemed: sql<number>`count(${benefitCodes.redeemedAt})::int` })
      .from(benefitBatches)
      .leftJoin(benefitCodes, eq(benefitCodes.batchId, benefitBatches.id))
      .groupBy(benefitBatches.id)
      .orderBy(desc(benefitBatches.createdAt));
    return rows.map((r) => this.batchWire(r.batch, Number(r.redeemed)));
  }

  async codes(batchId: string) {
    const [batch] = await this.db.select().from(benefitBatches).where(eq(benefitBatches.id, batchId));
    if (!batch) throw notFound();
    const rows = await this.db
      .select({ code: benefitCodes.code, redeemedAt: benefitCodes.redeemedAt, username: users.username })
      .from(benefitCodes)
      .leftJoin(users, eq(users.id, benefitCodes.redeemedBy))
      .where(eq(benefitCodes.batchId, batchId))
      .orderBy(benefitCodes.code);
    return rows.map((r) => ({ code: r.code, redeemedBy: r.username ?? null, redeemedAt: r.redeemedAt?.toISOString() ?? null }));
  }

  /**
   * Redeems a code: the code row is claimed by a conditional update (only while unredeemed), and
   * the grant is applied in the same transaction. Parallel redemptions: exactly one claims it.
   */
  async redeem(caller: Caller, raw: string | undefined) {
    const code = (raw ?? "").trim().toUpperCase();
    if (!code) throw badRequest("benefitCodeEmpty");
    if (!BENEFIT_CODE_LEVELS.includes(caller.memberLevel)) throw badRequest("benefitCodeLevel");
    const limitKey = `benefit:${caller.userId}`;
    // The try is claimed as a failure before the code is looked at (parallel guesses cannot all
    // slip under the limit); anything but a wrong code gives it back.
    const failure = await this.platform.rateLimiter.take(limitKey, FAILED_LIMIT, FAILED_WINDOW_S);
    const prices = await this.catalog.monthlyPrices();
    try {
      const result = await this.db.transaction(async (tx) => {
        const [row] = await tx
          .select({ code: benefitCodes, batch: benefitBatches })
          .from(benefitCodes)
          .innerJoin(benefitBatches, eq(benefitBatches.id, benefitCodes.batchId))
          .where(eq(benefitCodes.code, code));
        if (!row) throw badRequest("benefitCodeInvalid");
        if (row.code.redeemedAt) throw badRequest("benefitCodeUsed");
        if (row.batch.expiresAt && row.batch.expiresAt < new Date()) throw badRequest("benefitCodeExpired");
        const user = await lockUser(tx, caller.userId);
        if (!user) throw notFound();
        // One time for the grant and its record: refunds replay the grants at their times.
        const at = new Date();
        const monthly = (l: MemberLevel) => prices.get(l) ?? 0;
        let level: MemberLevel | null = null;
        let endDate: string | null = null;
        if (row.batch.grant === "LEVEL") {
          const target = row.batch.memberLevel as MemberLevel;
          // The locked row, not the request's caller: a parallel purchase may have changed it.
          const current = await membershipOf(tx, user, monthly, at);
          const next = applyGrant(current, { level: target, days: row.batch.days ?? 0 }, monthly, at);
          if (next.level !== target && current.level !== "FREE") throw badRequest("benefitCodeLower");
          level = next.level;
          endDate = next.endAt?.toISOString() ?? null;
        }
        const [claimed] = await tx
          .update(benefitCodes)
          .set({ redeemedBy: caller.userId, redeemedAt: at })
          .where(and(eq(benefitCodes.code, code), isNull(benefitCodes.redeemedAt)))
          .returning();
        if (!claimed) throw badRequest("benefitCodeUsed");
        if (level && endDate) {
          await tx
            .update(users)
            .set({ memberLevel: level, memberEndAt: new Date(endDate) })
            .where(eq(users.id, caller.userId));
          await recordEvent(tx, caller.userId, { kind: "BENEFIT", note: `${row.batch.name} ${code}` });
        } else {
          await changeBalance(tx, caller.userId, row.batch.amountCents ?? 0, { kind: "BENEFIT", note: `${row.batch.name} ${code}` });
        }
        return {
          grant: row.batch.grant as "LEVEL" | "AMOUNT",
          memberLevel: level,
          endDate,
          amount: yuan(row.batch.amountCents ?? 0),
        };
      });
      await failure.release();
      if (result.memberLevel) await this.platform.invalidate("user", caller.userId);
      return result;
    } catch (err) {
      if (!(err instanceof AppError && err.key.startsWith("benefitCode"))) await failure.release();
      throw err;
    }
  }

  async redeemedCount(batchId: string) {
    const [{ n }] = await this.db
      .select({ n: count() })
      .from(benefitCodes)
      .where(and(eq(benefitCodes.batchId, batchId), isNotNull(benefitCodes.redeemedAt)));
    return n;
  }
}
