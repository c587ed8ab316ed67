import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness.ts";

/** A built web app as `vite build` leaves it: hashed assets with their .br and .gz beside them. */
const dist = fs.mkdtempSync(path.join(os.tmpdir(), "agentfair-web-"));
const script = `console.log(${JSON.stringify("智能体".repeat(400))});`;
const html = '<!doctype html><html><head><script type="module" src="/assets/index-AbC123.js"></script></head></html>';
let t: TestApp;
beforeAll(async () => {
  fs.mkdirSync(path.join(dist, "assets"));
  fs.writeFileSync(path.join(dist, "index.html"), html);
  fs.writeFileSync(path.join(dist, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  const asset = path.join(dist, "assets", "index-AbC123.js");
  fs.writeFileSync(asset, script);
  fs.writeFileSync(`${asset}.br`, zlib.brotliCompressSync(script));
  fs.writeFileSync(`${asset}.gz`, zlib.gzipSync(script));
  t = await createTestApp({ WEB_DIST: dist });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) =>
  t.app.inject({ url, headers: encoding === undefined ? {} : { "accept-encoding": encoding } });

describe("serving the web app", () => {
  it("sends hashed assets pre-compressed (brotli first, then gzip) and cached for a year, immutable", async () => {
    const br = await get("/assets/index-AbC123.js", "gzip, deflate, br");
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toMatch(/javascript/);
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gz = await get("/assets/index-AbC123.js", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);
    expect(gz.rawPayload.length).toBeLessThan(Buffer.byteLength(script) / 4);

    const plain = await get("/assets/index-AbC123.js", "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.payload).toBe(script);
    expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("makes the browser ask again for index.html and other unhashed files", async () => {
    // A tenant whose domain starts like a server path (docs, api, healthz, prod-api) gets its pages too.
    for (const url of [
      "/",
      "/index.html",
      "/login",
      "/acme/agent-execute?id=1",
      "/docs-team/login",
      "/apiary/login",
      "/prod-api-cn/index",
    ]) {
      const res = await get(url, "gzip, br");
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["cache-control"], url).toBe("no-cache");
      expect(res.payload, url).toContain("/assets/index-AbC123.js");
    }
    expect((await get("/favicon.svg")).headers["cache-control"]).toBe("no-cache");
  });

  it("answers 404 for a missing asset or server path, never the app page", async () => {
    for (const url of ["/assets/gone-000.js", "/agent_api/nothing", "/api/nothing", "/mcp", "/prod-api/none"]) {
      const res = await get(url, "gzip, br");
      expect(res.statusCode, url).toBe(404);
      expect(res.payload, url).not.toContain("<html");
    }
  });
});
