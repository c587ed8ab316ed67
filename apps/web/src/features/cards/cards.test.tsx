import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { App as AntApp } from "antd";
import dayjs from "dayjs";
import { describe, expect, it, vi } from "vitest";
import { type ChatBusEvents, createBus } from "../../components/chat/event-bus";
import { MessageBody } from "../../components/chat/message-body";
import type { UiMessage } from "../../components/chat/use-chat";
import { WidgetRenderersProvider } from "../../components/chat/widgets";
import i18n from "../../i18n";
import { CardWidget } from "./components/card-widget";
import { CardTemplateView } from "./components/card-template";
import { WeatherCard } from "./components/weather-card";
import { itemsOf, mapItem } from "./lib/items";
import { cityOfStation, STATIONS, stationCode } from "./lib/stations";
import { dayLabel, parseDate, weatherIcon } from "./lib/weather";
import { botMessage } from "../../test/messages";

const day = (n: number) => dayjs().add(n, "day").format("YYYY-MM-DD");
const weather = (data: unknown, list = true) => (
  <CardTemplateView config={{ type: "weather-card", list, dataPath: "", options: {}, buttons: [] }} data={data} mode="render" />
);

describe("weather card", () => {
  it("shows 暂无查询到天气数据 for an empty list, and for entries with no weather, date, min or max", () => {
    render(weather([]));
    expect(screen.getByTestId("weather-card").textContent).toBe("暂无查询到天气数据");
    cleanup();
    render(weather([{ other: 1 }, { weather: "" }]));
    expect(screen.getByTestId("weather-card").textContent).toBe("暂无查询到天气数据");
  });

  it("shows the first entry large (min to max °C, icon, day label, MM/DD) and later ones as compact rows", () => {
    const d0 = day(0);
    render(
      weather([
        { date: d0, weather: "晴转多云", min: 12, max: "24℃" },
        { date: day(1), weather: "小雨", min: 10, max: 17 },
        { date: day(-1), weather: "阴", min: 9 },
        { date: day(3), weather: "中雪", max: -1 },
        { nothing: true },
      ]),
    );
    const first = screen.getByTestId("weather-first");
    expect(first.textContent).toContain("12 ~ 24°C");
    expect(first.textContent).toContain("今天");
    expect(first.textContent).toContain(dayjs(d0).format("MM/DD"));
    expect(within(first).getByRole("img").getAttribute("data-icon")).toBe("sunny");
    const rows = screen.getAllByTestId("weather-row");
    expect(rows).toHaveLength(3);
    expect(rows[0].textContent).toContain("明天");
    expect(rows[0].textContent).toContain("10 ~ 17°C");
    expect(within(rows[0]).getByRole("img").getAttribute("data-icon")).toBe("rain");
    expect(rows[1].textContent).toContain("昨天");
    expect(rows[1].textContent).toContain("9°C");
    const weekday = ["周日", "周一", "周二", "周三", "周四", "周五", "周六"][dayjs().add(3, "day").day()];
    expect(rows[2].textContent).toContain(weekday);
    expect(within(rows[2]).getByRole("img").getAttribute("data-icon")).toBe("snow");
  });

  it("picks the icon by the first characters of the weather text", () => {
    const cases: [string, string | null][] = [
      ["晴", "sunny"],
      ["多云", "cloudy"],
      ["多云转晴", "cloudy"],
      ["阴", "overcast"],
      ["雷阵雨", "thunderstorm"],
      ["雨夹雪", "rain"],
      ["大雪", "snow"],
      ["小雨", "rain"],
      ["西北风3级", "wind"],
      ["Sunny", "sunny"],
      ["Thunderstorms", "thunderstorm"],
      ["雾", null],
    ];
    for (const [text, icon] of cases) expect([text, weatherIcon(text)]).toEqual([text, icon]);
  });

  it("labels days today, tomorrow, yesterday or the weekday, and reads several date forms", async () => {
    const now = dayjs("2026-06-10T09:00:00");
    expect(dayLabel(parseDate("2026-06-10", now)!, now)).toBe("today");
    expect(dayLabel(parseDate("2026/06/11", now)!, now)).toBe("tomorrow");
    expect(dayLabel(parseDate("06-09", now)!, now)).toBe("yesterday");
    expect(dayLabel(parseDate("2026年6月13日", now)!, now)).toBe(6);
    expect(parseDate("not a date", now)).toBeNull();
    // In English the labels are English.
    await i18n.changeLanguage("en");
    render(<WeatherCard items={[{ date: "2026-06-12", weather: "晴", min: 1, max: 2 }]} now={now} />);
    expect(screen.getByTestId("weather-first").textContent).toContain("Fri");
  });
});

