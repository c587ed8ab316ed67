import { DATE_LINK_FORM, WIDGET_TYPES } from "@agentfair/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { App as AntApp } from "antd";
import { MemoryRouter } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { type ChatBusEvents, createBus } from "../../../components/chat/event-bus";
import { LINKED_FORM_ID } from "../model/date-linking";
import { insertWidget } from "../model/tree";
import { createWidget, type Widget, type WidgetType } from "../model/widgets";
import { DesignEditor } from "./design-editor";
import { DesignRenderer } from "./design-renderer";

// MapLibre needs WebGL, which jsdom lacks: the map widget's own box is what is checked here.
vi.mock("./map-view", () => ({ default: () => <div data-testid="map-view" /> }));

const one = (type: WidgetType, patch: Record<string, unknown> = {}) => {
  const w = createWidget(type, []);
  w.options = { ...w.options, ...patch };
  return w;
};

describe("every widget renders (render mode)", () => {
  it.each(WIDGET_TYPES)("%s", (type) => {
    const w = one(type);
    const { container } = render(<DesignRenderer design={[w]} result={{}} />);
    const box = container.querySelector(`.dz-${type}`);
    expect(box).not.toBeNull();
    if (["input", "select", "date", "switch", "rate", "table", "cascader", "checkbox", "radio"].includes(type))
      expect(box?.textContent).toContain(String(w.options.label));
    if (type === "button") expect(box?.querySelector("button")?.textContent?.replace(/\s/g, "")).toBe("提交");
    if (type === "row") expect(container.querySelectorAll(".ant-col-12")).toHaveLength(2);
    if (type === "map") expect(container.querySelector<HTMLElement>(".dz-map-box")?.style.height).toBe("350px");
    if (type === "tag") expect(box?.textContent).toBe("标签");
  });

  it("reads values from the result through useVar; the chart without data shows 暂无数据", () => {
    const input = one("input", { useVar: "a.name" });
    const text = one("text", { useVar: "a.title", useLabelVar: "a.label" });
    const table = one("table", { useVar: "a.rows" });
    const chart = one("chart", { useVar: "a.chart" });
    render(
      <DesignRenderer
        design={[input, text, table, chart]}
        result={{ a: { name: "王五", title: "标题文字", label: "说明", rows: [{ name: "甲", value: 3 }] } }}
      />,
    );
    expect((screen.getByDisplayValue("王五") as HTMLInputElement).readOnly).toBe(false);
    expect(screen.getByText("标题文字")).toBeTruthy();
    expect(screen.getByText("说明")).toBeTruthy();
    expect(screen.getByText("甲")).toBeTruthy();
    expect(screen.getByText("暂无数据")).toBeTruthy();
  });
});

const btn = (name: string) => screen.getByText(name).closest("button") as HTMLButtonElement;

describe("render-mode buttons (§4, §7)", () => {
  it("the last button sends its text and the values, then is disabled; others replace {{variable}}", () => {
    let d: Widget[] = [];
    const input = one("input", { key: "name", useVar: "user.name" });
    d = insertWidget(d, input, null);
    const rowButton = one("button", { label: "看第二行", value: "详情：{{variable}}", variable: "rows.1" });
    d = insertWidget(d, rowButton, null);
    const last = one("button", { label: "生成报告", value: "" });
    last.options.name = "button-2";
    d = insertWidget(d, last, null);
    const bus = createBus<ChatBusEvents>();
    const sent: ChatBusEvents["send-chat-button"][] = [];
    bus.on("send-chat-button", (e) => sent.push(e));
    render(<DesignRenderer design={d} result={{ user: { name: "赵六" }, rows: [1, { id: 2 }] }} bus={bus} />);
    fireEvent.change(screen.getByDisplayValue("赵六"), { target: { value: "钱七" } });
    fireEvent.click(btn("看第二行"));
    fireEvent.click(btn("生成报告"));
    expect(sent).toEqual([
      { text: '详情：{"id":2}', flag: true },
      { text: "帮我使用这些参数生成报告：name:钱七", flag: true },
    ]);
    const button = btn("生成报告");
    expect(button.disabled).toBe(true);
    fireEvent.click(button);
    expect(sent).toHaveLength(2);
  });

  it("a link button opens its address in a new window and sends nothing", () => {
    const open = vi.spyOn(window, "open").mockReturnValue(null);
    const link = one("button", { label: "打开官网", type: "link", value: "https://example.com/" });
    const bus = createBus<ChatBusEvents>();
    const sent = vi.fn();
    bus.on("send-chat-button", sent);
    render(<DesignRenderer design={[link]} bus={bus} />);
    fireEvent.click(btn("打开官网"));
    expect(open).toHaveBeenCalledWith("https://example.com/", "_blank", "noopener,noreferrer");
    expect(sent).not.toHaveBeenCalled();
    open.mockRestore();
  });
});

