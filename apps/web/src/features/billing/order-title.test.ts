import { describe, expect, it } from "vitest";
import i18n from "../../i18n";
import { orderTitleText } from "./order-title";

describe("an order's title", () => {
  it("says the months of a membership order as months, in the page's language", async () => {
    await i18n.changeLanguage("zh");
    expect(orderTitleText("个人旗舰版 × 3", i18n.t, 3)).toBe("个人旗舰版 · 3个月");
    expect(orderTitleText("基础版 × 1", i18n.t)).toBe("基础版 · 1个月");
    expect(orderTitleText("账户充值 ¥100", i18n.t, null)).toBe("账户充值 ¥100");
    // a title that does not end in this order's months is left alone
    expect(orderTitleText("套餐 × 2", i18n.t, 6)).toBe("套餐 × 2");
    await i18n.changeLanguage("en");
    expect(orderTitleText("Personal flagship × 3", i18n.t, 3)).toBe("Personal flagship · 3 months");
    expect(orderTitleText("Basic × 1", i18n.t, 1)).toBe("Basic · 1 month");
  });
});
