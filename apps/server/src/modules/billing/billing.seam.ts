import type { Caller } from "../../platform/auth.ts";

/** What checkChat took for one reply, and from whom: the per-use price, or one of the day's chats. */
export type ChatCharge =
  | { kind: "use"; userId: string; agentId: string; agentName: string; sessionId: string; cents: number }
  | { kind: "free"; userId: string; day: string };

/**
 * What the caller's plan allows them to keep (the member template's pluginsNum, knowledgeSpace and
 * paidAgentCount): plugins they own, bytes of knowledge they store, agents of theirs that carry a
 * price. null: no limit (exempt callers, or no enabled template for the level).
 */
export interface PlanLimits {
  plugins: number | null;
  knowledgeBytes: number | null;
  pricedAgents: number | null;
}

/**
 * The seam through which agents and chat ask billing for money and quotas. The billing module
 * implements it with transactions and ledger rows; callers never touch balances themselves.
 * Every method throws an AppError with the catalogue's message when the caller may not go on,
 * and then nothing has been charged.
 */
export interface Billing {
  /** Copying a priced agent from the marketplace charges the copy fee. */
  chargeAgentCopy(caller: Caller, agent: { agentId: string; agentName: string; priceCents: number }): Promise<void>;
  /** A studio edit past the free allowance charges the edit fee of the member template. */
  chargeAgentEdit(caller: Caller, agent: { agentId: string; agentName: string }): Promise<void>;
  /** Whether the membership rule refuses the caller this agent's chat ('会员权益功能，请先开通会员!'); no side effects. */
  chatNeedsMembership(caller: Caller, agent: { priceCents: number }): boolean;
  /**
   * Before a chat reply, of the caller who pays for it: the membership rule for priced agents
   * ('会员权益功能，请先开通会员!'), the per-use charge (the charging flag resets after 5 minutes idle),
   * and on free agents one of the day's chats of the caller's level (none on a model of the caller's
   * own tenant, which pays for it).
   */
  checkChat(
    caller: Caller,
    agent: { agentId: string; agentName: string; priceCents: number; ownerId: string },
    sessionId: string,
    model: { tenantId: string | null },
  ): Promise<ChatCharge | null>;
  /**
   * Gives back what checkChat took for a reply that could not be saved: the price is credited
   * (a REFUND ledger row) and the session's next send is charged again; a day's chat is counted back.
   */
  refundChat(charge: ChatCharge): Promise<void>;
  /**
   * Before a model call that is not a chat reply (a workflow's model and agent nodes): one of the
   * day's chats of the caller's level, as a reply on a free agent takes.
   */
  claimModelCall(caller: Caller, model: { tenantId: string | null }): Promise<void>;
  /**
   * How many reports the caller may ask report agents for per day (the member template's
   * insightPerDay); null: no limit (exempt callers, or no template configured for the level).
   */
  insightPerDay(caller: Caller): Promise<number | null>;
  /**
   * The special report categories (chatBi, chatWord, ...) the caller's member template includes
   * (its `types`); null: all of them (exempt callers, or no template configured for the level).
   */
  insightTypes(caller: Caller): Promise<string[] | null>;
  /** The caller's plan limits on what they keep (see PlanLimits); no side effects. */
  planLimits(caller: Caller): Promise<PlanLimits>;
}
