import type { PlanCategory, SurveyOutcome, UserInfo } from "@agentfair/contracts";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { userGroups, users } from "../../db/schema/index.ts";
import { type Caller, wireTenantId } from "../../platform/auth.ts";
import { notFound } from "../../platform/errors.ts";

const ENTERPRISE_LEVELS = new Set(["ENT_ADVANCED_MONTHLY", "ENT_FLAGSHIP_MONTHLY"]);

/** What the commerce area adds to user info: the fee template of the caller's level. */
export interface FeeTemplateSource {
  feeFor(caller: Caller): Promise<{ category: PlanCategory; fees: number }>;
}

/** Until the commerce area supplies member templates: no edit fee. */
export const noFees: FeeTemplateSource = {
  async feeFor(caller) {
    return { category: ENTERPRISE_LEVELS.has(caller.memberLevel) ? "ENTERPRISE" : "PERSONAL", fees: 0 };
  },
};

export class UsersService {
  constructor(
    private readonly db: Db,
    private readonly fees: FeeTemplateSource = noFees,
  ) {}

  async userInfo(caller: Caller): Promise<UserInfo> {
    const [user] = await this.db.select().from(users).where(eq(users.id, caller.userId)).limit(1);
    if (!user) throw notFound();
    const groups = await this.db
      .select({ id: userGroups.id, groupName: userGroups.groupName })
      .from(userGroups)
      .where(eq(userGroups.userId, user.id));
    return {
      userId: user.id,
      tenantId: wireTenantId(caller),
      tenantDomain: caller.tenantIsDefault ? "" : caller.tenantDomain,
      username: user.username,
      nickname: user.nickname || user.username,
      email: user.email,
      phone: user.phone,
      isWhite: user.isWhite,
      isAdmin: caller.isAdmin,
      isHome: caller.isHome,
      isTenantAdmin: caller.isTenantAdmin,
      userMemberLevel: { memberLevel: caller.memberLevel, endDate: caller.memberEndAt?.toISOString() ?? null },
      userInfo: { accountBalance: user.balanceCents / 100 },
      groups,
      agentDeductFeeTemplates: await this.fees.feeFor(caller),
    };
  }

  /** The first login lasts until the usage-intent survey is answered or skipped. */
  async isFirstLogin(caller: Caller) {
    const [user] = await this.db.select({ surveyOutcome: users.surveyOutcome }).from(users).where(eq(users.id, caller.userId));
    return !user?.surveyOutcome;
  }

  /** Records how the survey ended; the first outcome stays. */
  async firstLoginDone(caller: Caller, outcome: SurveyOutcome) {
    await this.db
      .update(users)
      .set({ surveyOutcome: outcome })
      .where(and(eq(users.id, caller.userId), isNull(users.surveyOutcome)));
  }
}
