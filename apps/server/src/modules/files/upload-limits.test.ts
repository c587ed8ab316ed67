import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";

/**
 * Oversized and unauthenticated uploads, on a real socket: the server must answer without
 * reading the body to its end (inject cannot show that: it hands over the whole body at once).
 */
let t: TestApp;
let user: TestUser;
let port: number;
const BOUNDARY = "----upload-limit";
const HUGE = 200 * 1024 * 1024;

beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
}, 120_000);
afterAll(async () => {
  await t.close();
});

interface Outcome {
  status: number;
  body: string;
  /** Body bytes the client got onto the wire before the server answered and closed. */
  sent: number;
}

/**
 * Streams a multipart upload of `HUGE` bytes (declared, or chunked when `declare` is false) and
 * keeps writing until the server answers and closes the connection.
 */
function upload(path: string, opts: { token?: string; declare: boolean }): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let response = "";
    let sent = 0;
    let answered = false;
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    const head = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
    );
    const headers = [
      `POST ${path} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
      opts.declare ? `Content-Length: ${HUGE}` : "Transfer-Encoding: chunked",
      ...(opts.token ? [`Authorization: Bearer ${opts.token}`] : []),
      "",
      "",
    ].join("\r\n");
    const frame = (b: Buffer) => (opts.declare ? b : Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from("\r\n")]));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer after ${sent} bytes`));
    }, 60_000);
    const pump = () => {
      while (!answered && !socket.destroyed && sent < HUGE) {
        sent += chunk.length;
        if (!socket.write(frame(chunk))) return void socket.once("drain", pump);
      }
    };
    socket.on("data", (d) => {
      response += d.toString("latin1");
      answered = true;
    });
    const finish = () => {
      clearTimeout(timer);
      const status = Number(response.match(/^HTTP\/1\.1 (\d+)/)?.[1] ?? 0);
      const body = Buffer.from(response.slice(response.indexOf("\r\n\r\n") + 4), "latin1").toString("utf8");
      resolve({ status, body, sent });
    };
    socket.on("close", finish);
    socket.on("error", () => undefined);
    socket.write(headers);
    socket.write(frame(head));
    sent += head.length;
    pump();
  });
}

describe("upload limits on a real socket", () => {
  it("attack: an anonymous 200 MB upload is refused before its body is read", async () => {
    const res = await upload("/agent_api/api/files", { declare: true });
    expect(res.status).toBe(403);
    expect(res.body).toContain("token失效");
    expect(res.sent).toBeLessThan(HUGE / 4);
  });

  it("attack: a declared 200 MB upload is refused by its Content-Length", async () => {
    const res = await upload("/agent_api/api/files", { token: user.token, declare: true });
    expect(res.status).toBe(413);
    expect(res.body).toContain("文件大小不能超过15MB");
    expect(res.sent).toBeLessThan(HUGE / 4);
  });

  it("attack: an undeclared (chunked) 200 MB upload stops being read at the limit", async () => {
    for (const path of ["/agent_api/api/files", "/agent_api/api/files/icon", "/agent/agent_runtime/speech_to_text"]) {
      const res = await upload(path, { token: user.token, declare: false });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.sent, path).toBeLessThan(HUGE / 4);
    }
  }, 180_000);

  it("an upload within the limit still works", async () => {
    const body = Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n`),
      Buffer.from("你好，世界"),
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
    const res = await t.app.inject({
      method: "POST",
      url: "/agent_api/api/files",
      headers: { ...user.headers, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
      payload: body,
    });
    expect(res.statusCode).toBe(200);
  });
});
