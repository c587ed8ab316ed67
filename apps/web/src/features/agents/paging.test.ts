import { describe, expect, it } from "vitest";
import { stepBackPage } from "./paging";

describe("stepBackPage", () => {
  it("steps back to the new last page when the current page empties", () => {
    expect(stepBackPage(3, 0, 198, 99)).toBe(2);
    expect(stepBackPage(2, 0, 99, 99)).toBe(1);
    expect(stepBackPage(2, 0, 0, 99)).toBe(1);
  });
  it("stays when the page still has items or is the first", () => {
    expect(stepBackPage(2, 5, 104, 99)).toBeNull();
    expect(stepBackPage(1, 0, 0, 99)).toBeNull();
  });
});
