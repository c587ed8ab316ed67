import { afterEach, beforeEach } from "vitest";

/**
 * The promise rejections nothing handled while each test of the file ran (the browser logs each as
 * a page error). Call `settle()` before looking: Node reports them once the microtask queue drains.
 */
export function unhandledRejections() {
  const seen: unknown[] = [];
  const record = (reason: unknown) => seen.push(reason);
  beforeEach(() => {
    seen.length = 0;
    process.on("unhandledRejection", record);
  });
  afterEach(() => {
    process.off("unhandledRejection", record);
  });
  return seen;
}

export const settle = () => new Promise((r) => setTimeout(r, 50));
