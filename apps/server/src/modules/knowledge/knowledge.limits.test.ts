import { eq } from "drizzle-orm";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { files, planTemplates, users } from "../../db/schema/index.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { seedCatalog } from "../billing/billing.fixtures.ts";
import { knowledgeSteps } from "./knowledge.fixtures.ts";

// The plan's knowledgeSpace (知识库空间 N MB): the bytes a user keeps in all their bases (files as
// uploaded, Q&A text) stay within it on every upload and import. FREE is set to 1 MB here.

const MB = 1024 * 1024;
let t: TestApp;
let k: ReturnType<typeof knowledgeSteps>;

beforeAll(async () => {
  t = await createTestApp({ EXEMPT_USERNAME: "vip" });
  await seedCatalog(t);
  await t.platform.db.update(planTemplates).set({ knowledgeSpace: 1 }).where(eq(planTemplates.memberLevel, "FREE"));
  k = knowledgeSteps(t);
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const text = (bytes: number) => Buffer.alloc(bytes, 0x61);
const storedFiles = async (user: TestUser) =>
  (await t.platform.db.select().from(files).where(eq(files.ownerId, user.id))).filter((f) => f.kind === "knowledge").length;
const space = async (user: TestUser) =>
  (await k.call(user, "GET", "/space")).json().data as { usedBytes: number; limitBytes: number | null };

describe("plan limit: knowledge space (knowledgeSpace)", () => {
  it("refuses an upload past the space with the limit and the use, and keeps nothing of it", async () => {
    const free = await createUser(t);
    const a = await k.createBase(free, "甲库");
    const b = await k.createBase(free, "乙库");
    expect((await k.upload(free, a, "a.txt", text(600 * 1024))).json().code).toBe(0);
    // Every base of the owner counts.
    const over = await k.upload(free, b, "b.txt", text(500 * 1024));
    expect(over.statusCode).toBe(400);
    expect(over.json().msg).toBe("知识库空间不足：会员上限1 MB，已使用0.59 MB，本次需要0.49 MB，请删除文件或升级会员");
    const en = await k.upload(free, b, "b.txt", text(500 * 1024), "files", "en");
    expect(en.json().msg).toBe(
      "not enough knowledge space: your plan allows 1 MB, 0.59 MB is used and this needs 0.49 MB; delete files or upgrade",
    );
    expect(await storedFiles(free)).toBe(1);
    expect(await space(free)).toEqual({ usedBytes: 600 * 1024, limitBytes: MB });
    // Exactly the limit fits; a deleted file frees its bytes.
    const fits = await k.upload(free, b, "b.txt", text(MB - 600 * 1024));
    expect(fits.json().code).toBe(0);
    expect((await k.upload(free, b, "c.txt", "一")).statusCode).toBe(400);
    await k.call(free, "DELETE", `/${b}/files/${fits.json().data.fileId}`);
    expect((await k.upload(free, b, "c.txt", "一")).json().code).toBe(0);
  });

  it("a zip is counted by the documents it keeps; one that does not fit keeps none of them", async () => {
    const free = await createUser(t);
    const id = await k.createBase(free, "压缩包");
    const zip = new JSZip();
    zip.file("a.txt", text(400 * 1024));
    zip.file("b.txt", text(400 * 1024));
    zip.file("c.txt", text(400 * 1024));
    const res = await k.upload(free, id, "docs.zip", await zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" }));
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toMatch(/^知识库空间不足：会员上限1 MB，已使用0 MB，本次需要1\.2 MB/);
    expect(await storedFiles(free)).toBe(0);
    zip.remove("c.txt");
    expect((await k.upload(free, id, "docs.zip", await zip.generateAsync({ type: "nodebuffer" }))).json().data.files).toHaveLength(2);
    expect((await space(free)).usedBytes).toBe(800 * 1024);
  });

  it("Q&A pairs, CSV imports and segments of no file count too", async () => {
    const free = await createUser(t);
    const id = await k.createBase(free, "问答");
    const big = `${"问".repeat(100_000)},${"答".repeat(100_000)}\n`; // 600,000 bytes of UTF-8 text
    const csv = (n: number) => ({ name: "qa.csv", data: Buffer.from(big.repeat(n)) });
    const importCsv = (file: { name: string; data: Buffer }) => k.upload(free, id, file.name, file.data, "qa/import");
    expect((await importCsv(csv(1))).json().code).toBe(0);
    expect((await space(free)).usedBytes).toBe(600_000);
    const over = await importCsv(csv(1));
    expect(over.statusCode).toBe(400);
    expect(over.json().msg).toMatch(/^知识库空间不足/);
    expect((await k.upload(free, id, "a.txt", text(500 * 1024))).statusCode).toBe(400);
    expect((await k.call(free, "POST", `/${id}/qa`, { question: "问", answer: "答".repeat(150_000) })).statusCode).toBe(400);
    expect((await k.call(free, "POST", `/${id}/segments`, { content: "段".repeat(150_000) })).statusCode).toBe(400);
    expect((await k.call(free, "POST", `/${id}/qa`, { question: "问", answer: "答" })).json().code).toBe(0);
    expect((await space(free)).usedBytes).toBe(600_006);
  });

  it("an edit that makes a Q&A pair or a segment of no file longer must fit; a shorter one always saves", async () => {
    const free = await createUser(t);
    const id = await k.createBase(free, "编辑");
    expect((await k.upload(free, id, "a.txt", text(MB - 1000))).json().code).toBe(0);
    const qa = (await k.call(free, "POST", `/${id}/qa`, { question: "问", answer: "答" })).json().data.id as string;
    const segment = (await k.call(free, "POST", `/${id}/segments`, { content: "段" })).json().data.id as string;
    const used = (await space(free)).usedBytes;
    expect(used).toBe(MB - 1000 + 9);

    const longer = await k.call(free, "PUT", `/${id}/qa/${qa}`, { question: "问", answer: "答".repeat(400) });
    expect(longer.statusCode).toBe(400);
    expect(longer.json().msg).toMatch(/^知识库空间不足：会员上限1 MB/);
    expect((await k.call(free, "PUT", `/${id}/segments/${segment}`, { content: "段".repeat(400) })).statusCode).toBe(400);
    expect((await space(free)).usedBytes).toBe(used);

    // Within the room left (991 bytes), and shorter again.
    expect((await k.call(free, "PUT", `/${id}/qa/${qa}`, { question: "问", answer: "答".repeat(300) })).json().code).toBe(0);
    expect((await space(free)).usedBytes).toBe(used + 897);
    expect((await k.call(free, "PUT", `/${id}/segments/${segment}`, { content: "段".repeat(40) })).statusCode).toBe(400);
    expect((await k.call(free, "PUT", `/${id}/qa/${qa}`, { question: "问", answer: "好" })).json().code).toBe(0);
    expect((await k.call(free, "PUT", `/${id}/segments/${segment}`, { content: "段".repeat(40) })).json().code).toBe(0);
    expect((await space(free)).usedBytes).toBe(used + 117);
  });

  it("parallel uploads at one below the limit end at exactly the limit, and the refused ones keep nothing", async () => {
    const free = await createUser(t);
    const id = await k.createBase(free, "并发");
    const piece = 100 * 1024;
    expect((await k.upload(free, id, "first.txt", text(MB - piece))).json().code).toBe(0);
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => k.upload(free, id, `p${i}.txt`, text(piece))));
    expect(outcomes.filter((r) => r.json().code === 0)).toHaveLength(1);
    for (const r of outcomes.filter((o) => o.json().code !== 0)) expect(r.json().msg).toMatch(/^知识库空间不足：会员上限1 MB/);
    expect((await space(free)).usedBytes).toBe(MB);
    expect(await storedFiles(free)).toBe(2);
  });

  it("does not limit white-listed users, the exempt user and administrators", async () => {
    for (const user of [
      await createUser(t, { isWhite: true }),
      await createUser(t, { username: "vip" }),
      await createUser(t, { username: "admin" }),
    ]) {
      const id = await k.createBase(user, "不限");
      expect((await k.upload(user, id, "a.txt", text(800 * 1024))).json().code).toBe(0);
      expect((await k.upload(user, id, "b.txt", text(800 * 1024))).json().code).toBe(0);
      expect((await space(user)).limitBytes).toBeNull();
    }
  });

  it("an upgrade raises the space to the new level's", async () => {
    const user = await createUser(t);
    const id = await k.createBase(user, "升级");
    expect((await k.upload(user, id, "a.txt", text(800 * 1024))).json().code).toBe(0);
    expect((await k.upload(user, id, "b.txt", text(800 * 1024))).statusCode).toBe(400);
    await t.platform.db
      .update(users)
      .set({ memberLevel: "MONTHLY", memberEndAt: new Date(Date.now() + 30 * 86400_000) })
      .where(eq(users.id, user.id));
    await t.platform.invalidate("user", user.id);
    expect((await k.upload(user, id, "b.txt", text(800 * 1024))).json().code).toBe(0);
    expect(await space(user)).toEqual({ usedBytes: 1600 * 1024, limitBytes: 1024 * MB });
  });
});
