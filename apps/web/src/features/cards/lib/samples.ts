import type { CardTemplateConfig, CardType } from "@agentfair/contracts";
import dayjs from "dayjs";

const day = (n: number) => dayjs().add(n, "day").format("YYYY-MM-DD");

/** A starting sample result per card type, so a newly placed component previews at once. */
export function sampleFor(type: CardType): { config: Partial<CardTemplateConfig>; sample: unknown } {
  switch (type) {
    case "weather-card":
      return {
        config: { list: true, dataPath: "forecast" },
        sample: {
          city: "北京",
          forecast: [
            { date: day(0), weather: "晴", min: 12, max: 24 },
            { date: day(1), weather: "多云", min: 13, max: 22 },
            { date: day(2), weather: "小雨", min: 10, max: 17 },
            { date: day(3), weather: "雷阵雨", min: 11, max: 19 },
          ],
        },
      };
    case "train-tickets":
      return {
        config: { list: true, dataPath: "tickets" },
        sample: {
          tickets: [
            {
              no: "G1",
              from: "北京南",
              to: "上海虹桥",
              date: day(1),
              start: "07:00",
              end: "11:29",
              duration: 4.5,
              firstClass: 12,
              secondClass: 86,
            },
            { no: "G7", from: "北京南", to: "上海虹桥", date: day(1), start: "09:00", end: "13:38", duration: 4.6, secondClass: 3 },
          ],
        },
      };
    case "image-text-button":
      return {
        config: { list: false, dataPath: "" },
        sample: {
          title: "西湖十景",
          content: "苏堤春晓、曲院风荷、平湖秋月、断桥残雪、柳浪闻莺、花港观鱼、雷峰夕照、双峰插云、南屏晚钟、三潭印月。",
          image: "",
        },
      };
    default:
      return {
        config: { list: false, dataPath: "" },
        sample: {
          echarts: {
            xAxis: { type: "category", data: ["周一", "周二", "周三", "周四", "周五"] },
            yAxis: { type: "value" },
            series: [{ type: "line", data: [12, 18, 15, 22, 19] }],
          },
        },
      };
  }
}
