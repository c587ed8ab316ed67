import { describe, expect, it } from "vitest";
import { safeChartOption } from "./safe-option";

describe("chart options from a model or an author", () => {
  it("drops what echarts would put into the page as HTML or CSS, and remote image symbols", () => {
    const evil = "{b}<img src=x onerror=alert(1)><meta http-equiv=refresh content='0;url=https://evil.example'>";
    const own = (p: unknown) => String(p);
    const option = safeChartOption({
      tooltip: { trigger: "item", formatter: evil, extraCssText: "position:fixed;inset:0", axisPointer: { label: { formatter: evil } } },
      legend: { tooltip: { show: true, formatter: evil } },
      series: [
        {
          type: "pie",
          tooltip: { formatter: evil, valueFormatter: own },
          label: { formatter: "{b}: {d}%" },
          data: [{ name: "a", value: 1 }],
        },
        { type: "line", symbol: "image://https://evil.example/pixel.png", data: [1, 2] },
      ],
    });
    expect(option).toEqual({
      tooltip: { trigger: "item", axisPointer: { label: {} } },
      legend: { tooltip: { show: true } },
      series: [
        // A label's formatter is drawn on the canvas: it stays.
        { type: "pie", tooltip: { valueFormatter: own }, label: { formatter: "{b}: {d}%" }, data: [{ name: "a", value: 1 }] },
        { type: "line", symbol: undefined, data: [1, 2] },
      ],
    });
  });

  it("keeps an ordinary option as it is", () => {
    const option = { xAxis: { type: "category", data: ["一月", "二月"] }, yAxis: {}, series: [{ type: "bar", data: [3, 4] }] };
    expect(safeChartOption(option)).toEqual(option);
  });
});
