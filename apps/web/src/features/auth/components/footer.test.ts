import { describe, expect, it } from "vitest";
import { recordFilingFor } from "./footer";

const variants = [
  { origin: "agentfair.cn", text: "京ICP备2024000001号-1" },
  { origin: "agentfair.com.cn", text: "京ICP备2024000001号-2" },
  { origin: "*", text: "京ICP备2024000001号-3" },
];

describe("record filing by site origin (three variants)", () => {
  it("picks the variant of the host and its subdomains", () => {
    expect(recordFilingFor(variants, "agentfair.cn")).toBe("京ICP备2024000001号-1");
    expect(recordFilingFor(variants, "www.agentfair.cn")).toBe("京ICP备2024000001号-1");
    expect(recordFilingFor(variants, "agentfair.com.cn")).toBe("京ICP备2024000001号-2");
    expect(recordFilingFor(variants, "app.agentfair.com.cn")).toBe("京ICP备2024000001号-2");
  });

  it("falls back to the * variant elsewhere, and to nothing without one", () => {
    expect(recordFilingFor(variants, "localhost")).toBe("京ICP备2024000001号-3");
    expect(recordFilingFor(variants, "notagentfair.cn")).toBe("京ICP备2024000001号-3");
    expect(recordFilingFor(variants.slice(0, 2), "example.org")).toBe("");
    expect(recordFilingFor([], "agentfair.cn")).toBe("");
  });
});