describe("date linking in the configured form (§5)", () => {
  const dates = () => [
    one("date", { label: "被保险人出生日期" }),
    ...DATE_LINK_FORM.insuredDependentIds.map((_, i) => one("date", { label: `依赖${i}` })),
  ];
  const withIds = (list: Widget[]) => {
    list[0].id = DATE_LINK_FORM.insuredBirthId;
    DATE_LINK_FORM.insuredDependentIds.forEach((id, i) => {
      list[i + 1].id = id;
    });
    list[0].options.useVar = "birth";
    return list;
  };

  it("the birth date input is read-only there, and its dependents take the picked value", () => {
    const list = withIds(dates());
    const { container } = render(<DesignRenderer design={list} result={{ birth: "1990-01-02" }} formId={LINKED_FORM_ID} />);
    const inputs = container.querySelectorAll("input");
    expect(inputs[0].readOnly).toBe(true);
    expect(inputs[1].readOnly).toBe(false);
    // Picking a date in the calendar: choose a day of the open panel.
    fireEvent.mouseDown(inputs[0]);
    fireEvent.click(inputs[0]);
    const cell = document.querySelector('.ant-picker-cell[title="1990-01-15"] .ant-picker-cell-inner') as HTMLElement;
    fireEvent.click(cell);
    for (const input of Array.from(container.querySelectorAll("input"))) expect(input.value).toBe("1990-01-15");
  });

  it("elsewhere nothing is linked or read-only", () => {
    const list = withIds(dates());
    const { container } = render(<DesignRenderer design={list} result={{ birth: "1990-01-02" }} formId="another" />);
    const inputs = container.querySelectorAll("input");
    expect(inputs[0].readOnly).toBe(false);
    fireEvent.mouseDown(inputs[0]);
    fireEvent.click(inputs[0]);
    fireEvent.click(document.querySelector('.ant-picker-cell[title="1990-01-15"] .ant-picker-cell-inner') as HTMLElement);
    expect(inputs[0].value).toBe("1990-01-15");
    expect(inputs[1].value).toBe("");
  });
});

