import { DESIGNER } from "@agentfair/contracts";
import { Empty } from "antd";
import type { EChartsType } from "echarts/core";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import ReactECharts from "../../../components/charts/echarts";

/** §9: the chart palette of 20 colours. */
export const CHART_COLORS = [
  "#5470c6",
  "#91cc75",
  "#fac858",
  "#ee6666",
  "#73c0de",
  "#3ba272",
  "#fc8452",
  "#9a60b4",
  "#ea7ccc",
  "#1677ff",
  "#13c2c2",
  "#52c41a",
  "#faad14",
  "#f5222d",
  "#722ed1",
  "#eb2f96",
  "#fa8c16",
  "#a0d911",
  "#2f54eb",
  "#8c8c8c",
];

const hasData = (option: unknown): option is Record<string, unknown> =>
  !!option &&
  typeof option === "object" &&
  Array.isArray((option as { series?: unknown }).series) &&
  (option as { series: unknown[] }).series.length > 0;

/** The chart widget: an echarts option read from the result through useVar; 暂无数据 without one. */
export function ChartWidget({ option, height }: { option: unknown; height?: number }) {
  const { t } = useTranslation();
  const chart = useRef<EChartsType | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const h = height || DESIGNER.chartHeight;

  // Resizes follow the box, at most once per 200 ms (§9), not on every pixel of a drag.
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    let timer: number | undefined;
    const observer = new ResizeObserver(() => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => chart.current?.resize(), DESIGNER.chartResizeDebounceMs);
    });
    observer.observe(el);
    return () => {
      window.clearTimeout(timer);
      observer.disconnect();
    };
  }, []);

  if (!hasData(option))
    return (
      <div className="dz-chart-empty" style={{ height: h }}>
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("designer.noData")} />
      </div>
    );
  return (
    <div ref={box} style={{ height: h }} data-testid="designer-chart">
      <ReactECharts
        option={{ color: CHART_COLORS, tooltip: {}, ...option }}
        autoResize={false}
        style={{ height: h, width: "100%" }}
        onChartReady={(instance: EChartsType) => {
          chart.current = instance;
        }}
      />
    </div>
  );
}
