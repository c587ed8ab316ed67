import { beforeAll, describe, expect, it } from "vitest";
import i18n from "../i18n";
import { relativeTime } from "./relative-time";

// Only the shown language is loaded at start; these cases read both.
beforeAll(() => i18n.loadLanguages("en"));

const now = Date.UTC(2026, 5, 15, 12, 0, 0);
const ago = (seconds: number) => new Date(now - seconds * 1000);
const S = 1;
const M = 60;
const H = 3600;
const D = 86400;

describe("relativeTime (doc 1 §9)", () => {
  const cases: [number, string, string][] = [
    [0, "刚刚", "just now"],
    [59 * S, "刚刚", "just now"],
    [60 * S, "1分钟前", "1 minute ago"],
    [119 * S, "1分钟前", "1 minute ago"],
    [2 * M, "2分钟前", "2 minutes ago"],
    [59 * M + 59, "59分钟前", "59 minutes ago"],
    [H, "1小时前", "1 hour ago"],
    [23 * H + 59 * M, "23小时前", "23 hours ago"],
    [D, "1天前", "1 day ago"],
    [6 * D + 23 * H, "6天前", "6 days ago"],
    [7 * D, "1周前", "1 week ago"],
    [13 * D, "1周前", "1 week ago"],
    [14 * D, "2周前", "2 weeks ago"],
    [20 * D, "2周前", "2 weeks ago"],
    [21 * D, "3周前", "3 weeks ago"],
    [29 * D, "4周前", "4 weeks ago"],
    [30 * D, "1个月前", "1 month ago"],
    [59 * D, "1个月前", "1 month ago"],
    [60 * D, "2个月前", "2 months ago"],
    [400 * D, "13个月前", "13 months ago"],
  ];
  it.each(cases)("%i s ago reads %s / %s", (seconds, zh, en) => {
    expect(relativeTime(ago(seconds), { now, lang: "zh" })).toBe(zh);
    expect(relativeTime(ago(seconds), { now, lang: "en" })).toBe(en);
  });

  it("accepts ISO strings and epoch milliseconds", () => {
    expect(relativeTime(ago(3 * H).toISOString(), { now, lang: "zh" })).toBe("3小时前");
    expect(relativeTime(now - 5 * M * 1000, { now, lang: "en" })).toBe("5 minutes ago");
  });

  it("reads a time slightly in the future as just now, and nonsense as nothing", () => {
    expect(relativeTime(new Date(now + 5000), { now, lang: "zh" })).toBe("刚刚");
    expect(relativeTime("not a date", { now })).toBe("");
  });

  it("uses the current language by default", () => {
    expect(relativeTime(ago(2 * D), { now })).toBe("2天前");
  });
});