const ticket = (item: Record<string, unknown>) => (
  <CardTemplateView config={{ type: "train-tickets", list: false, dataPath: "", options: {}, buttons: [] }} data={item} mode="render" />
);

describe("train ticket card", () => {
  it("shows cities from the station table, the date MM月DD日 with weekday, duration in hours and seats", () => {
    render(
      ticket({
        from: "北京南",
        to: "上海虹桥站",
        date: "2026-06-01",
        start: "07:00",
        end: "11:29",
        duration: 4.5,
        no: "G1",
        firstClass: 12,
        secondClass: 86,
      }),
    );
    const card = screen.getByTestId("train-card");
    expect(screen.getByTestId("train-from-city").textContent).toBe("北京");
    expect(screen.getByTestId("train-to-city").textContent).toBe("上海");
    expect(card.textContent).toContain("06月01日 周一");
    expect(card.textContent).toContain("4.5小时");
    expect(card.textContent).toContain("G1");
    expect(screen.getByTestId("train-first").textContent).toBe("12张");
    expect(screen.getByTestId("train-second").textContent).toBe("86张");
  });

  it("shows the placeholders for missing values and 无 for missing seats", () => {
    render(ticket({ from: "不存在站", duration: "3:20" }));
    const card = screen.getByTestId("train-card");
    expect(screen.getByTestId("train-from-city").textContent).toBe("出发地");
    expect(screen.getByTestId("train-to-city").textContent).toBe("目的地");
    for (const p of ["出发时间", "到达时间", "到达站", "车次"]) expect(card.textContent).toContain(p);
    expect(card.textContent).toContain("不存在站");
    expect(card.textContent).toContain("3小时20分");
    expect(screen.getByTestId("train-first").textContent).toBe("无");
    expect(screen.getByTestId("train-second").textContent).toBe("无");
    cleanup();
    render(ticket({}));
    expect(screen.getByTestId("train-card").textContent).toContain("起始站");
  });

  it("ships several hundred cities with three-letter station codes", () => {
    const cities = Object.keys(STATIONS);
    const stations = Object.values(STATIONS).flat();
    expect(cities.length).toBeGreaterThanOrEqual(400);
    expect(stations.length).toBeGreaterThanOrEqual(600);
    for (const [, code] of stations) expect(code).toMatch(/^[A-Z]{3}$/);
    expect(new Set(stations.map(([, c]) => c)).size).toBe(stations.length);
    expect([
      stationCode("北京南"),
      stationCode("上海虹桥"),
      stationCode("广州南"),
      stationCode("深圳北"),
      stationCode("杭州东"),
      stationCode("南京南"),
    ]).toEqual(["VNP", "AOH", "IZQ", "IOQ", "HGH", "NKH"]);
    // 12306 codes that a table written from memory tends to get wrong
    expect([stationCode("宜昌东"), stationCode("大明湖"), stationCode("郑州东"), stationCode("深圳坪山")]).toEqual([
      "HAN",
      "JAK",
      "ZAF",
      "IFQ",
    ]);
    expect(cityOfStation("深圳北站")).toBe("深圳");
    expect(cityOfStation("苏州园区")).toBe("苏州");
    expect(cityOfStation("连云港东")).toBe("连云港");
    expect(cityOfStation("汉口")).toBe("汉口");
    expect(cityOfStation("")).toBeUndefined();
  });

  it("stacks a list vertically in render mode, one card per ticket", () => {
    const { container } = render(
      <CardTemplateView
        config={{ type: "train-tickets", list: true, dataPath: "", options: { no: "code" }, buttons: [] }}
        data={[{ code: "D1" }, { code: "D2" }]}
        mode="render"
      />,
    );
    expect(container.querySelector(".card-list-render")).not.toBeNull();
    expect(screen.getAllByTestId("train-card").map((c) => c.querySelector(".train-no")?.textContent)).toEqual(["D1", "D2"]);
  });
});

