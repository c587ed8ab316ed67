import { describe, expect, it } from "vitest";
import { applyAdjustments, deleteSegment, editSegment, mergeWithNext, NO_ADJUSTMENTS, toRequest } from "./adjust";

const seg = (position: number, content: string) => ({ id: `s${position}`, position, content, tokens: 1 });
const preview = [seg(0, "甲"), seg(1, "乙"), seg(2, "丙"), seg(3, "丁")];

describe("segment adjustment", () => {
  it("edits, deletes and merges by position, keeping the parse's ids", () => {
    let a = editSegment(NO_ADJUSTMENTS, 0, "甲（改）");
    a = deleteSegment(a, 2);
    let shown = applyAdjustments(preview, a);
    expect(shown.map((s) => [s.id, s.content, s.edited ?? false])).toEqual([
      ["s0", "甲（改）", true],
      ["s1", "乙", false],
      ["s3", "丁", false],
    ]);
    // Merging skips the deleted one: the next shown segment joins.
    a = mergeWithNext(shown, a, 1);
    shown = applyAdjustments(preview, a);
    expect(shown.map((s) => s.content)).toEqual(["甲（改）", "乙\n丁"]);
    expect(toRequest(a)).toEqual({
      edits: [
        { position: 0, content: "甲（改）" },
        { position: 1, content: "乙\n丁" },
      ],
      deletes: [2, 3],
    });
    // The last shown segment has nothing to merge with.
    expect(mergeWithNext(shown, a, 1)).toBe(a);
    expect(toRequest(NO_ADJUSTMENTS)).toBeUndefined();
  });

  it("an edit back to the original text is no edit", () => {
    expect(applyAdjustments(preview, editSegment(NO_ADJUSTMENTS, 1, "乙"))[1].edited).toBeUndefined();
  });
});
