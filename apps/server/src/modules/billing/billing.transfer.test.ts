import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { caller } from "./billing.fixtures.ts";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

function multipart(fields: Record<string, string>, file?: { name: string; type: string; data: Buffer }) {
  const boundary = "----agentfair-test-boundary";
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="img"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
    );
    parts.push(file.data, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

describe("billing: offline bank transfer form (BANK_TRANSFER on)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ BANK_TRANSFER: "1" });
  });
  afterAll(async () => {
    await t.close();
  });

  it("requires company name, contact and a png/jpg receipt; administrators see the forms and receipts", async () => {
    const u = await createUser(t);
    const send = (body: ReturnType<typeof multipart>) =>
      t.app.inject({
        method: "POST",
        url: "/agent_api/api/order/transfer",
        headers: { ...u.headers, ...body.headers },
        payload: body.payload,
      });
    expect((await send(multipart({ companyName: "某某科技有限公司", contacts: "张三" }))).json().msg).toBe(
      "请填写公司全称、联系人并上传回单",
    );
    expect(
      (await send(multipart({ companyName: " ", contacts: "张三" }, { name: "a.png", type: "image/png", data: PNG }))).statusCode,
    ).toBe(400);
    const gif = await send(
      multipart({ companyName: "某某科技有限公司", contacts: "张三" }, { name: "a.gif", type: "image/gif", data: Buffer.from("GIF89a") }),
    );
    expect(gif.json().msg).toBe("回单图片只能是 png 或 jpg 格式");
    // A renamed non-image is caught by its bytes.
    const fake = await send(
      multipart(
        { companyName: "某某科技有限公司", contacts: "张三" },
        { name: "a.png", type: "image/png", data: Buffer.from("not an image") },
      ),
    );
    expect(fake.json().msg).toBe("回单图片只能是 png 或 jpg 格式");
    const ok = await send(
      multipart({ companyName: "某某科技有限公司", contacts: "张三" }, { name: "a.png", type: "image/png", data: PNG }),
    );
    expect(ok.statusCode).toBe(200);
    const admin = caller(t, (await createUser(t, { username: "admin" })).headers);
    const list = (await admin.get("/admin/billing/transfers")).json().data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ companyName: "某某科技有限公司", contacts: "张三", username: u.username });
    const img = await admin.get(`/admin/billing/transfers/${list[0].id}/img`);
    expect(img.headers["content-type"]).toBe("image/png");
    expect(img.rawPayload.equals(PNG)).toBe(true);
    expect((await caller(t, u.headers).get("/admin/billing/transfers")).statusCode).toBe(401);
    const anon = await t.app.inject({
      method: "POST",
      url: "/agent_api/api/order/transfer",
      ...multipart({ companyName: "x", contacts: "y" }),
    });
    expect(anon.statusCode).toBe(403);
  });
});
