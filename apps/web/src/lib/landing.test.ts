import { describe, expect, it } from "vitest";
import { landingPath, safeRedirect } from "./landing";

describe("landing after sign-in (doc 1 §2)", () => {
  it("sends the home user (as the server's user info says) to /home and everybody else to /index", () => {
    expect(landingPath({ isHome: true })).toBe("/home");
    expect(landingPath({ isHome: false })).toBe("/index");
    expect(landingPath(undefined)).toBe("/index");
  });

  it("goes back to a redirect only when it is a path of this app", () => {
    expect(safeRedirect("?redirect=%2Fhome%3Ftypes%3D2")).toBe("/home?types=2");
    expect(safeRedirect("?redirect=/qr-confirm?id=1")).toBe("/qr-confirm?id=1");
    expect(safeRedirect("?redirect=https://evil.example")).toBeNull();
    expect(safeRedirect("?redirect=//evil.example")).toBeNull();
    expect(safeRedirect("?redirect=/\\evil.example")).toBeNull();
    expect(safeRedirect("")).toBeNull();
  });
});
