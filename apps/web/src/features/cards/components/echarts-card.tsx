import { Empty } from "antd";
import { useTranslation } from "react-i18next";
import ReactECharts from "../../../components/charts/echarts";
import type { CardItem } from "../lib/items";

/** Chart card (doc 2 §2): draws the echarts entry of the data; 暂无数据 without one. */
export function EchartsCard({ item }: { item: CardItem }) {
  const { t } = useTranslation();
  const option = item.echarts;
  const usable = option && typeof option === "object" && !Array.isArray(option);
  return (
    <div className="card-item echarts-card" data-testid="echarts-card">
      {usable ? (
        <ReactECharts option={option as Record<string, unknown>} style={{ height: 240, width: "100%" }} notMerge />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("cards.noData")} />
      )}
    </div>
  );
}
