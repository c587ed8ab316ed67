import { Skeleton } from "antd";
import type { EChartsReactProps } from "echarts-for-react/esm/types";
import { lazy, Suspense } from "react";

// echarts is large: it loads with the first chart, not with the page that holds it.
const EChartsChart = lazy(() => import("./echarts-chart"));

/** An echarts chart (line and pie charts, with grid, legend and tooltip). */
export default function ReactECharts(props: Omit<EChartsReactProps, "echarts">) {
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} style={{ height: props.style?.height }} />}>
      <EChartsChart {...props} />
    </Suspense>
  );
}
