import { describe, expect, it } from "vitest";
import { en } from "./index";

function strings(node: unknown, path: string, out: [string, string][]) {
  if (typeof node === "string") out.push([path, node]);
  else if (node && typeof node === "object") for (const [k, v] of Object.entries(node)) strings(v, path ? `${path}.${k}` : k, out);
  return out;
}

/** Texts the spec gives in Chinese only ("message texts are kept as given"): the same in both languages. */
const ALLOWED = new Set([
  "common.userInfoExpired",
  "common.uploadFailed",
  "common.uploadCancelled",
  "common.requestCancelled",
  "agents.mine.pending",
  "agents.mine.deleteSuccess",
  "agents.copy.success",
  "agents.studio.nameTooLong",
]);

describe("the English dictionary", () => {
  it("has no Chinese characters or full-width punctuation beyond the spec's Chinese-only messages", () => {
    const bad = strings(en, "", []).filter(([k, v]) => !ALLOWED.has(k) && /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/.test(v));
    expect(bad).toEqual([]);
  });
});
