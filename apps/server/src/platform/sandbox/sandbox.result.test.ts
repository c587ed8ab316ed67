import { afterAll, describe, expect, it } from "vitest";
import { Sandboxes } from "./index.ts";

/**
 * Attack: a code plugin's result had no size limit (HTTP answers stop at PLUGIN_RESPONSE_MAX_BYTES): one
 * returning "x".repeat(40e6) handed 40 MB to the chat (to the model, the stored message and the client) and
 * to a test run's answer. Now a result past the limit fails the call.
 */
const sandboxes = new Sandboxes({ timeoutMs: 5000, memoryMb: 64, jsWorkers: 1, pyWorkers: 1, maxResultBytes: 1024 * 1024 });
afterAll(() => sandboxes.close());

describe("sandbox results", () => {
  it("fail past the largest answer a call may give", async () => {
    const big = await sandboxes.run("javascript", {
      tenantKey: "t",
      ownerKey: "o",
      code: "function main() { return 'x'.repeat(40e6); }",
      params: {},
    });
    expect(big).toMatchObject({ ok: false, result: null, error: "the result is larger than 1048576 bytes" });
    const fits = await sandboxes.run("javascript", {
      tenantKey: "t",
      ownerKey: "o",
      code: "function main() { return '好'.repeat(300000); }",
      params: {},
    });
    expect(fits).toMatchObject({ ok: true });
    const wide = await sandboxes.run("javascript", {
      tenantKey: "t",
      ownerKey: "o",
      code: "function main() { return '好'.repeat(400000); }",
      params: {},
    });
    expect(wide.ok).toBe(false);
  }, 60_000);
});
