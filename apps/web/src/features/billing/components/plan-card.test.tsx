import type { PlanTemplate } from "@agentfair/contracts";
import { cleanup, render, screen } from "@testing-library/react";
import { ConfigProvider } from "antd";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
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
afterEach(cleanup);

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
});
