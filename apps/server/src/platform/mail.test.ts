import net from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outbox } from "../db/schema/index.ts";
import { randomIp } from "../test/factories.ts";
import { createTestApp, type TestApp } from "../test/harness.ts";

/** A minimal SMTP server that keeps what it receives: enough for nodemailer over plain SMTP. */
function fakeSmtp() {
  const mails: { to: string[]; data: string }[] = [];
  const server = net.createServer((socket) => {
    let to: string[] = [];
    let data: string | null = null;
    let buffer = "";
    socket.write("220 fake ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      let at = buffer.indexOf("\r\n");
      while (at >= 0) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        if (data !== null) {
          if (line === ".") {
            mails.push({ to, data });
            data = null;
            to = [];
            socket.write("250 queued\r\n");
          } else data += `${line}\n`;
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write("250 fake\r\n");
        else if (/^MAIL FROM/i.test(line)) socket.write("250 ok\r\n");
        else if (/^RCPT TO/i.test(line)) {
          to.push(line.replace(/^RCPT TO:\s*<?([^>]*)>?.*$/i, "$1"));
          socket.write("250 ok\r\n");
        } else if (/^DATA/i.test(line)) {
          data = "";
          socket.write("354 go on\r\n");
        } else if (/^QUIT/i.test(line)) {
          socket.write("221 bye\r\n");
          socket.end();
        } else socket.write("250 ok\r\n");
        at = buffer.indexOf("\r\n");
      }
    });
  });
  return { server, mails };
}

/** The text of a received mail, decoded from its transfer encoding (Chinese text is not 7-bit). */
function textOf(data: string) {
  const [head, ...rest] = data.split("\n\n");
  const body = rest.join("\n\n");
  if (/content-transfer-encoding:\s*base64/i.test(head)) return Buffer.from(body.replace(/\s/g, ""), "base64").toString("utf8");
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
    const bytes = body.replace(/=\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h: string) => `%${h}`);
    return decodeURIComponent(bytes);
  }
  return body;
}

describe("check codes with SMTP_URL set", () => {
  const smtp = fakeSmtp();
  let t: TestApp;
  beforeAll(async () => {
    await new Promise<void>((resolve) => smtp.server.listen(0, "127.0.0.1", resolve));
    const { port } = smtp.server.address() as net.AddressInfo;
    t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true`, SMTP_FROM: "Agentfair <codes@agentfair.test>" });
  });
  afterAll(async () => {
    await t.close();
    smtp.server.close();
  });

  it("mails the code to an email address, not to the outbox or the caller", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/agent_api/api/auth/reg/send-check-code",
      payload: { contact: "Someone@Example.com", purpose: "register" },
      remoteAddress: randomIp(),
    });
    expect(res.statusCode).toBe(200);
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0].to).toEqual(["someone@example.com"]);
    const text = textOf(smtp.mails[0].data);
    expect(text).toContain("分钟内有效");
    const code = text.match(/(\d{6})/)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(smtp.mails[0].data).toContain("codes@agentfair.test");
    expect(res.body).not.toContain(code as string);
    expect(await t.platform.db.select().from(outbox).where(eq(outbox.recipient, "someone@example.com"))).toEqual([]);
  });

  it("writes a phone number's code to the outbox (no SMS gateway)", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/agent_api/api/auth/reg/send-check-code",
      payload: { contact: "13912345678", purpose: "register" },
      remoteAddress: randomIp(),
    });
    expect(res.statusCode).toBe(200);
    const rows = await t.platform.db.select().from(outbox).where(eq(outbox.recipient, "13912345678"));
    expect(rows).toHaveLength(1);
    expect(smtp.mails.some((m) => m.to.includes("13912345678"))).toBe(false);
  });
});
