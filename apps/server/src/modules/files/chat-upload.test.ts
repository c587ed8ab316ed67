import { parseChatEvents } from "@agentfair/contracts";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { models } from "../../db/schema/index.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { startLlmServer, type LlmServer } from "../../test/llm-server.ts";
import { CHAT_UPLOADS_PER_HOUR } from "./files.service.ts";

let t: TestApp;
let llm: LlmServer;
let alice: TestUser;
let bob: TestUser;

function multipart(name: string, data: Buffer, type = "application/octet-stream") {
  const boundary = `----b${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

async function upload(user: TestUser, name: string, data: Buffer) {
  const { payload, contentType } = multipart(name, data);
  return t.app.inject({
    method: "POST",
    url: "/agent_api/api/files?presignedUrl=true",
    headers: { ...user.headers, "content-type": contentType },
    payload,
  });
}

const newAgent = async (user: TestUser) =>
  (await t.app.inject({ method: "POST", url: "/aiagent_api/agent/quick/add", headers: user.headers, payload: {} })).json().data
    .agentId as string;

/** Asks alice's draft agent a question with uploaded files attached. */
function askWithFiles(agentId: string, query: string, files: { id: string; name: string; type: string }[]) {
  return t.app.inject({
    method: "POST",
    url: "/agent/agent_runtime/chat",
    payload: {
      token: alice.token,
      schema_id: agentId,
      release: false,
      query,
      files: files.map(({ id, name, type }) => ({ id, name, type })),
    },
  });
}

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model" });
  alice = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  bob = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

describe("chat upload", () => {
  it("accepts the listed types by name and content", async () => {
    const res = await upload(alice, "说明.txt", Buffer.from("合同编号 A-42，金额 100 元"));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ name: "说明.txt", type: "text/plain" });
    expect(res.json().data.presignedUrl).toContain(res.json().data.id);
    const png = await upload(alice, "a.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]));
    expect(png.statusCode).toBe(200);
  });

  it("attack: accepted uploads are limited per user and hour (the disk is not filled)", async () => {
    const u = await createUser(t);
    const txt = Buffer.from("hello");
    for (let i = 0; i < CHAT_UPLOADS_PER_HOUR; i++) expect((await upload(u, `n${i}.txt`, txt)).statusCode).toBe(200);
    expect((await upload(u, "over.txt", txt)).statusCode).toBe(429);
    expect((await upload(bob, "fine.txt", txt)).statusCode).toBe(200);
  });

  it("refuses other types, renamed files and files over 15 MB", async () => {
    const msg = "请上传 image、word、excel、pdf、audio、zip 等类型文件";
    expect((await upload(alice, "run.exe", Buffer.from("MZ"))).json().msg).toBe(msg);
    expect((await upload(alice, "fake.png", Buffer.from("<script>alert(1)</script>"))).json().msg).toBe(msg);
    expect((await upload(alice, "fake.pdf", Buffer.from("not a pdf"))).json().msg).toBe(msg);
    const big = await upload(alice, "big.txt", Buffer.alloc(15 * 1024 * 1024 + 10, 0x61));
    expect(big.statusCode).toBe(400);
    expect(big.json().msg).toBe("文件大小不能超过15MB");
    const anon = multipart("a.txt", Buffer.from("x"));
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/agent_api/api/files",
          headers: { "content-type": anon.contentType },
          payload: anon.payload,
        })
      ).statusCode,
    ).toBe(403);
  });

  it("attachments reach the model as extracted text (txt, pptx); another user's file id is not found", async () => {
    const agentId = await newAgent(alice);
    const txt = (await upload(alice, "合同.txt", Buffer.from("合同编号 A-42，金额 100 元"))).json().data;
    const zip = new JSZip();
    zip.file("ppt/slides/slide1.xml", "<p:sld><a:t>季度目标：增长 30%</a:t></p:sld>");
    zip.file("[Content_Types].xml", "<Types/>");
    const pptx = (await upload(alice, "汇报.pptx", await zip.generateAsync({ type: "nodebuffer" }))).json().data;
    const res = await askWithFiles(agentId, "总结附件", [txt, pptx]);
    const evs = parseChatEvents(res.payload);
    expect(evs.at(-1)).toMatchObject({ type: "stop", status: "done" });
    const sent = JSON.stringify(llm.requests.find((r) => JSON.stringify(r.body).includes("总结附件"))?.body);
    expect(sent).toContain("合同编号 A-42");
    expect(sent).toContain("季度目标：增长 30%");
    const bobAgent = await newAgent(bob);
    const steal = await t.app.inject({
      method: "POST",
      url: "/agent/agent_runtime/chat",
      payload: { token: bob.token, schema_id: bobAgent, release: false, query: "看看", files: [{ id: txt.id, name: "x.txt" }] },
    });
    expect(steal.statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: `/agent_api/api/files/data/${txt.id}`, headers: bob.headers })).statusCode).toBe(404);
  });

  it("images reach a vision model as image parts", async () => {
    await t.platform.db.update(models).set({ type: "VISION" });
    await t.platform.invalidate("models", "");
    try {
      const agentId = await newAgent(alice);
      const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from("fake-png-body")]);
      const image = (await upload(alice, "截图.png", png)).json().data;
      const res = await askWithFiles(agentId, "图里是什么", [image]);
      expect(res.payload).toContain('"type":"stop","status":"done"');
      const sent = JSON.stringify(llm.requests.find((r) => JSON.stringify(r.body).includes("图里是什么"))?.body);
      expect(sent).toContain(`data:image/png;base64,${png.toString("base64")}`);
    } finally {
      await t.platform.db.update(models).set({ type: "LLM" });
      await t.platform.invalidate("models", "");
    }
  });
});
