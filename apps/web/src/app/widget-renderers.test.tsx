import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { beforeAll, describe, expect, it } from "vitest";
import { type ChatBusEvents, createBus } from "../components/chat/event-bus";
import { MessageBody } from "../components/chat/message-body";
import { WidgetRenderersProvider } from "../components/chat/widgets";
import { createWidget } from "../features/designer/model/widgets";
import "../i18n";
import { widgetRenderers } from "./widget-renderers";
import { botMessage } from "../test/messages";

beforeAll(() => {
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});
const bot = (widgetData: unknown) => botMessage({ uuid: "m", content: "结果如下", widgetData });

const show = (widgetData: unknown, widgetDataList?: unknown[]) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <WidgetRenderersProvider renderers={widgetRenderers}>
        <MessageBody message={{ ...bot(widgetData), widgetDataList }} bus={createBus<ChatBusEvents>()} />
      </WidgetRenderersProvider>
    </QueryClientProvider>,
  );

describe("the shell's widget renderers in a chat reply", () => {
  it("draw a card (features/cards) and a design (features/designer), each loaded on first use", async () => {
    show({ config: { kind: "card", type: "weather-card", list: true, dataPath: "", options: {}, buttons: [] }, data: [] });
    // The first use loads the renderer's chunk, which a busy machine takes a while to do.
    expect(await screen.findByText("暂无查询到天气数据", {}, { timeout: 10_000 })).toBeTruthy();
    cleanup();
    const text = createWidget("text", []);
    text.options = { ...text.options, value: "设计里的文本" };
    show({ config: { kind: "design", widgetList: [text] }, data: {} });
    expect(await screen.findByTestId("chat-widget-design", {}, { timeout: 10_000 })).toBeTruthy();
    expect(await screen.findByText("设计里的文本")).toBeTruthy();
  });

  it("draw every card of a reply, in order", async () => {
    const card = (type: string, data: unknown) => ({
      config: { kind: "card", type, list: true, dataPath: "", options: {}, buttons: [] },
      data,
    });
    const weather = card("weather-card", []);
    const tickets = card("train-tickets", [{ no: "G1" }]);
    const buttons = { config: { kind: "buttons", options: [{ label: "再查一次" }] } };
    const { container } = show(weather, [weather, tickets, buttons]);
    await screen.findByText("暂无查询到天气数据");
    await screen.findByText("G1");
    const kinds = [...container.querySelectorAll("[data-testid^='chat-widget-'], [data-testid='button-row']")].map((el) =>
      el.getAttribute("data-testid"),
    );
    expect(kinds).toEqual(["chat-widget-card", "chat-widget-card", "button-row"]);
    const [first, second] = container.querySelectorAll("[data-testid='chat-widget-card']");
    expect(first.textContent).toContain("暂无查询到天气数据");
    expect(second.querySelector("[data-testid='train-card']")).not.toBeNull();
  });
});
