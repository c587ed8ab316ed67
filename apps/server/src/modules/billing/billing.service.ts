import type { PlanCategory } from "@agentfair/contracts";
import type { Caller } from "../../platform/auth.ts";
import type { Platform } from "../../platform/platform.ts";
import type { FeeTemplateSource } from "../users/users.service.ts";
import type { Billing } from "./billing.seam.ts";

const ENTERPRISE_LEVELS = new Set(["ENT_ADVANCED_MONTHLY", "ENT_FLAGSHIP_MONTHLY"]);

/** Membership, orders, wallet, benefit codes, fees and quotas. */
export class BillingService implements Billing, FeeTemplateSource {
  constructor(readonly platform: Platform) {}

  async feeFor(caller: Caller): Promise<{ category: PlanCategory; fees: number }> {
    return { category: ENTERPRISE_LEVELS.has(caller.memberLevel) ? "ENTERPRISE" : "PERSONAL", fees: 0 };
  }

  async chargeAgentCopy(_caller: Caller, _agent: { agentId: string; agentName: string; priceCents: number }): Promise<void> {}

  async chargeAgentEdit(_caller: Caller, _agent: { agentId: string; agentName: string }): Promise<void> {}

  async checkChat(
    _caller: Caller,
    _agent: { agentId: string; agentName: string; priceCents: number; ownerId: string },
    _sessionId: string,
  ): Promise<void> {}
}