function editor(widgetList: Widget[] = []) {
  const client = new QueryClient();
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <AntApp>
          <DesignEditor
            design={{
              id: "d1",
              name: "测试",
              widgetList,
              sampleResult: "",
              widgetCount: 0,
              createdTime: "",
              updatedTime: "",
              pluginIds: [],
            }}
          />
        </AntApp>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("the designer (§2, §4)", () => {
  it("shows the 23 widgets by Chinese name with data-widget-type; a double-click adds one and selects it", () => {
    const { container } = editor();
    expect(screen.queryByText("未保存")).toBeNull();
    const items = container.querySelectorAll("[data-widget-type]");
    expect(Array.from(items, (i) => i.getAttribute("data-widget-type")).sort()).toEqual([...WIDGET_TYPES].sort());
    expect(container.querySelector('[data-widget-type="cascader"]')?.textContent).toBe("级联选择");
    expect(container.querySelector('[data-widget-type="scroll"]')?.textContent).toBe("横向滚动");
    fireEvent.doubleClick(container.querySelector('[data-widget-type="input"]') as Element);
    const canvas = screen.getByTestId("designer-canvas");
    expect(within(canvas).getByText("input-1")).toBeTruthy();
    expect(within(screen.getByTestId("designer-layout")).getByText("input-1 · 输入框")).toBeTruthy();
    expect((screen.getByLabelText("名称") as HTMLInputElement).value).toBe("input-1");
    expect(screen.getByText("未保存")).toBeTruthy();
  });

  it("moves, copies and deletes with the toolbar; the ends say 已经移动到最上面 / 已经移动到最下面; delete clears the selection", async () => {
    const a = one("input");
    const b = one("select");
    b.options.name = "select-1";
    const { container } = editor([a, b]);
    const pick = (id: string) => fireEvent.click(container.querySelector(`[data-widget-id="${id}"]`) as Element);
    const tool = (action: string) =>
      fireEvent.click(container.querySelector(`.dz-selected > .dz-toolbar [data-action="${action}"]`) as Element);
    const order = () => Array.from(container.querySelectorAll("[data-testid=designer-layout] .dz-layout-item"), (e) => e.textContent);
    pick(a.id);
    tool("up");
    expect(await screen.findByText("已经移动到最上面")).toBeTruthy();
    tool("down");
    expect(order()).toEqual(["select-1 · 下拉选择", "input-1 · 输入框"]);
    tool("down");
    expect(await screen.findByText("已经移动到最下面")).toBeTruthy();
    tool("copy");
    expect(order()).toEqual(["select-1 · 下拉选择", "input-1 · 输入框", "input-2 · 输入框"]);
    // The copy is selected: one selection at a time.
    expect(container.querySelectorAll(".dz-selected")).toHaveLength(1);
    expect((screen.getByLabelText("名称") as HTMLInputElement).value).toBe("input-2");
    tool("delete");
    expect(order()).toEqual(["select-1 · 下拉选择", "input-1 · 输入框"]);
    expect(container.querySelectorAll(".dz-selected")).toHaveLength(0);
    expect(screen.getByText("选中画布上的组件后编辑属性")).toBeTruthy();
  });

  it("edits options in the property panels (column span default 12)", () => {
    const { container } = editor();
    fireEvent.doubleClick(container.querySelector('[data-widget-type="row"]') as Element);
    const col = container.querySelector(".dz-col") as Element;
    fireEvent.click(col);
    const span = screen.getByLabelText("栅格宽度 span") as HTMLInputElement;
    expect(span.value).toBe("12");
    fireEvent.change(span, { target: { value: "8" } });
    expect(container.querySelectorAll(".ant-col-8")).toHaveLength(1);
  });

  it("switches to render mode fed by the sample result", async () => {
    const input = one("input", { useVar: "who" });
    const client = new QueryClient();
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <AntApp>
            <DesignEditor
              design={{
                id: "d1",
                name: "测试",
                widgetList: [input],
                sampleResult: '{"who":"孙八"}',
                widgetCount: 1,
                createdTime: "",
                updatedTime: "",
                pluginIds: [],
              }}
            />
          </AntApp>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await act(async () => {
      fireEvent.click(screen.getByText("渲染模式"));
    });
    expect(within(screen.getByTestId("design-render")).getByDisplayValue("孙八")).toBeTruthy();
    expect(screen.queryByTestId("designer-palette")).toBeNull();
  });
});

describe("a design inside a chat reply", () => {
  it("renders the widgets of widgetData fed by its data, and its last button sends through the chat's bus", async () => {
    const { DesignWidget } = await import("./design-widget");
    const input = one("input", { key: "who", useVar: "person" });
    const last = one("button", { label: "发送参数" });
    const bus = createBus<ChatBusEvents>();
    const sent = vi.fn();
    bus.on("send-chat-button", sent);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <DesignWidget widget={{ config: { kind: "design", widgetList: [input, last] }, data: { person: "周九" } }} bus={bus} />
      </QueryClientProvider>,
    );
    expect(screen.getByDisplayValue("周九")).toBeTruthy();
    fireEvent.click(btn("发送参数"));
    expect(sent).toHaveBeenCalledWith({ text: "帮我使用这些参数生成报告：who:周九", flag: true });
  });
});

describe("card components of the palette", () => {
  it("the image-text card shows 暂无数据 in designer mode without title or content; render mode hands it to the shell's card renderer", async () => {
    const { WidgetRenderersProvider } = await import("../../../components/chat/widgets");
    const { container } = editor();
    expect(Array.from(container.querySelectorAll("[data-card-type]"), (e) => e.getAttribute("data-card-type"))).toEqual([
      "imagetext",
      "weather",
    ]);
    fireEvent.doubleClick(container.querySelector('[data-card-type="imagetext"]') as Element);
    expect(screen.getByTestId("imagetext-empty").textContent).toContain("暂无数据");
    cleanup();

    const seen: unknown[] = [];
    const card = ({ widget }: { widget: unknown }) => {
      seen.push(widget);
      return <div data-testid="fake-card" />;
    };
    const imageText = one("imagetext" as WidgetType, { useVar: "item" });
    const weather = one("weather" as WidgetType, { useVar: "days" });
    render(
      <WidgetRenderersProvider renderers={{ card }}>
        <DesignRenderer
          design={[imageText, weather]}
          result={{ item: { img: "a.png", title: "标题", content: "内容" }, days: [{ date: "2026-01-01" }] }}
        />
      </WidgetRenderersProvider>,
    );
    expect(screen.getAllByTestId("fake-card")).toHaveLength(2);
    expect(seen).toEqual([
      expect.objectContaining({
        config: expect.objectContaining({ type: "image-text-button" }),
        data: { img: "a.png", title: "标题", content: "内容" },
      }),
      expect.objectContaining({ config: expect.objectContaining({ type: "weather-card", list: true }), data: [{ date: "2026-01-01" }] }),
    ]);
  });
});
