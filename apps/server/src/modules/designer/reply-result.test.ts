import { describe, expect, it } from "vitest";
import { replyResult } from "./designer.service.ts";

describe("the result an agent's design reads from a reply", () => {
  it("is the reply's JSON (all of it, a fenced block or its braces), else the last JSON tool result, else its text", () => {
    expect(replyResult('{"a":1}', [])).toEqual({ a: 1 });
    expect(replyResult('结果如下：\n```json\n{"a":2}\n```', [])).toEqual({ a: 2 });
    expect(replyResult('好的，已整理 {"a":{"b":3}} 请确认', [])).toEqual({ a: { b: 3 } });
    expect(replyResult("没有结构", ['{"t":1}', "纯文本", undefined])).toEqual({ t: 1 });
    expect(replyResult("没有结构", ['{"t":1}', '{"t":2}'])).toEqual({ t: 2 });
    expect(replyResult("只有文字 {不是 JSON}", ["42"])).toEqual({ content: "只有文字 {不是 JSON}" });
  });
});
