import { fireEvent, screen } from "@testing-library/react";
import { Route, Routes } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderInApp } from "../../test/render";
import { ChatPanel } from "./chat-panel";

afterEach(() => vi.unstubAllGlobals());
// jsdom lays nothing out: the list's scroll to its end has nothing to do.
Element.prototype.scrollIntoView ??= () => {};

/** The chat call answers with the server's refusal envelope. */
const refuse = (msg: string, data: unknown) =>
  vi.stubGlobal(
    "fetch",
    vi.fn(
      async () => new Response(JSON.stringify({ code: 400, msg, data }), { status: 400, headers: { "content-type": "application/json" } }),
    ),
  );

const show = () =>
  renderInApp(
    <Routes>
      <Route path="/" element={<ChatPanel agentId="a1" release agent={{ agentName: "助手" }} sessionId={null} history={[]} />} />
      <Route path="/recharge" element={<div>会员中心页</div>} />
    </Routes>,
  );

const ask = (text: string) => {
  const input = screen.getByRole("textbox");
  fireEvent.change(input, { target: { value: text } });
  fireEvent.keyDown(input, { key: "Enter", code: "Enter" });
};

describe("a chat refused for the membership page's reasons", () => {
  it.each([
    ["balanceInsufficient", "账户余额不足，请先充值", "去充值"],
    ["freeChatsExhausted", "今日免费对话次数（20次）已用完，请开通会员", "开通会员"],
    ["dailyChatsExhausted", "今日对话次数（200次）已用完，请明天再来或升级会员", "升级会员"],
  ])("%s: the way to the membership page stays above the input", async (reason, msg, button) => {
    refuse(msg, { reason });
    show();
    ask("你好");
    const notice = await screen.findByTestId("chat-refusal");
    expect(notice.textContent).toContain(msg);
    fireEvent.click(screen.getByRole("button", { name: button }));
    expect(await screen.findByText("会员中心页")).toBeTruthy();
  });

  it("another refusal offers no such way", async () => {
    refuse("请输入需要提问的内容", null);
    show();
    ask("你好");
    expect(await screen.findByText("请求出错！")).toBeTruthy();
    expect(screen.queryByTestId("chat-refusal")).toBeNull();
  });
});
