import { DATE_LINK_FORM } from "@agentfair/contracts";
import { describe, expect, it } from "vitest";
import { isReadOnlyBirthDate, LINKED_FORM_ID, linkDate } from "./date-linking";
import { initialValues, readPath, sendText } from "./result";
import { insertWidget } from "./tree";
import { createWidget, type Widget } from "./widgets";

describe("useVar paths", () => {
  it("reads dotted and indexed paths; empty or missing gives undefined", () => {
    const data = { a: { list: [{ name: "张三" }] } };
    expect(readPath(data, "a.list.0.name")).toBe("张三");
    expect(readPath(data, "a.list[0].name")).toBe("张三");
    expect(readPath(data, "a.none.x")).toBeUndefined();
    expect(readPath(data, "")).toBeUndefined();
    expect(readPath(null, "a")).toBeUndefined();
  });
});

describe("send-chat-button text (§7)", () => {
  function form() {
    let d: Widget[] = [];
    const input = createWidget("input", d);
    input.options.key = "name";
    input.options.useVar = "user.name";
    d = insertWidget(d, input, null);
    const select = createWidget("select", d);
    select.options.key = "city";
    d = insertWidget(d, select, null);
    const chart = createWidget("chart", d);
    d = insertWidget(d, chart, null);
    const rowButton = createWidget("button", d);
    rowButton.options.value = "查看 {{variable}} 的详情";
    rowButton.options.variable = "rows.1";
    d = insertWidget(d, rowButton, null);
    const last = createWidget("button", d);
    d = insertWidget(d, last, null);
    return { d, input, select, rowButton, last };
  }

  it("the last button: its value (default 帮我使用这些参数生成报告：) then key:value of the widgets that hold values", () => {
    const { d, input, select, last } = form();
    const result = { user: { name: "李四" } };
    const values = { ...initialValues(d, result), [select.id]: "上海" };
    expect(values[input.id]).toBe("李四");
    expect(sendText(d, last, values, result)).toBe("帮我使用这些参数生成报告：name:李四,city:上海");
    last.options.value = "生成：";
    expect(sendText(d, last, values, result)).toBe("生成：name:李四,city:上海");
  });

  it("other buttons: their value with {{variable}} replaced by the row variable's JSON", () => {
    const { d, rowButton } = form();
    const result = { rows: [{ id: 1 }, { id: 2, name: "乙" }] };
    expect(sendText(d, rowButton, {}, result)).toBe('查看 {"id":2,"name":"乙"} 的详情');
    expect(sendText(d, rowButton, {}, {})).toBe("查看 null 的详情");
  });
});

describe("date linking (§5)", () => {
  it("in the configured form a birth date fills its three dependents; the birth date fields are read-only", () => {
    const insured = linkDate(LINKED_FORM_ID, DATE_LINK_FORM.insuredBirthId, "1990-01-02");
    expect(Object.keys(insured).sort()).toEqual([DATE_LINK_FORM.insuredBirthId, ...DATE_LINK_FORM.insuredDependentIds].sort());
    expect(new Set(Object.values(insured))).toEqual(new Set(["1990-01-02"]));
    const holder = linkDate(LINKED_FORM_ID, DATE_LINK_FORM.policyholderBirthId, "1970-05-06");
    expect(Object.keys(holder).sort()).toEqual([DATE_LINK_FORM.policyholderBirthId, ...DATE_LINK_FORM.policyholderDependentIds].sort());
    expect(isReadOnlyBirthDate(LINKED_FORM_ID, DATE_LINK_FORM.insuredBirthId)).toBe(true);
    expect(isReadOnlyBirthDate(LINKED_FORM_ID, DATE_LINK_FORM.insuredDependentIds[0])).toBe(false);
  });

  it("in any other form a date changes only itself", () => {
    expect(linkDate("another-form", DATE_LINK_FORM.insuredBirthId, "1990-01-02")).toEqual({
      [DATE_LINK_FORM.insuredBirthId]: "1990-01-02",
    });
    expect(linkDate(null, DATE_LINK_FORM.policyholderBirthId, "x")).toEqual({ [DATE_LINK_FORM.policyholderBirthId]: "x" });
    expect(isReadOnlyBirthDate("another-form", DATE_LINK_FORM.insuredBirthId)).toBe(false);
  });
});
