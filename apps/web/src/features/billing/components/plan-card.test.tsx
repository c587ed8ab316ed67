import type { PlanTemplate } from "@agentfair/contracts";
import { render, screen } from "@testing-library/react";
import { ConfigProvider } from "antd";
import { beforeEach, describe, expect, it } from "vitest";
import i18n from "../../../i18n";
import { PlanCard } from "./plan-card";

const plan: PlanTemplate = {
  id: "p1",
  category: "PERSONAL",
  memberLevel: "MONTHLY",
  name: "基础版",
  description: "",
  num: 29,
  types: "",
  discount: 1,
  countPerDay: 200,
  paidAgentCount: 5,
  insightPerDay: 5,
  editCount: 20,
  knowledgeSpace: 1024,
  pluginsNum: 10,
  invitedNum: 1,
  fees: 0.5,
  sort: 1,
  enabled: true,
};

beforeEach(() => i18n.changeLanguage("zh"));
describe("PlanCard", () => {
  it("outlines the member's current plan in the tenant's primary colour, not a fixed blue", () => {
    render(
      <ConfigProvider theme={{ token: { colorPrimary: "#d4380d" } }}>
        <PlanCard plan={plan} userLevel="MONTHLY" onAction={() => undefined} />
      </ConfigProvider>,
    );
    expect(screen.getByTestId("plan-MONTHLY").style.borderColor).toBe("rgb(212, 56, 13)");
  });

  it("draws no outline around a plan the member is not on", () => {
    render(<PlanCard plan={plan} userLevel="FREE" onAction={() => undefined} />);
    expect(screen.getByTestId("plan-MONTHLY").style.borderColor).toBe("");
  });

  it("speaks English in English: '20% off', singular and plural counts, the category names", async () => {
    await i18n.changeLanguage("en");
    // The plan calls answer with the English name in English.
    const flagship = {
      ...plan,
      name: "Basic",
      discount: 0.8,
      invitedNum: 1,
      pluginsNum: 10,
      types: "chatBi,chat dashboard,industry report",
    };
    render(<PlanCard plan={flagship} userLevel="FREE" onAction={() => undefined} />);
    const card = screen.getByTestId("plan-MONTHLY");
    expect(card.textContent).toContain("20% off");
    expect(card.textContent).not.toContain("fold");
    expect(card.textContent).toContain("Invite 1 member");
    expect(card.textContent).not.toContain("1 members");
    expect(card.textContent).toContain("10 plugins");
    expect(card.textContent).toContain("Capabilities: Data Q&A, Chat dashboards, Industry reports");
    // Buttons and headings in sentence case; the spec's quoted texts as they are.
    expect(i18n.t("billing.buttons.upgrade")).toBe("Upgrade");
    expect(i18n.t("billing.memberLevel")).toBe("Member level");
    expect(i18n.t("billing.buttons.enjoyed")).toBe("enjoyed");
    expect(i18n.t("billing.consumptionDetails")).toBe("consumption details");
    expect(i18n.t("billing.buyTitle")).toBe("open or upgrade membership");
    expect(i18n.t("billing.benefitEmpty")).toBe("please enter the invitation code!");
    expect(i18n.t("billing.months", { count: 1 })).toBe("1 month");
    expect(i18n.t("billing.months", { count: 3 })).toBe("3 months");
    expect(card.textContent).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it("keeps 折 in Chinese and names the categories in Chinese", () => {
    const flagship = { ...plan, discount: 0.8, invitedNum: 1, types: "chatBi,chat dashboard,industry report" };
    render(<PlanCard plan={flagship} userLevel="FREE" onAction={() => undefined} />);
    const card = screen.getByTestId("plan-MONTHLY");
    expect(card.textContent).toContain("8折");
    expect(card.textContent).toContain("可邀请成员 1 人");
    expect(card.textContent).toContain("可用能力：智能问数、对话仪表盘、行业报告");
    expect(card.textContent).not.toContain("chatBi");
    expect(i18n.t("billing.months", { count: 1 })).toBe("1个月");
  });
});
