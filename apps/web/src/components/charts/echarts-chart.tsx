import { BarChart, LineChart, PieChart } from "echarts/charts";
import { GridComponent, LegendComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import EChartsCore from "echarts-for-react/esm/core";
import type { EChartsReactProps } from "echarts-for-react/esm/types";

// Only the parts of echarts the product draws: the full build is three times the size.
echarts.use([LineChart, PieChart, BarChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

/** An echarts chart (line and pie charts, with grid, legend and tooltip). */
export default function EChartsChart(props: Omit<EChartsReactProps, "echarts">) {
  return <EChartsCore echarts={echarts} {...props} />;
}
