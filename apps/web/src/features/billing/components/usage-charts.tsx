import type { WalletLogPage } from "@agentfair/contracts";
import { Card, Col, Empty, Row } from "antd";
import dayjs from "dayjs";
import ReactECharts from "../../../components/charts/echarts";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";

/** The line chart (daily consumption by agent) and the pie chart (share by agent). */
export function UsageCharts({ data, startDate, endDate }: { data: WalletLogPage | undefined; startDate: string; endDate: string }) {
  const { t } = useTranslation();
  const name = (n: string) => n || t("billing.usage.unnamed");
  const line = useMemo(() => {
    const days: string[] = [];
    for (let d = dayjs(startDate); !d.isAfter(dayjs(endDate)); d = d.add(1, "day")) days.push(d.format("YYYY-MM-DD"));
    const agents = [...new Set((data?.lineChart ?? []).map((r) => name(r.agentName)))];
    return {
      tooltip: { trigger: "axis" },
      legend: { top: 0, type: "scroll" },
      grid: { left: 48, right: 16, top: 40, bottom: 32 },
      xAxis: { type: "category", data: days.map((d) => d.slice(5)) },
      yAxis: { type: "value", name: t("billing.usage.amount") },
      series: agents.map((a) => ({
        name: a,
        type: "line",
        smooth: true,
        data: days.map((d) =>
          (data?.lineChart ?? []).filter((r) => r.dates === d && name(r.agentName) === a).reduce((s, r) => s + r.amount, 0),
        ),
      })),
    };
  }, [data, startDate, endDate]);
  const pie = useMemo(
    () => ({
      tooltip: { trigger: "item", formatter: "{b}: ¥{c} ({d}%)" },
      legend: { bottom: 0, type: "scroll" },
      series: [
        {
          type: "pie",
          radius: ["40%", "70%"],
          data: (data?.pieChart ?? []).map((r) => ({ name: name(r.agentName), value: r.amount })),
        },
      ],
    }),
    [data],
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
