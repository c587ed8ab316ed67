import { act, cleanup, render, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import i18n from "../../i18n";
import { InsightProgress } from "./insight-steps";

/** The chat's insight steps and the get_insight_url poll: every 2 s, at most 90 tries, stops on code 500 or a url. */
let answers: object[] = [];
let calls = 0;
const steps = (done: boolean) => [
  { title: "理解问题，规划分析步骤", isEnd: true, stepList: [{ url: "", learning: "各客户订单金额" }] },
  { title: "执行查询", isEnd: done, stepList: [{ url: "#sql", learning: "各客户订单金额：返回 2 行：李四 / 300" }] },
];
const pending = { code: 200, msg: "", data: { reportId: "r1", status: "RUNNING", url: null, insightStep: steps(false) } };

beforeEach(async () => {
  await i18n.changeLanguage("zh");
  vi.useFakeTimers();
  calls = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      calls += 1;
      expect(url).toContain("/agent/agent_runtime/get_insight_url?session_id=s1&message_id=m1");
      const body = answers.length > 1 ? answers.shift() : answers[0];
      return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
    }),
  );
});

const show = () =>
  render(<InsightProgress sessionId="s1" messageId="m1" steps={[{ title: "理解问题，规划分析步骤", isEnd: false, stepList: [] }]} />);
const tick = async (ms: number) => {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
};

describe("insight steps in a reply", () => {
  it("shows each step's title and learning, then the report button once the url comes, and stops polling", async () => {
    answers = [
      pending,
      {
        code: 200,
        msg: "",
        data: { reportId: "r1", status: "DONE", url: "/insight-report?projectId=a&type=10", insightStep: steps(true) },
      },
    ];
    show();
    expect(screen.getAllByTestId("insight-step")).toHaveLength(1);
    expect(calls).toBe(0);
    await tick(2000);
    expect(calls).toBe(1);
    expect(screen.getByText("各客户订单金额：返回 2 行：李四 / 300")).toBeTruthy();
    await tick(2000);
    expect(screen.getByTestId("open-report").textContent).toContain("查看报告");
    await tick(10_000);
    expect(calls).toBe(2);
    // a general report offers no file in the chat
    expect(screen.queryByTestId("download-report")).toBeNull();
  });
  it("a chatWord or chatPPT reply offers its file beside the report", async () => {
    const ready = (category: string) => ({
      code: 200,
      msg: "",
      data: { reportId: "r1", status: "DONE", url: "/insight-report?projectId=a&type=10", insightStep: steps(true), category },
    });
    answers = [ready("chatWord")];
    show();
    await tick(2000);
    expect(screen.getByTestId("download-report").textContent).toContain("下载 Word 报告");
    cleanup();
    answers = [ready("chatPPT")];
    show();
    await tick(2000);
    expect(screen.getByTestId("download-report").textContent).toContain("下载 PPT");
  });
  it("stops on code 500 and shows the server's message", async () => {
    answers = [pending, { code: 500, msg: "报告生成失败：查询未通过", data: null }];
    show();
    await tick(4000);
    expect(screen.getByTestId("insight-progress").dataset.state).toBe("failed");
    expect(screen.getByText("报告生成失败：查询未通过")).toBeTruthy();
    await tick(10_000);
    expect(calls).toBe(2);
  });
  it("gives up after 90 tries, 2 s apart", async () => {
    answers = [pending];
    show();
    await tick(2000 * 89);
    expect(calls).toBe(89);
    expect(screen.getByTestId("insight-progress").dataset.state).toBe("polling");
    await tick(2000);
    expect(calls).toBe(90);
    expect(screen.getByTestId("insight-progress").dataset.state).toBe("timeout");
    await tick(20_000);
    expect(calls).toBe(90);
  });
});
