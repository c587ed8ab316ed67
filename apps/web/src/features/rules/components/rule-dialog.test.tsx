import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import i18n from "../../../i18n";
import { configureHttp } from "../../../lib/http";
import { setTokens } from "../../../lib/storage";
import { renderInApp } from "../../../test/render";
import { RuleDialog, readableAiError, sqlInputKeys } from "./rule-dialog";

/** Form validation, the request and the message each take a while in jsdom on a busy machine. */
const WAIT = { timeout: 10_000 };
const toasts: string[] = [];
let answers: Record<string, { status: number; body: object }> = {};
const calls: { url: string; body: unknown }[] = [];

beforeEach(async () => {
  await i18n.changeLanguage("zh");
  setTokens({ token: "t", reportToken: "r" });
  toasts.length = 0;
  calls.length = 0;
  answers = {};
  configureHttp({ notifyError: (text) => toasts.push(text), onTokenInvalid: () => {} });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url: String(url), body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const hit = Object.entries(answers).find(([k]) => String(url).includes(k));
      const a = hit?.[1] ?? { status: 200, body: { code: 200, msg: "", data: [] } };
      return new Response(JSON.stringify(a.body), { status: a.status, headers: { "content-type": "application/json" } });
    }),
  );
});
afterAll(() => configureHttp({ notifyError: (text) => console.error(text), onTokenInvalid: () => {} }));

const sqlRule = {
  id: "r1",
  name: "客户等级",
  ruleKey: "customer_level",
  description: "按客户订单总额判断等级",
  remark: "订单总额满 1000 为 VIP，否则为普通",
  useData: 1 as const,
  isPublic: false,
  category: "",
  formKeys: [],
  params: [
    {
      name: "total",
      type: "sql" as const,
      description: "订单总额",
      tableName: "orders",
      sql: "SELECT sum(amount) FROM orders WHERE customer = :input1",
    },
  ],
  expression: "",
  showExpression: "",
  expressionCn: "",
  aiRemark: "",
  dirId: null,
  projectId: "p1",
  input1: "华为",
};
const show = (rule: unknown = null) =>
  renderInApp(
    <RuleDialog
      rule={rule as never}
      projectId="p1"
      dirId={null}
      fieldConfig={[{ key: "input1", label: "业务线" }]}
      onClose={() => {}}
      onSaved={() => {}}
    />,
  );
const notices = () => [...document.querySelectorAll(".ant-message-notice")].map((n) => n.textContent ?? "");

describe("the rule dialog", { timeout: 30_000 }, () => {
  it("shows a failed AI expression once, in words people can act on", async () => {
    answers["/rule/ai/expression"] = {
      status: 400,
      body: {
        code: 400,
        msg: "生成失败：（离线演示模型）你的问题是：「【规则表达式生成】 — unexpected character: （ (at character 1)",
        data: null,
      },
    };
    show(sqlRule);
    fireEvent.click(await screen.findByTestId("rule-ai-expression"));
    await waitFor(() => expect(notices()).toHaveLength(1), WAIT);
    expect(notices()[0]).toContain("AI 没有给出可用的表达式");
    expect(notices()[0]).not.toContain("unexpected character");
    expect(toasts).toEqual([]);
  });

  it("shows a failed test and a failed save once each", async () => {
    answers["/rule/test"] = { status: 400, body: { code: 400, msg: "未知函数：FOO（第 1 个字符）", data: null } };
    answers["/rule/save"] = { status: 400, body: { code: 400, msg: "唯一标识已存在", data: null } };
    show({ ...sqlRule, expression: "FOO(total)", showExpression: "FOO(total)" });
    fireEvent.click(await screen.findByTestId("rule-test"));
    await waitFor(() => expect(notices().filter((n) => n.includes("未知函数"))).toHaveLength(1), WAIT);
    fireEvent.click(screen.getByTestId("rule-save"));
    await waitFor(() => expect(notices().filter((n) => n.includes("唯一标识已存在"))).toHaveLength(1), WAIT);
    expect(toasts).toEqual([]);
  });

  it("says under 测试参数 where an SQL field's :input1 comes from, and offers it there", async () => {
    answers["/rule/test"] = { status: 200, body: { code: 200, msg: "", data: { value: "VIP", trace: [] } } };
    show(sqlRule);
    // The fields' inputs are known once the form has its values: the hint says them from then on.
    await waitFor(() => expect(screen.getByTestId("rule-test-hint").textContent).toContain(":input1"), WAIT);
    expect(screen.getByTestId("rule-test-hint").textContent).toContain("total");
    const input = screen.getByTestId("test-input-input1").querySelector("input") ?? screen.getByTestId("test-input-input1");
    expect((input as HTMLInputElement).value).toBe("华为");
    expect(screen.getByText("业务线 (:input1)")).toBeTruthy();
    fireEvent.change(input, { target: { value: "小米" } });
    fireEvent.click(screen.getByTestId("rule-test"));
    await waitFor(() => expect(calls.some((c) => c.url.includes("/rule/test"))).toBe(true), WAIT);
    const body = calls.find((c) => c.url.includes("/rule/test"))?.body as { params: string };
    expect(JSON.parse(decodeURIComponent(body.params))).toEqual({ input1: "小米" });
  });

  it("suggests a rule key no demo rule uses", async () => {
    show();
    const key = (await screen.findByTestId("rule-key")) as HTMLInputElement;
    expect(key.placeholder).not.toContain("member_level");
    expect(key.placeholder).toContain("discount_rate");
  });

  it("helpers", () => {
    const t = (k: string) => k;
    expect(readableAiError("生成失败：x — unexpected character", t)).toBe("rules.aiInvalid");
    expect(readableAiError("generate failed: x — unknown function: FOO", t)).toBe("rules.aiInvalid");
    expect(readableAiError("生成失败：模型服务不可用", t)).toBe("生成失败：模型服务不可用");
    expect(
      sqlInputKeys([{ name: "a", type: "sql", description: "", tableName: "", sql: "x = :input2 and y = :input1 or :input10" }]),
    ).toEqual(["input1", "input10", "input2"]);
  });
});