describe("image-text-button card", () => {
  const config = { type: "image-text-button" as const, list: false, dataPath: "", options: {}, buttons: [] };
  it("shows 暂无数据 in designer mode when the title or content is empty, the card in render mode", () => {
    render(<CardTemplateView config={config} data={{ title: "标题" }} mode="designer" />);
    expect(screen.getByTestId("image-text-card").textContent).toContain("暂无数据");
    cleanup();
    render(<CardTemplateView config={config} data={{ content: "内容" }} mode="designer" />);
    expect(screen.getByTestId("image-text-card").textContent).toContain("暂无数据");
    cleanup();
    render(<CardTemplateView config={config} data={{ title: "标题" }} mode="render" />);
    expect(screen.getByTestId("image-text-card").textContent).not.toContain("暂无数据");
  });

  it("limits the content to 2 lines and its button sends the title into the chat", () => {
    const bus = createBus<ChatBusEvents>();
    const sent = vi.fn();
    bus.on("send-chat-button", sent);
    render(<CardTemplateView config={config} data={{ title: "西湖", content: "很长的内容", image: "/x.png" }} mode="render" bus={bus} />);
    expect(document.querySelector(".image-text-content")?.textContent).toBe("很长的内容");
    fireEvent.click(screen.getByRole("button", { name: "了解更多" }));
    expect(sent).toHaveBeenCalledWith({ text: "西湖", flag: true });
  });
});

describe("chart card and value paths", () => {
  it("shows 暂无数据 without an echarts entry", () => {
    render(
      <CardTemplateView config={{ type: "echarts-card", list: false, dataPath: "", options: {}, buttons: [] }} data={{}} mode="render" />,
    );
    expect(screen.getByTestId("echarts-card").textContent).toContain("暂无数据");
  });

  it("maps fields through value paths, single or list", () => {
    const config = { type: "weather-card" as const, list: true, options: { min: "t.low", weather: "sky[0]" } };
    expect(itemsOf(config, [{ t: { low: 3 }, sky: ["晴"] }]).map((i) => mapItem(config, i))).toEqual([
      { date: undefined, min: 3, max: undefined, weather: "晴" },
    ]);
    expect(itemsOf({ list: false }, [{ a: 1 }, { a: 2 }])).toEqual([{ a: 1 }]);
    expect(itemsOf({ list: true }, { a: 1 })).toEqual([{ a: 1 }]);
    expect(itemsOf({ list: true }, null)).toEqual([]);
  });
});

const bot = (over: Partial<UiMessage>) => botMessage({ uuid: "m1", ...over });

describe("card messages in the chat", () => {
  it("renders a reply's card through the renderer the shell gives, below the text", async () => {
    const bus = createBus<ChatBusEvents>();
    render(
      <AntApp>
        <WidgetRenderersProvider renderers={{ card: CardWidget }}>
          <MessageBody
            message={bot({
              content: "上海天气如下",
              widgetData: {
                config: { kind: "card", type: "weather-card", list: true, dataPath: "", options: {}, buttons: [{ label: "明天呢" }] },
                data: [{ date: day(0), weather: "晴", min: 1, max: 9 }],
              },
            })}
            bus={bus}
          />
        </WidgetRenderersProvider>
      </AntApp>,
    );
    expect(screen.getByText("上海天气如下")).toBeTruthy();
    expect(screen.getByTestId("chat-widget-card")).toBeTruthy();
    expect(screen.getByTestId("weather-first").textContent).toContain("1 ~ 9°C");
    const sent = vi.fn();
    bus.on("send-chat-button", sent);
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "明天呢" }));
    });
    expect(sent).toHaveBeenCalledWith({ text: "明天呢", flag: true });
  });

  it("renders a landscape button row (a menu) that sends the label, and nothing for a kind without renderer", () => {
    const bus = createBus<ChatBusEvents>();
    const sent = vi.fn();
    bus.on("send-chat-button", sent);
    render(
      <MessageBody
        message={bot({ content: "选一个", widgetData: { options: [{ label: "是" }, { label: "否", value: "不是" }] } })}
        bus={bus}
      />,
    );
    const row = screen.getByTestId("button-row");
    fireEvent.click(within(row).getByRole("button", { name: "是" }));
    fireEvent.click(within(row).getByRole("button", { name: "否" }));
    expect(sent.mock.calls.map((c) => c[0].text)).toEqual(["是", "不是"]);
    expect(row.querySelectorAll(".ant-btn-round.ant-btn-background-ghost").length).toBe(2);
    cleanup();
    render(<MessageBody message={bot({ content: "设计", widgetData: { config: { kind: "design", designId: "d1" } } })} bus={bus} />);
    expect(screen.queryByTestId("chat-widget-design")).toBeNull();
    expect(screen.getByText("设计")).toBeTruthy();
  });
});
