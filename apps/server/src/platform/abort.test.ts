import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { LinkedAbortController } from "./abort.ts";

describe("LinkedAbortController", () => {
  it("is aborted by any source, with that source's reason, or by itself", () => {
    const a = new AbortController();
    const b = new AbortController();
    const linked = new LinkedAbortController([a.signal, b.signal]);
    expect(linked.signal.aborted).toBe(false);
    b.abort(new Error("b stopped"));
    expect(linked.signal.reason).toMatchObject({ message: "b stopped" });

    const own = new LinkedAbortController([new AbortController().signal]);
    own.abort();
    expect(own.signal.aborted).toBe(true);
  });

  it("starts aborted when a source already is", () => {
    const a = new AbortController();
    a.abort("gone");
    expect(new LinkedAbortController([new AbortController().signal, a.signal]).signal.reason).toBe("gone");
  });

  it("leaves nothing on a long-lived source once released (AbortSignal.any leaves a reference per call)", () => {
    const stopping = new AbortController();
    for (let i = 0; i < 100; i++) new LinkedAbortController([new AbortController().signal, stopping.signal]).release();
    expect(getEventListeners(stopping.signal, "abort")).toHaveLength(0);
    const linked = new LinkedAbortController([stopping.signal]);
    linked.release();
    stopping.abort();
    expect(linked.signal.aborted).toBe(false);
  });
});
