import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import { models } from "../../db/schema/index.ts";
import type { TestUser } from "../../test/factories.ts";
import type { TestApp } from "../../test/harness.ts";
import { indexTerms } from "./keywords.ts";

/**
 * A local OpenAI-compatible embedding server for the knowledge tests: each text becomes a
 * normalised bag of its jieba words hashed into `dims` dimensions, so texts sharing words are
 * similar. Queued statuses answer the next requests with that HTTP error instead.
 */
export async function startEmbeddingServer(dims = 64) {
  const failures: { status: number; headers?: Record<string, string> }[] = [];
  let requests = 0;
  /** Request number (1-based, counted from the start) answered with an error, whatever the queue. */
  const failing = new Map<number, number>();
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      requests++;
      const fail = failing.has(requests) ? { status: failing.get(requests) as number } : failures.shift();
      if (fail) {
        res.writeHead(fail.status, { "content-type": "application/json", ...fail.headers });
        res.end(JSON.stringify({ error: { message: `scripted ${fail.status}` } }));
        return;
      }
      const body = JSON.parse(raw || "{}");
      const input: string[] = Array.isArray(body.input) ? body.input : [body.input];
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          object: "list",
          data: input.map((text, index) => ({ object: "embedding", index, embedding: embed(text, dims) })),
          usage: { prompt_tokens: input.length, total_tokens: input.length },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return requests;
    },
    /** The request `okCount + 1` from now fails with `status`. */
    failAfter: (okCount: number, status: number) => failing.set(requests + okCount + 1, status),
    failNext: (...statuses: { status: number; headers?: Record<string, string> }[]) => failures.push(...statuses),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function embed(text: string, dims: number): number[] {
  const v = new Array(dims).fill(0);
  for (const word of indexTerms(text).split(" ").filter(Boolean)) {
    const h = createHash("md5").update(word).digest();
    v[h[0] % dims] += 1;
    v[h[1] % dims] += 0.5;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / norm);
}

/** An EMBEDDING model in Model management, the platform's default. */
export async function addEmbeddingModel(t: TestApp, baseUrl: string, modelId = "test-embedding") {
  const [row] = await t.platform.db
    .insert(models)
    .values({ tenantId: null, name: modelId, type: "EMBEDDING", baseUrl, modelId, allowPrivate: true, isDefault: true, enabled: true })
    .returning();
  await t.platform.invalidate("models", "");
  return row.id;
}

/** The knowledge calls through the real routes. */
export function knowledgeSteps(t: TestApp) {
  const K = "/wendao_api/wendao/knowledge";
  const call = (user: TestUser | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown, lang = "zh") =>
    t.app.inject({ method, url: `${K}${url}`, payload: payload as object, headers: { ...(user ? user.headers : {}), lang } });

  const createBase = async (user: TestUser, name = "测试知识库", extra: object = {}) => {
    const res = await call(user, "POST", "", { name, visibility: "private", uri: "", ...extra });
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    return res.json().data.id as string;
  };

  const multipart = (name: string, data: Buffer, type = "application/octet-stream") => {
    const boundary = `----kb${Math.random().toString(16).slice(2)}`;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { payload, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
  };

  const upload = (user: TestUser, baseId: string, name: string, data: Buffer | string, path = "files", lang = "zh") => {
    const body = multipart(name, Buffer.isBuffer(data) ? data : Buffer.from(data));
    return t.app.inject({
      method: "POST",
      url: `${K}/${baseId}/${path}`,
      payload: body.payload,
      headers: { ...user.headers, ...body.headers, lang },
    });
  };

  const uploaded = async (user: TestUser, baseId: string, name: string, data: Buffer | string) => {
    const res = await upload(user, baseId, name, data);
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    return res.json().data.fileId as string;
  };

  const state = async (user: TestUser, baseId: string, fileId: string) =>
    (await call(user, "GET", `/${baseId}/files/${fileId}`)).json().data;

  /** Waits until the file's job has finished (DONE or FAILED). */
  const settled = async (user: TestUser, baseId: string, fileId: string, timeoutMs = 20_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const s = await state(user, baseId, fileId);
      if (s.state === "DONE" || s.state === "FAILED") return s;
      if (Date.now() > until) throw new Error(`file still ${s.state} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  const segments = async (user: TestUser, baseId: string, query = "") =>
    (await call(user, "GET", `/${baseId}/segments?limit=100${query}`)).json().data;

  return { call, createBase, upload, uploaded, state, settled, segments };
}
