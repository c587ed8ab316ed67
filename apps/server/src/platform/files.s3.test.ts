import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../test/factories.ts";
import { createTestApp, type TestApp } from "../test/harness.ts";
import { S3FileStore } from "./files.ts";

/** Against a real S3-compatible server (s3rver: the S3 REST API with signature checks, on disk). */
let s3: S3rver;
let endpoint: string;
let dir: string;
const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "agentfair-s3-"));
  s3 = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: dir, configureBuckets: [{ name: "agentfair", configs: [] }] });
  const address = await s3.run();
  endpoint = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await s3.close();
  await fs.rm(dir, { recursive: true, force: true });
});

const text = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks).toString("utf8");
};

describe("the S3 file store", () => {
  it("puts buffers and streams, reads them back, deletes them; a missing key is not found", async () => {
    const store = new S3FileStore("agentfair", { endpoint, region: "us-east-1", forcePathStyle: true, ...credentials });
    await store.put("chat/a1", Buffer.from("你好 S3"), { contentType: "text/plain" });
    await store.put("chat/a2", Readable.from([Buffer.from("流式"), Buffer.from("上传")]), { contentType: "text/plain" });
    expect(await text(await store.get("chat/a1"))).toBe("你好 S3");
    expect(await text(await store.get("chat/a2"))).toBe("流式上传");
    await store.delete("chat/a1");
    await expect(store.get("chat/a1")).rejects.toMatchObject({ status: 404 });
    await expect(store.put("../escape", Buffer.from("x"), { contentType: "text/plain" })).rejects.toThrow(/unsafe/);
    // Without a public endpoint there are no direct URLs: files go through the app.
    expect(await store.presignedUrl("chat/a2", { method: "GET", expiresInSeconds: 60 })).toBeNull();
  });

  it("presigned URLs on the public endpoint: GET reads, PUT writes, both expire", async () => {
    const store = new S3FileStore("agentfair", {
      endpoint,
      publicEndpoint: endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      ...credentials,
    });
    const put = await store.presignedUrl("chat/b1", { method: "PUT", expiresInSeconds: 60, contentType: "text/plain" });
    expect((await fetch(put!, { method: "PUT", body: "直传", headers: { "content-type": "text/plain" } })).status).toBe(200);
    const get = await store.presignedUrl("chat/b1", { method: "GET", expiresInSeconds: 60 });
    expect(await (await fetch(get!)).text()).toBe("直传");
    // Signed, and only for the given time (s3rver does not check query signatures itself).
    const signed = new URL(get!).searchParams;
    expect(signed.get("X-Amz-Expires")).toBe("60");
    expect(signed.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("the platform stores uploads there and serves them back", async () => {
    const t: TestApp = await createTestApp({
      S3_BUCKET: "agentfair",
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    });
    try {
      const user = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
      const boundary = "----agentfair";
      const payload = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="note.txt"\r\nContent-Type: text/plain\r\n\r\n存到 S3\r\n--${boundary}--\r\n`,
      );
      const res = await t.app.inject({
        method: "POST",
        url: "/agent_api/api/files",
        headers: { ...user.headers, "content-type": `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(res.statusCode).toBe(200);
      const { presignedUrl } = res.json().data;
      expect(t.services.files.store.kind).toBe("s3");
      const back = await t.app.inject({ url: presignedUrl, headers: user.headers });
      expect(back.body).toBe("存到 S3");
    } finally {
      await t.close();
    }
  });
});
