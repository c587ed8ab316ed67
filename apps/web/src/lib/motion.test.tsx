import { act, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { usePrefersReducedMotion } from "./motion";

function Shown() {
  return <span>{usePrefersReducedMotion() ? "reduced" : "full"}</span>;
}

describe("usePrefersReducedMotion", () => {
  it("follows the system's reduced-motion setting, also when it changes", () => {
    let matches = true;
    const listeners = new Set<() => void>();
    vi.stubGlobal("matchMedia", (query: string) => ({
      get matches() {
        return query === "(prefers-reduced-motion: reduce)" && matches;
      },
      addEventListener: (_: string, l: () => void) => listeners.add(l),
      removeEventListener: (_: string, l: () => void) => listeners.delete(l),
    }));
    const { unmount } = render(<Shown />);
    expect(screen.getByText("reduced")).toBeTruthy();
    matches = false;
    act(() => {
      for (const l of listeners) l();
    });
    expect(screen.getByText("full")).toBeTruthy();
    unmount();
    expect(listeners.size).toBe(0);
  });
});
