import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { App as AntApp } from "antd";
import { beforeAll, describe, expect, it, vi } from "vitest";
import i18n from "../../i18n";
import { ChatInput } from "./chat-input";
import { ChatView } from "./chat-view";
import { type ChatBusEvents, createBus } from "./event-bus";
import { Markdown } from "./markdown";
import type { UiMessage } from "./use-chat";
import { botMessage } from "../../test/messages";

beforeAll(() => {
  // Browser parts jsdom lacks, used by the view's scrolling and antd's autosize.
  Element.prototype.scrollIntoView ??= () => undefined;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});

const bot = (over: Partial<UiMessage>) => botMessage({ ...over });
const agent = { agentName: "测试助手" };

function view(messageList: UiMessage[], bus = createBus<ChatBusEvents>()) {
  return render(
    <AntApp>
      <ChatView currentAgent={agent} sessionId="s" share={false} pendding={false} messageList={messageList} bus={bus} />
    </AntApp>,
  );
}

describe("replies as HTML", () => {
  it("parses raw HTML and keeps no script text, not even inside SVG", () => {
    const { container } = render(
      <Markdown text={'前 <b>粗体</b> 后\n\n<div align="center">居中</div>\n\n图 <svg><script>alert(1)</script><text>x</text></svg> 尾'} />,
    );
    expect(container.querySelector("b")?.textContent).toBe("粗体");
    expect(container.textContent).not.toContain("<");
    expect(container.textContent).not.toContain("alert(1)");
    expect(container.querySelector("script, svg")).toBeNull();
  });
});

describe("reply progress", () => {
  it("shows the stage while the first words are awaited (not hidden behind the loading dots)", async () => {
    view([bot({ loading: true, writable: true, stepNum: 0, processLoading: 10 })]);
    // The message list loads with the first message (chat-view.tsx).
    expect((await screen.findByTestId("chat-progress")).textContent).toContain("思考中");
  });

  it("names each stage the runtime reaches", async () => {
    const labels: (string | null)[] = [];
    for (const stepNum of [0, 1, 2, 3]) {
      cleanup();
      view([bot({ writable: true, stepNum, content: "…" })]);
      labels.push((await screen.findByTestId("chat-progress")).textContent);
    }
    expect(labels).toEqual(["思考中", "搜索信息中", "分析中", "生成结果中"]);
  });
});

describe("a failed reply", () => {
  it("shows the failure in the page's language and offers a retry", async () => {
    const bus = createBus<ChatBusEvents>();
    const retried = vi.fn();
    bus.on("send-plugins-button", retried);
    const failed = bot({
      status: "failed",
      stepNum: 3,
      processLoading: 60,
      error: "模型未能及时回答，请稍后重试",
      errorCode: "modelTimeout",
    });
    view([{ ...bot({ role: 1, content: "问题" }) }, failed], bus);
    expect((await screen.findByTestId("chat-progress")).textContent).toContain("回复失败");
    expect(screen.getByTestId("chat-progress").textContent).not.toContain("生成结果中");
    expect(screen.getByRole("alert").textContent).toContain("模型未能及时回答");
    await act(() => i18n.changeLanguage("en"));
    expect(screen.getByRole("alert").textContent).toContain("The model did not answer in time");
    fireEvent.click(within(screen.getByRole("alert")).getByRole("button", { name: /Retry/ }));
    expect(retried).toHaveBeenCalledWith(expect.objectContaining({ reload: true, content: "问题" }));
  });
});

describe("sending a file", () => {
  it("needs no text: the send button is enabled by a file alone", async () => {
    const upload = vi.spyOn(await import("./api/upload-file"), "uploadChatFile").mockResolvedValue({
      id: "f1",
      name: "需求.txt",
      presignedUrl: "",
      type: "text/plain",
    });
    const sent = vi.fn(async () => true);
    const { container } = render(
      <AntApp>
        <ChatInput pending={false} bus={createBus<ChatBusEvents>()} onSend={sent} onStop={() => undefined} />
      </AntApp>,
    );
    const buttons = () => [...container.querySelectorAll<HTMLButtonElement>("button")];
    const send = () => buttons().at(-1)!;
    expect(send().disabled).toBe(true);
    const input = container.querySelector<HTMLInputElement>("input[type=file]")!;
    await act(async () => {
      fireEvent.change(input, { target: { files: [new File(["需求"], "需求.txt", { type: "text/plain" })] } });
    });
    await act(async () => {
      await Promise.resolve();
    });
    expect(upload).toHaveBeenCalled();
    expect(send().disabled).toBe(false);
    await act(async () => {
      fireEvent.click(send());
    });
    expect(sent).toHaveBeenCalledWith("", [{ id: "f1", name: "需求.txt", type: "text/plain" }], undefined);
  });
});
