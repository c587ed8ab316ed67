import { vi } from "vitest";

/**
 * Moves the clock to one second past the next whole hour (it keeps running), so the fixed
 * rate-limit windows, which all divide an hour, cannot roll over in the middle of a test.
 */
export function alignClock() {
  const hour = 3_600_000;
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
  vi.setSystemTime(Math.ceil(Date.now() / hour) * hour + 1000);
}

export const restoreClock = () => vi.useRealTimers();
