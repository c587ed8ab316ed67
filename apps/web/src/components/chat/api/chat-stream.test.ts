import { afterEach, describe, expect, it, vi } from "vitest";

// The events' schema is fetched as a chunk of its own: here, one that fails to load (a release replaced it, the network dropped).
vi.mock("@agentfair/contracts/chat-stream", () => {
  throw new Error("chunk failed to load");
});

const { streamChat } = await import("./chat-stream");

afterEach(() => vi.unstubAllGlobals());

describe("a refused chat request while the events' schema fails to load", () => {
  it("is refused with the server's reason, and leaves no rejection unhandled", async () => {
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", note);
    try {
      vi.stubGlobal(
        "fetch",
        vi.fn(
          async () =>
            new Response(JSON.stringify({ code: 400, msg: "账户余额不足，请先充值", data: { reason: "balanceInsufficient" } }), {
              status: 400,
            }),
        ),
      );
      const refused = streamChat({ query: "你好", schema_id: "a1", release: true } as never, {
        signal: new AbortController().signal,
        onEvent: () => {},
      });
      await expect(refused).rejects.toMatchObject({ message: "账户余额不足，请先充值", status: 400, reason: "balanceInsufficient" });
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", note);
    }
  });
});
