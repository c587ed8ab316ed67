import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { ICON_UPLOADS_PER_HOUR } from "./files.service.ts";

let t: TestApp;
let owner: TestUser;
let other: TestUser;
let foreign: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: `/tmp/agentfair-files-test-${process.pid}` });
  owner = await createUser(t);
  other = await createUser(t);
  foreign = await createUser(t, { domain: "acme" });
  admin = await createUser(t, { username: "admin" });
});
afterAll(async () => {
  await t.close();
});

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 2)]);
const GIF = Buffer.concat([Buffer.from("GIF89a", "latin1"), Buffer.alloc(64, 3)]);

function multipart(filename: string, data: Buffer, contentType = "image/png") {
  const boundary = `----agentfair${Math.random().toString(16).slice(2)}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload: body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

const upload = (user: TestUser | null, filename: string, data: Buffer, contentType?: string) => {
  const mp = multipart(filename, data, contentType);
  return t.app.inject({
    method: "POST",
    url: "/agent_api/api/files/icon",
    payload: mp.payload,
    headers: { ...mp.headers, ...(user?.headers ?? {}) },
  });
};
const get = (user: TestUser | null, id: string) => t.app.inject({ url: `/agent_api/api/files/data/${id}`, headers: user?.headers ?? {} });

describe("icon upload", () => {
  it("accepts png, jpeg, jpg and gif by name and content and serves them safely", async () => {
    for (const [name, data, type] of [
      ["a.png", PNG, "image/png"],
      ["b.jpeg", JPEG, "image/jpeg"],
      ["c.JPG", JPEG, "image/jpeg"],
      ["d.gif", GIF, "image/gif"],
    ] as const) {
      const res = await upload(owner, name, data);
      expect(res.statusCode, res.body).toBe(200);
      const { id } = res.json().data;
      const file = await get(owner, id);
      expect(file.statusCode).toBe(200);
      expect(file.headers["content-type"]).toBe(type);
      expect(file.headers["x-content-type-options"]).toBe("nosniff");
      expect(file.rawPayload.equals(data)).toBe(true);
    }
  });

  it("refuses other formats, disguised files, oversized files and anonymous uploads", async () => {
    const svg = await upload(owner, "x.svg", Buffer.from("<svg onload=alert(1)></svg>"), "image/svg+xml");
    expect(svg.json()).toMatchObject({ code: 400, msg: "文件格式不支持" });
    const disguised = await upload(owner, "evil.png", Buffer.from("<html><script>alert(1)</script></html>"));
    expect(disguised.json()).toMatchObject({ code: 400, msg: "文件格式不支持" });
    const noExt = await upload(owner, "png", PNG);
    expect(noExt.statusCode).toBe(400);
    const big = await upload(owner, "big.png", Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]));
    expect(big.json()).toMatchObject({ code: 400, msg: "文件大小不能超过2MB" });
    const en = await t.app.inject({
      method: "POST",
      url: "/agent_api/api/files/icon",
      ...(() => {
        const mp = multipart("x.bmp", Buffer.from("BM"));
        return { payload: mp.payload, headers: { ...mp.headers, ...owner.headers, lang: "en" } };
      })(),
    });
    expect(en.json().msg).toBe("file format not supported");
    expect((await upload(null, "a.png", PNG)).statusCode).toBe(403);
    const notMultipart = await t.app.inject({
      method: "POST",
      url: "/agent_api/api/files/icon",
      headers: owner.headers,
      payload: { a: 1 },
    });
    expect(notMultipart.statusCode).toBe(400);
  });

  it("lists the caller's own uploads, newest first, paged from 0", async () => {
    const u = await createUser(t);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await upload(u, `i${i}.png`, PNG)).json().data.id);
    const page0 = (await t.app.inject({ url: "/agent_api/api/files/icon/list?pageNumber=0&pageSize=2", headers: u.headers })).json().data;
    expect(page0).toMatchObject({ totalElements: 3, totalPages: 2 });
    expect(page0.content).toHaveLength(2);
    expect(page0.content[0].url).toBe(`/agent_api/api/files/data/${page0.content[0].id}`);
    const page1 = (await t.app.inject({ url: "/agent_api/api/files/icon/list?pageNumber=1&pageSize=2", headers: u.headers })).json().data;
    expect(page1.content).toHaveLength(1);
    expect([...page0.content, ...page1.content].map((c: { id: string }) => c.id).sort()).toEqual([...ids].sort());
    expect(
      (await t.app.inject({ url: "/agent_api/api/files/icon/list", headers: other.headers }))
        .json()
        .data.content.map((c: { id: string }) => c.id),
    ).not.toContain(ids[0]);
    expect((await t.app.inject({ url: "/agent_api/api/files/icon/list" })).statusCode).toBe(403);
    expect((await t.app.inject({ url: "/agent_api/api/files/icon/list?pageSize=1000", headers: u.headers })).statusCode).toBe(400);
  });

  it("shows the public platform's icons to everyone and a tenant's icons only inside that tenant", async () => {
    const pub = (await upload(owner, "p.png", PNG)).json().data.id;
    const acmeIcon = (await upload(foreign, "q.png", PNG)).json().data.id;
    expect((await get(other, pub)).statusCode).toBe(200);
    expect((await get(foreign, pub)).statusCode).toBe(200);
    expect((await get(null, pub)).statusCode).toBe(200);
    expect((await get(foreign, acmeIcon)).statusCode).toBe(200);
    expect((await get(other, acmeIcon)).statusCode).toBe(404);
    expect((await get(null, acmeIcon)).statusCode).toBe(404);
    expect((await get(admin, acmeIcon)).statusCode).toBe(200);
    expect((await get(owner, "no-such-file")).statusCode).toBe(404);
  });

  it("keeps other files (chat uploads) to their owner and serves non-images as downloads", async () => {
    const c = (await t.platform.callers.resolve(owner.token))!;
    const file = await t.services.files.saveFile(c, {
      kind: "chat",
      name: "report.html",
      contentType: "text/html",
      data: Buffer.from("<script>1</script>"),
    });
    const res = await get(owner, file.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/octet-stream");
    expect(res.headers["content-disposition"]).toMatch(/^attachment/);
    expect((await get(other, file.id)).statusCode).toBe(404);
    expect((await get(null, file.id)).statusCode).toBe(404);
  });

  it("limits accepted uploads per user and hour", async () => {
    const u = await createUser(t);
    for (let i = 0; i < ICON_UPLOADS_PER_HOUR; i++) expect((await upload(u, `n${i}.png`, PNG)).statusCode).toBe(200);
    const over = await upload(u, "over.png", PNG);
    expect(over.statusCode).toBe(429);
    expect((await upload(other, "fine.png", PNG)).statusCode).toBe(200);
  });
});
