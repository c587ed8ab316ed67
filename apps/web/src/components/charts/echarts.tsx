import { Skeleton } from "antd";
import type { EChartsReactProps } from "echarts-for-react/esm/types";
import { lazy, Suspense } from "react";
import { safeChartOption } from "./safe-option";

// echarts is large: it loads with the first chart, not with the page that holds it.
const EChartsChart = lazy(() => import("./echarts-chart"));

/**
 * An echarts chart (line and pie charts, with grid, legend and tooltip). Every option is made safe
 * first: charts draw options that models, tools and design authors wrote.
 */
export default function ReactECharts(props: Omit<EChartsReactProps, "echarts">) {
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} style={{ height: props.style?.height }} />}>
      <EChartsChart {...props} option={safeChartOption(props.option)} />
    </Suspense>
  );
}
