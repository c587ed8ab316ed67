import { type CheckPluginItem, checkPluginsOf } from "@agentfair/contracts";
import { cleanup, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import i18n from "../../i18n";
import { CheckPlugins, ToolCalls } from "./tool-calls";

describe("checkPluginsList (doc 2 §3 Message)", () => {
  it("lists each called plugin once, in call order, from the calls that name one", () => {
    const call = (id: string, plugin?: CheckPluginItem) => ({
      id,
      function: { name: "f", arguments: "{}" },
      metaInfo: { name: "F" },
      plugin,
    });
    expect(
      checkPluginsOf([
        call("1", { id: "a", pluginName: "天气" }),
        call("2"),
        call("3", { id: "m", externalPluginName: "echo" }),
        call("4", { id: "a", pluginName: "天气" }),
      ]),
    ).toEqual([
      { id: "a", pluginName: "天气" },
      { id: "m", externalPluginName: "echo" },
    ]);
  });

  it("shows items by pluginName, externalPluginName or workflowName, in zh and en", async () => {
    const items = [
      { id: "a", pluginName: "天气查询" },
      { id: "m", externalPluginName: "echo" },
      { id: "w", workflowName: "请假审批" },
    ];
    const { unmount } = render(<CheckPlugins items={items} />);
    const box = screen.getByTestId("chat-check-plugins");
    expect(box.textContent).toBe("使用的插件：天气查询echo请假审批");
    unmount();
    await i18n.changeLanguage("en");
    render(<CheckPlugins items={items} />);
    expect(screen.getByTestId("chat-check-plugins").textContent).toContain("Plugins used:");
    cleanup();
    render(<CheckPlugins items={[]} />);
    expect(screen.queryByTestId("chat-check-plugins")).toBeNull();
  });
});

describe("a tool call's title", () => {
  it("reads 调用工具：name in zh and Tool call: name in en; the platform's own tools are named in English there, a user's tool as it is", async () => {
    const calls = [
      { id: "1", function: { name: "calculator", arguments: "{}" }, metaInfo: { name: "计算器" }, done: true },
      { id: "2", function: { name: "weather", arguments: "{}" }, metaInfo: { name: "天气查询" }, done: true },
    ];
    const { unmount } = render(<ToolCalls calls={calls} />);
    expect(screen.getByText("调用工具：计算器")).toBeTruthy();
    expect(screen.getByText("调用工具：天气查询")).toBeTruthy();
    unmount();
    await i18n.changeLanguage("en");
    render(<ToolCalls calls={calls} />);
    expect(screen.getByText("Tool call: Calculator")).toBeTruthy();
    expect(screen.getByText("Tool call: 天气查询")).toBeTruthy();
  });
});
