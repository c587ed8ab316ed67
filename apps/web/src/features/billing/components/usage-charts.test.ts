import { describe, expect, it } from "vitest";
import { usageChartOptions } from "./usage-charts";

// The line lists agents by the day they first cost something, the pie by amount: other orders.
const data = {
  lineChart: [
    { dates: "2026-05-01", agentName: "营销文案助手", amount: 1 },
    { dates: "2026-05-02", agentName: "财报分析师", amount: 9 },
    { dates: "2026-05-03", agentName: "", amount: 0.5 },
    { dates: "2026-05-03", agentName: "营销文案助手", amount: 1 },
  ],
  pieChart: [
    { agentName: "财报分析师", amount: 9 },
    { agentName: "营销文案助手", amount: 2 },
    { agentName: "", amount: 0.5 },
  ],
};
const options = (d: typeof data) =>
  usageChartOptions(d, { startDate: "2026-05-01", endDate: "2026-05-03" }, { amount: "元", name: (n) => n || "其他" });
const lineColors = (o: ReturnType<typeof options>) => Object.fromEntries(o.line.series.map((s) => [s.name, s.color]));
const pieColors = (o: ReturnType<typeof options>) => Object.fromEntries(o.pie.series[0].data.map((d) => [d.name, d.itemStyle.color]));

describe("usage charts", () => {
  it("colour each agent the same in the line and the pie chart, each agent its own colour", () => {
    const o = options(data);
    expect(o.line.series.map((s) => s.name)).toEqual(["营销文案助手", "财报分析师", "其他"]);
    expect(lineColors(o)).toEqual(pieColors(o));
    expect(new Set(Object.values(lineColors(o))).size).toBe(3);
  });

  it("give the same colours for the same data, whatever order the rows come in", () => {
    const shuffled = { lineChart: [...data.lineChart].reverse(), pieChart: [...data.pieChart].reverse() };
    expect(pieColors(options(shuffled))).toEqual(pieColors(options(data)));
    expect(lineColors(options(shuffled))).toEqual(lineColors(options(data)));
  });
});
