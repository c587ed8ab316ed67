import { describe, expect, it } from "vitest";
import { messages, requestLanguage, translate } from "./messages.ts";

const CHINESE = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;

describe("the server's message catalogue", () => {
  it("has an English text for every message: no Chinese in en", () => {
    const chinese = Object.entries(messages)
      .filter(([, m]) => CHINESE.test(m.en))
      .map(([key]) => key);
    expect(chinese).toEqual([]);
  });

  it("keeps the spec's Chinese texts in zh and answers in the asked language", () => {
    expect(translate("tokenInvalid", "zh")).toBe("token失效");
    expect(translate("memberFeatureRequired", "zh")).toBe("会员权益功能，请先开通会员!");
    expect(translate("copySuccess", requestLanguage({ lang: "en" }))).toBe("copied successfully!");
    expect(translate("copySuccess", requestLanguage({}))).toBe("复制成功！");
  });
});
