import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import type { TestApp } from "../../test/harness.ts";
import { webhookSignature } from "./protocols.ts";

/**
 * A webhook robot's far side for tests: a local server that receives its replies, and `say`, a
 * signed callback from one sender that resolves to the reply the robot posted for that message.
 */
export async function webhookPeer(secret: string) {
  const replies: { messageId: string; text: string }[] = [];
  const receiver = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      replies.push(JSON.parse(raw));
      res.writeHead(200).end("{}");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));

  async function say(t: TestApp, robotId: string, messageId: string, userId: string, text: string) {
    const body = JSON.stringify({ messageId, userId, text });
    const ts = String(Date.now());
    const res = await t.app.inject({
      method: "POST",
      url: `/aiagent_api/robots/callback/${robotId}`,
      headers: {
        "content-type": "application/json",
        "x-agentfair-timestamp": ts,
        "x-agentfair-signature": webhookSignature(secret, ts, body),
      },
      payload: body,
    });
    expect(res.statusCode).toBe(200);
    await expect.poll(() => replies.find((r) => r.messageId === messageId), { timeout: 10_000 }).toBeTruthy();
    return replies.find((r) => r.messageId === messageId)!.text;
  }

  return {
    replyUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/reply`,
    replies,
    say,
    close: () =>
      new Promise<void>((r) => {
        receiver.close(() => r());
        // The platform's client keeps its connections alive: close waits for none of them.
        receiver.closeAllConnections();
      }),
  };
}
