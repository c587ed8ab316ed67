import type { WalletLogPage } from "@agentfair/contracts";
import { Card, Col, Empty, Row } from "antd";
import dayjs from "dayjs";
import ReactECharts from "../../../components/charts/echarts";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";

/** echarts' default palette: the charts name each agent's colour themselves, so both agree. */
const PALETTE = ["#5470c6", "#91cc75", "#fac858", "#ee6666", "#73c0de", "#3ba272", "#fc8452", "#9a60b4", "#ea7ccc"];

/**
 * One colour per agent for both charts: agents ranked by what they cost in the range (then by
 * name), so the same data always gives the same colours, whichever chart lists an agent first.
 */
export function agentColors(data: Pick<WalletLogPage, "lineChart" | "pieChart">, name: (agentName: string) => string) {
  const totals = new Map<string, number>();
  for (const r of [...data.pieChart, ...data.lineChart]) totals.set(name(r.agentName), 0);
  for (const r of data.pieChart) totals.set(name(r.agentName), (totals.get(name(r.agentName)) ?? 0) + r.amount);
  const ranked = [...totals.keys()].sort((a, b) => (totals.get(b) ?? 0) - (totals.get(a) ?? 0) || a.localeCompare(b));
  return new Map(ranked.map((agent, i) => [agent, PALETTE[i % PALETTE.length]]));
}

/** The echarts options of the line chart (daily consumption by agent) and the pie chart (share by agent). */
export function usageChartOptions(
  data: Pick<WalletLogPage, "lineChart" | "pieChart">,
  range: { startDate: string; endDate: string },
  labels: { amount: string; name: (agentName: string) => string },
) {
  const { name } = labels;
  const colors = agentColors(data, name);
  const days: string[] = [];
  for (let d = dayjs(range.startDate); !d.isAfter(dayjs(range.endDate)); d = d.add(1, "day")) days.push(d.format("YYYY-MM-DD"));
  const agents = [...new Set(data.lineChart.map((r) => name(r.agentName)))];
  const line = {
    tooltip: { trigger: "axis" },
    legend: { top: 0, type: "scroll" },
    grid: { left: 48, right: 16, top: 40, bottom: 32 },
    xAxis: { type: "category", data: days.map((d) => d.slice(5)) },
    yAxis: { type: "value", name: labels.amount },
    series: agents.map((a) => ({
      name: a,
      type: "line",
      smooth: true,
      color: colors.get(a),
      data: days.map((d) => data.lineChart.filter((r) => r.dates === d && name(r.agentName) === a).reduce((s, r) => s + r.amount, 0)),
    })),
  };
  const pie = {
    tooltip: { trigger: "item", formatter: "{b}: ¥{c} ({d}%)" },
    legend: { bottom: 0, type: "scroll" },
    series: [
      {
        type: "pie",
        radius: ["40%", "70%"],
        data: data.pieChart.map((r) => ({ name: name(r.agentName), value: r.amount, itemStyle: { color: colors.get(name(r.agentName)) } })),
      },
    ],
  };
  return { line, pie };
}

/** The line chart and the pie chart of the consumption details, one colour per agent. */
export function UsageCharts({ data, startDate, endDate }: { data: WalletLogPage | undefined; startDate: string; endDate: string }) {
  const { t } = useTranslation();
  const { line, pie } = useMemo(
    () =>
      usageChartOptions(
        data ?? { lineChart: [], pieChart: [] },
        { startDate, endDate },
        { amount: t("billing.usage.amount"), name: (n) => n || t("billing.usage.unnamed") },
      ),
    [data, startDate, endDate, t],
  );
  const empty = !data?.pieChart.length;
  return (
    <Row gutter={16}>
      <Col xs={24} lg={14}>
        <Card title={t("billing.usage.line")} data-testid="usage-line">
          {empty ? <Empty description={t("common.noData")} /> : <ReactECharts option={line} style={{ height: 300 }} notMerge />}
        </Card>
      </Col>
      <Col xs={24} lg={10}>
        <Card title={t("billing.usage.pie")} data-testid="usage-pie">
          {empty ? <Empty description={t("common.noData")} /> : <ReactECharts option={pie} style={{ height: 300 }} notMerge />}
        </Card>
      </Col>
    </Row>
  );
}
