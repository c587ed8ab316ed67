import { renderHook } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { useChat } from "./use-chat";

const line = (e: object) => `${JSON.stringify(e)}\n`;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A reply streamed as a model does: the session, text pieces `every` ms apart (a tool call after the tenth), the stop. */
function streamed(pieces: string[], every: number) {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode(line({ type: "session", session_id: "s1", title: "t", question_uuid: "q1", uuid: "r1" })));
      for (const [i, piece] of pieces.entries()) {
        await pause(every);
        controller.enqueue(encoder.encode(line({ type: "content", delta: piece })));
        if (i === 9)
          controller.enqueue(
            encoder.encode(
              line({ type: "tool_call_start", toolCall: { id: "c1", function: { name: "f", arguments: "{}" }, metaInfo: { name: "F" } } }),
            ),
          );
      }
      controller.enqueue(encoder.encode(line({ type: "stop", status: "done", usage: { inputTokens: 1, outputTokens: 1 } })));
      controller.close();
    },
  });
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => new Response(body, { headers: { "content-type": "application/x-ndjson" } })),
  );
}

describe("a streaming reply's text", () => {
  it("shows the first piece at once and the rest a few times a second, in order, all of it by the end", async () => {
    const pieces = Array.from({ length: 40 }, (_, i) => `第${i}段 `);
    streamed(pieces, 4);
    const seen: string[] = [];
    const toolAt: string[] = [];
    const { result } = renderHook(() => {
      // The page follows the session the first send created.
      const [sessionId, setSessionId] = useState<string | null>(null);
      const chat = useChat({ agentId: "a1", release: true, sessionId, onSession: setSessionId, requestErrorText: "失败" });
      const reply = chat.messages.at(-1);
      if (reply?.role === 2 && reply.content !== seen.at(-1)) seen.push(reply.content);
      if (reply?.toolCalls.length && !toolAt.length) toolAt.push(reply.content);
      return chat;
    });
    // Rendered as the page does, piece by piece: act() would hold every render until the reply ended.
    const acting = (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT;
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
    try {
      await result.current.send("问题");
      await pause(20);
    } finally {
      (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = acting;
    }
    expect(result.current.messages.at(-1)?.writable).toBe(false);
    const reply = result.current.messages.at(-1);
    expect(reply?.content).toBe(pieces.join(""));
    expect(reply?.status).toBe("done");
    expect(seen[1]).toBe(pieces[0]);
    // 40 pieces over about 160 ms: a handful of renders of the text, not one per piece.
    expect(seen.length).toBeLessThan(15);
    // The text before the tool call shows with it, not after.
    expect(toolAt[0]).toBe(pieces.slice(0, 10).join(""));
  });
});
