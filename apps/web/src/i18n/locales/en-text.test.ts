import { describe, expect, it } from "vitest";
import { en } from "./index";

function strings(node: unknown, path: string, out: [string, string][]) {
  if (typeof node === "string") out.push([path, node]);
  else if (node && typeof node === "object") for (const [k, v] of Object.entries(node)) strings(v, path ? `${path}.${k}` : k, out);
  return out;
}

describe("the English dictionary", () => {
  it("has no Chinese characters or full-width punctuation: the English UI shows English for every text", () => {
    const bad = strings(en, "", []).filter(([, v]) => /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/.test(v));
    expect(bad).toEqual([]);
  });
});
