import { describe, expect, it } from "vitest";
import { BENEFIT_CODE_LEVELS, membershipGateApplies } from "./auth.ts";
import { canTransition, discountFold, membershipPriceCents, ORDER_STATUSES, planButtonState } from "./billing.ts";

const plan = (memberLevel: Parameters<typeof planButtonState>[1]["memberLevel"]) => ({
  memberLevel,
  category: memberLevel.startsWith("ENT_") ? ("ENTERPRISE" as const) : ("PERSONAL" as const),
});

describe("billing contracts", () => {
  it("plan button states of doc 1 §4", () => {
    const columns = [plan("FREE"), plan("MONTHLY"), plan("PER_FLAGSHIP_MONTHLY")];
    expect(columns.map((p) => planButtonState("FREE", p))).toEqual(["use", "upgrade", "upgrade"]);
    expect(columns.map((p) => planButtonState(null, p))).toEqual(["use", "upgrade", "upgrade"]);
    expect(columns.map((p) => planButtonState("MONTHLY", p))).toEqual(["enjoyed", "renew", "upgrade"]);
    expect(columns.map((p) => planButtonState("PER_FLAGSHIP_MONTHLY", p))).toEqual(["enjoyed", "enjoyed", "renew"]);
    const team = [plan("ENT_ADVANCED_MONTHLY"), plan("ENT_FLAGSHIP_MONTHLY")];
    expect(team.map((p) => planButtonState("ENT_ADVANCED_MONTHLY", p))).toEqual(["renew", "upgrade"]);
    expect(team.map((p) => planButtonState("ENT_FLAGSHIP_MONTHLY", p))).toEqual(["upgrade", "renew"]);
    expect(team.map((p) => planButtonState("FREE", p))).toEqual(["upgrade", "upgrade"]);
  });

  it("only the legal order transitions", () => {
    const legal = ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.filter((to) => canTransition(from, to)).map((to) => `${from}->${to}`));
    expect(legal.sort()).toEqual([
      "FROZEN->PAID",
      "FROZEN->REFUNDED",
      "PAID->FROZEN",
      "PAID->REFUNDED",
      "PENDING->CANCELLED",
      "PENDING->PAID",
    ]);
  });

  it("prices in cents and the discount in 折", () => {
    expect(membershipPriceCents(9900, 3, 0.95, 0.8)).toBe(22572);
    expect(membershipPriceCents(2900, 12, 0.8, 1)).toBe(27840);
    expect(discountFold(0.8)).toBe(8);
    expect(discountFold(0.85)).toBe(8.5);
  });

  it("the membership gate and the benefit-code levels come from one place", () => {
    const user = (level: (typeof BENEFIT_CODE_LEVELS)[number] | "ENT_ADVANCED_MONTHLY", extra: object = {}) => ({
      isAdmin: false,
      isWhite: false,
      tenantId: null,
      userMemberLevel: { memberLevel: level },
      ...extra,
    });
    expect(membershipGateApplies(user("FREE"))).toBe(true);
    expect(membershipGateApplies(user("FREE", { isWhite: true }))).toBe(false);
    expect(membershipGateApplies(user("FREE", { tenantId: "t" }))).toBe(false);
    expect(membershipGateApplies(user("MONTHLY"))).toBe(false);
    expect(BENEFIT_CODE_LEVELS).toEqual(["FREE", "MONTHLY", "PER_FLAGSHIP_MONTHLY"]);
  });
});
