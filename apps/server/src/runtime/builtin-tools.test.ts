import { describe, expect, it } from "vitest";
import { isBlockedAddress } from "../platform/net.ts";
import { evaluate } from "./builtin-tools.ts";
import { parseQuestions } from "./follow-ups.ts";
import { estimateTokens } from "./prompt.ts";

describe("calculator", () => {
  it("evaluates arithmetic without eval", () => {
    expect(evaluate("(3 + 4) * 2")).toBe(14);
    expect(evaluate("2^10 - 1")).toBe(1023);
    expect(evaluate("-5 % 3 + 1/4")).toBe(-1.75);
    expect(() => evaluate("process.exit()")).toThrow();
    expect(() => evaluate("1/0")).toThrow();
    expect(() => evaluate("")).toThrow();
  });
});

describe("safe fetch address rules", () => {
  it("blocks private, loopback, link-local and mapped addresses", () => {
    for (const a of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "0.0.0.0",
      "::1",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "100.64.0.1",
    ])
      expect(isBlockedAddress(a), a).toBe(true);
    for (const a of ["8.8.8.8", "1.1.1.1", "2606:4700::1111"]) expect(isBlockedAddress(a), a).toBe(false);
  });
});

describe("follow-ups and prompt helpers", () => {
  it("parses questions from JSON or lines, at most 3", () => {
    expect(parseQuestions('["a","b","c","d"]')).toEqual(["a", "b", "c"]);
    expect(parseQuestions("1. 甲\n2. 乙")).toEqual(["甲", "乙"]);
    expect(parseQuestions("[]")).toEqual([]);
  });
  it("estimates tokens for Chinese and English", () => {
    expect(estimateTokens("你好世界")).toBe(4);
    expect(estimateTokens("abcdefgh")).toBe(2);
  });
});
