import type { InsightReport, ReportBlock } from "@agentfair/contracts";
import { Alert, Card, Col, Empty, Row, Table, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import ReactECharts from "../../../components/charts/echarts";
import { Markdown } from "../../../components/chat/markdown";
import { InsightSteps } from "../../../components/chat/insight-steps";

/** The echarts option of a chart block: bars and lines over the categories, or one pie. */
export function chartOption(b: Extract<ReportBlock, { kind: "chart" }>) {
  if (b.chartType === "pie")
    return {
      // Drawn at once: a report is read (and printed) as it is, not watched growing.
      animation: false,
      tooltip: { trigger: "item" },
      legend: { bottom: 0 },
      series: [{ type: "pie", radius: "60%", data: b.categories.map((name, i) => ({ name, value: b.series[0]?.data[i] ?? 0 })) }],
    };
  return {
    animation: false,
    tooltip: { trigger: "axis" },
    legend: { bottom: 0 },
    grid: { left: 48, right: 16, top: 16, bottom: 48 },
    xAxis: { type: "category", data: b.categories },
    yAxis: { type: "value" },
    series: b.series.map((s) => ({ type: b.chartType, name: s.name, data: s.data })),
  };
}

function Block({ block }: { block: ReportBlock }) {
  if (block.kind === "text") return <Markdown text={block.content} />;
  if (block.kind === "chart")
    return (
      <div data-testid="report-chart" data-chart-type={block.chartType}>
        <ReactECharts option={chartOption(block)} style={{ height: 300 }} notMerge />
      </div>
    );
  return (
    <Table
      size="small"
      rowKey={(_, i) => String(i)}
      pagination={block.rows.length > 10 ? { pageSize: 10 } : false}
      columns={block.columns.map((c, i) => ({ title: c, dataIndex: String(i), key: String(i) }))}
      dataSource={block.rows.map((r) => Object.fromEntries(r.map((v, i) => [String(i), v === null ? "" : String(v)])))}
      scroll={{ x: true }}
    />
  );
}

/** A report page: findings, then every chart and table, each with the SQL that produced it. */
export function ReportView({ report }: { report: InsightReport }) {
  const { t } = useTranslation();
  if (report.status === "FAILED") return <Alert type="error" showIcon title={t("insight.failed")} description={report.error} />;
  if (report.status !== "DONE")
    return (
      <Card title={t("insight.building")}>
        <InsightSteps steps={report.insightStep} />
      </Card>
    );
  if (!report.blocks.length) return <Empty />;
  return (
    <Row gutter={[16, 16]} data-testid="report-view">
      {report.blocks.map((b, i) => (
        <Col key={`${b.kind}-${i}`} xs={24} lg={b.kind === "text" ? 24 : 12}>
          <Card
            size="small"
            title={b.title}
            extra={b.kind !== "text" && <Tag>{t(`insight.kinds.${b.kind}`)}</Tag>}
            style={{ height: "100%" }}
          >
            <Block block={b} />
            {b.kind !== "text" && (
              <Typography.Text
                type="secondary"
                copyable={{ text: b.sql }}
                style={{ display: "block", marginTop: 8, fontSize: 12, overflowWrap: "anywhere" }}
              >
                <code>{b.sql}</code>
              </Typography.Text>
            )}
          </Card>
        </Col>
      ))}
    </Row>
  );
}
