import { deflateRawSync } from "node:zlib";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { knowledgeSteps } from "./knowledge.fixtures.ts";

/** A zip of one entry, a.txt, that inflates to `size` bytes while its headers say 100 (a bomb that lies). */
function lyingZip(size: number) {
  const data = deflateRawSync(Buffer.alloc(size, 0x61));
  const name = Buffer.from("a.txt");
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(100, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(100, 24);
  central.writeUInt16LE(name.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(local.length + name.length + data.length, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}
import { docsOf } from "./knowledge.runtime.ts";

let t: TestApp;
let k: ReturnType<typeof knowledgeSteps>;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;

const DOC = [
  "# 退货政策",
  "",
  "商品签收后七天内可以无理由退货，退货运费由买家承担。",
  "",
  "# 保修条款",
  "",
  "电子产品自购买之日起保修一年，人为损坏不在保修范围内。",
  "",
  "# 发票说明",
  "",
  "下单时可以选择开具电子发票，发票会在发货后发送到预留邮箱。",
].join("\n");

beforeAll(async () => {
  t = await createTestApp();
  await t.platform.jobs.start({ pollingIntervalSeconds: 0.5 });
  k = knowledgeSteps(t);
  alice = await createUser(t);
  bob = await createUser(t);
  admin = await createUser(t, { username: "admin" });
});
afterAll(async () => {
  await t.platform.jobs.stop();
  await t.close();
});

describe("knowledge bases: the spec's four calls", () => {
  it("creates with code 0 and the success message; a blank name is 'please enter a name'", async () => {
    const res = await k.call(alice, "POST", "", { name: "  产品手册  ", visibility: "private", uri: "" }, "en");
    expect(res.json()).toMatchObject({
      code: 0,
      msg: "created successfully!",
      data: { name: "产品手册", createdByMe: true, updatedTime: null },
    });
    const blank = await k.call(alice, "POST", "", { name: "   " }, "en");
    expect(blank.statusCode).toBe(400);
    expect(blank.json().msg).toBe("please enter a name");
    expect((await k.call(alice, "POST", "", {})).json().msg).toBe("请输入名称");
  });

  it("lists own bases by page and name; administrators see all, createdByMe narrows; signed out sees none", async () => {
    const a1 = await k.createBase(alice, "甲方案库");
    await k.createBase(alice, "乙方案库");
    const b1 = await k.createBase(bob, "鲍勃的库");
    const mine = (await k.call(alice, "GET", "/page?page=1&limit=10")).json();
    expect(mine.code).toBe(0);
    expect(mine.data.list.map((b: { id: string }) => b.id)).not.toContain(b1);
    expect(mine.data.total).toBe(mine.data.list.length);
    const named = (await k.call(alice, "GET", "/page?page=1&limit=10&name=甲")).json().data;
    expect(named.list.map((b: { id: string }) => b.id)).toEqual([a1]);
    const paged = (await k.call(alice, "GET", "/page?page=2&limit=1")).json().data;
    expect(paged.list).toHaveLength(1);
    expect(paged.total).toBe(mine.data.total);
    const all = (await k.call(admin, "GET", "/page?page=1&limit=50")).json().data;
    expect(all.list.map((b: { id: string }) => b.id)).toEqual(expect.arrayContaining([a1, b1]));
    expect((await k.call(admin, "GET", "/page?page=1&limit=50&createdByMe=true")).json().data.total).toBe(0);
    expect((await k.call(null, "GET", "/page?page=1&limit=10")).json()).toMatchObject({ code: 0, data: { list: [], total: 0 } });
  });

  it("edits (updated time set) and deletes by a list of ids; another user's id is not found", async () => {
    const id = await k.createBase(alice, "待改名");
    const put = await k.call(alice, "PUT", "", { id, name: "已改名", visibility: "private", uri: "" });
    expect(put.json()).toMatchObject({ code: 0, data: { name: "已改名" } });
    expect(put.json().data.updatedTime).not.toBeNull();
    expect((await k.call(bob, "PUT", "", { id, name: "抢走" })).statusCode).toBe(404);
    expect((await k.call(bob, "DELETE", "", [id])).statusCode).toBe(404);
    expect((await k.call(bob, "GET", `/${id}`)).statusCode).toBe(404);
    const del = await k.call(alice, "DELETE", "", [id], "en");
    expect(del.json()).toMatchObject({ code: 0, msg: "deleted successfully!" });
    expect((await k.call(alice, "GET", `/${id}`)).statusCode).toBe(404);
    // An administrator may edit anyone's base.
    const other = await k.createBase(bob, "管理员可改");
    expect((await k.call(admin, "PUT", "", { id: other, name: "管理员改过" })).json().code).toBe(0);
  });

  it("writes need a signed-in caller", async () => {
    expect((await k.call(null, "POST", "", { name: "x" })).statusCode).toBe(403);
  });
});

describe("folders", () => {
  it("need a name without a slash, unique in the base", async () => {
    const id = await k.createBase(alice, "带文件夹");
    const ok = await k.call(alice, "POST", `/${id}/folders`, { name: "合同" });
    expect(ok.json()).toMatchObject({ code: 0, data: { name: "合同" } });
    for (const name of ["", "  ", "a/b", "a\\b"]) {
      const res = await k.call(alice, "POST", `/${id}/folders`, { name }, "en");
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe("the folder name must not be empty or contain a slash");
    }
    expect((await k.call(alice, "POST", `/${id}/folders`, { name: "合同" })).statusCode).toBe(400);
    expect((await k.call(bob, "POST", `/${id}/folders`, { name: "别人的" })).statusCode).toBe(404);
    const folderId = ok.json().data.id;
    const fileId = (await k.upload(alice, id, "a.txt", "文件夹里的文件", `files?folderId=${folderId}`)).json().data.fileId;
    expect((await k.call(alice, "PUT", `/${id}/folders/${folderId}`, { name: "合同2" })).json().code).toBe(0);
    expect((await k.call(alice, "DELETE", `/${id}/folders/${folderId}`)).json().code).toBe(0);
    const contents = (await k.call(alice, "GET", `/${id}/contents`)).json().data;
    expect(contents.folders).toEqual([]);
    expect(contents.files.find((f: { id: string }) => f.id === fileId).folderId).toBeNull();
  });
});

describe("files: upload checks", () => {
  it("refuses unsupported formats, content that is not what the name says, and files over 15 MB", async () => {
    const id = await k.createBase(alice, "上传检查");
    const exe = await k.upload(alice, id, "virus.exe", "MZ...", "files", "en");
    expect(exe.statusCode).toBe(400);
    expect(exe.json().msg).toBe("file format not supported");
    expect((await k.upload(alice, id, "fake.pdf", "not a pdf")).json().msg).toBe("文件格式不支持");
    const big = await k.upload(alice, id, "big.txt", Buffer.alloc(15 * 1024 * 1024 + 1, 0x61), "files", "en");
    expect(big.statusCode).toBe(400);
    expect(big.json().msg).toBe("the file may be at most 15MB");
    const none = await t.app.inject({
      method: "POST",
      url: `/wendao_api/wendao/knowledge/${id}/files`,
      headers: alice.headers,
      payload: {},
    });
    expect(none.statusCode).toBe(400);
    expect((await k.upload(bob, id, "a.txt", "别人的库")).statusCode).toBe(404);
  });

  it("imports a zip of documents, after checking it for zip-slip, symlinks, nesting, entry count and formats", async () => {
    const id = await k.createBase(alice, "批量导入");
    const zipOf = async (entries: [string, string, object?][]) => {
      const zip = new JSZip();
      for (const [name, text, opts] of entries) zip.file(name, text, opts);
      return zip.generateAsync({ type: "nodebuffer", platform: "UNIX" });
    };
    const good = await k.upload(
      alice,
      id,
      "docs.zip",
      await zipOf([
        ["a.txt", "甲文件"],
        ["sub/b.md", "# 乙\n内容"],
      ]),
    );
    expect(good.json().code).toBe(0);
    expect(
      good
        .json()
        .data.files.map((f: { name: string }) => f.name)
        .sort(),
    ).toEqual(["a.txt", "b.md"]);
    const refused = async (entries: [string, string, object?][], msg: string) => {
      const res = await k.upload(alice, id, "bad.zip", await zipOf(entries), "files", "en");
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().msg).toBe(msg);
    };
    await refused([["../evil.txt", "x"]], "the zip contains an unsafe path or link: ../evil.txt");
    await refused([["link.txt", "/etc/passwd", { unixPermissions: 0o120777 }]], "the zip contains an unsafe path or link: link.txt");
    await refused([["inner.zip", "PK"]], "the zip may not contain another archive: inner.zip");
    await refused([["tool.exe", "MZ"]], "a file in the zip has an unsupported format: tool.exe");
    await refused(
      Array.from({ length: 201 }, (_, i) => [`f${i}.txt`, "x"] as [string, string]),
      "the zip may hold at most 200 files",
    );
    // Seven entries of 15 MB unpack to more than 100 MB, though the zip itself is tiny.
    const bomb = new JSZip();
    const zeros = Buffer.alloc(15 * 1024 * 1024, 0x20);
    for (let i = 0; i < 7; i++) bomb.file(`big${i}.txt`, zeros);
    const bombRes = await k.upload(
      alice,
      id,
      "bomb.zip",
      await bomb.generateAsync({ type: "nodebuffer", compression: "DEFLATE", compressionOptions: { level: 9 } }),
      "files",
      "en",
    );
    expect(bombRes.json().msg).toBe("the zip may unpack to at most 100MB");
    // An entry whose headers declare 100 bytes but which inflates to 40 MB: stopped while inflating, at 15 MB.
    const before = process.memoryUsage().rss;
    const liar = await k.upload(alice, id, "liar.zip", lyingZip(40 * 1024 * 1024), "files", "en");
    expect(liar.json().msg).toBe("the file may be at most 15MB");
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
    const broken = await k.upload(alice, id, "broken.zip", Buffer.from("PK\x03\x04garbage"), "files", "en");
    expect(broken.json().msg).toBe("the zip file is damaged or cannot be read");
    // Nothing of the refused zips was stored.
    expect((await k.call(alice, "GET", `/${id}/contents`)).json().data.files).toHaveLength(2);
  });
});

describe("preview, commit, states and segments", () => {
  it("commits exactly the previewed segments (same ids) and goes QUEUING → … → DONE with progress 100", async () => {
    const id = await k.createBase(alice, "流程");
    const fileId = await k.uploaded(alice, id, "policy.md", DOC);
    const before = await k.state(alice, id, fileId);
    expect(before).toMatchObject({ state: "QUEUING", progress: 0, committed: false, error: null });
    const body = { method: "auto", chunkSize: 64, overlap: 0 };
    const preview = await k.call(alice, "POST", `/${id}/files/${fileId}/preview`, body);
    expect(preview.json().code).toBe(0);
    const segs = preview.json().data.segments;
    expect(segs.length).toBeGreaterThan(1);
    // Preview stores nothing.
    expect((await k.segments(alice, id, `&fileId=${fileId}`)).total).toBe(0);
    const commit = await k.call(alice, "POST", `/${id}/files/${fileId}/commit`, body);
    expect(commit.json()).toMatchObject({ code: 0, data: { state: "QUEUING" } });
    const done = await k.settled(alice, id, fileId);
    expect(done).toMatchObject({ state: "DONE", progress: 100, error: null, committed: true, segmentCount: segs.length });
    const stored = await k.segments(alice, id, `&fileId=${fileId}`);
    expect(stored.total).toBe(segs.length);
    expect(stored.list.map((s: { id: string; content: string }) => [s.id, s.content])).toEqual(
      segs.map((s: { id: string; content: string }) => [s.id, s.content]),
    );
    expect(stored.list[0]).toMatchObject({ enabled: true, edited: false });
  });

  it("stores the segments as adjusted in the wizard: edits marked edited, deletions gone, ids kept", async () => {
    const id = await k.createBase(alice, "调整");
    const fileId = await k.uploaded(alice, id, "policy.md", DOC);
    const options = { method: "manual", chunkSize: 128 };
    const plain = (await k.call(alice, "POST", `/${id}/files/${fileId}/preview`, options)).json().data.segments;
    expect(plain).toHaveLength(3);
    // A merge of the first two: the first edited to both texts, the second deleted.
    const merged = `${plain[0].content}\n${plain[1].content}`;
    const body = { ...options, adjust: { edits: [{ position: 0, content: merged }], deletes: [1] } };
    const preview = (await k.call(alice, "POST", `/${id}/files/${fileId}/preview`, body)).json().data.segments;
    expect(preview.map((s: { id: string }) => s.id)).toEqual([plain[0].id, plain[2].id]);
    expect(preview[0]).toMatchObject({ content: merged, edited: true });
    expect(preview[1].edited).toBeUndefined();
    await k.call(alice, "POST", `/${id}/files/${fileId}/commit`, body);
    expect(await k.settled(alice, id, fileId)).toMatchObject({ state: "DONE", segmentCount: 2 });
    const stored = (await k.segments(alice, id, `&fileId=${fileId}`)).list;
    expect(stored.map((s: { id: string; content: string; edited: boolean }) => [s.id, s.content, s.edited])).toEqual(
      preview.map((s: { id: string; content: string }, i: number) => [s.id, s.content, i === 0]),
    );
    // An empty edit is refused at the boundary.
    const blank = await k.call(alice, "POST", `/${id}/files/${fileId}/preview`, {
      ...options,
      adjust: { edits: [{ position: 0, content: " " }] },
    });
    expect(blank.statusCode).toBe(400);
  });

  it("files move into a folder of the same base and back; another base's folder is not found", async () => {
    const id = await k.createBase(alice, "移动");
    const other = await k.createBase(alice, "别处");
    const folderId = (await k.call(alice, "POST", `/${id}/folders`, { name: "制度" })).json().data.id;
    const foreign = (await k.call(alice, "POST", `/${other}/folders`, { name: "制度" })).json().data.id;
    const fileId = await k.uploaded(alice, id, "a.txt", "正文");
    expect((await k.call(alice, "PUT", `/${id}/files/${fileId}`, { folderId })).json().code).toBe(0);
    expect((await k.state(alice, id, fileId)).folderId).toBe(folderId);
    expect((await k.call(alice, "PUT", `/${id}/files/${fileId}`, { folderId: foreign })).statusCode).toBe(404);
    expect((await k.call(bob, "PUT", `/${id}/files/${fileId}`, { folderId: null })).statusCode).toBe(404);
    expect((await k.call(alice, "PUT", `/${id}/files/${fileId}`, { folderId: null })).json().code).toBe(0);
    expect((await k.state(alice, id, fileId)).folderId).toBeNull();
  });

  it("a file that cannot be read ends FAILED with a readable reason", async () => {
    const id = await k.createBase(alice, "坏文件");
    const fileId = await k.uploaded(alice, id, "broken.pdf", "%PDF-1.4\nthis is not really a pdf");
    await k.call(alice, "POST", `/${id}/files/${fileId}/commit`, { method: "auto" });
    const failed = await k.settled(alice, id, fileId);
    expect(failed.state).toBe("FAILED");
    expect(failed.error).toBe("文件无法读取：文件已损坏、已加密或内容与扩展名不符");
    expect((await k.call(alice, "GET", `/${id}/files/${fileId}`, undefined, "en")).json().data.error).toBe(
      "the file cannot be read: it is damaged, encrypted or not what its extension says",
    );
    // A preview says why in the user's words too, as a 400 (never a 500): no table for the table method, no text at all.
    const text = await k.uploaded(alice, id, "notes.txt", "只有一段文字，没有表格。");
    const noTable = await k.call(alice, "POST", `/${id}/files/${text}/preview`, { method: "table" });
    expect(noTable.statusCode).toBe(400);
    expect(noTable.json().msg).toBe("文件中没有表格：表格分段需要 xlsx、csv 或含表格的文档");
    const blank = await k.uploaded(alice, id, "blank.md", "\n\n   \n");
    const noText = await k.call(alice, "POST", `/${id}/files/${blank}/preview`, { method: "auto" }, "en");
    expect(noText.json()).toMatchObject({ msg: "no text was found in the file" });
    expect(noText.statusCode).toBe(400);
  });

  it("refuses bad options (an invalid cleaning regex, an unknown method) as 400", async () => {
    const id = await k.createBase(alice, "坏参数");
    const fileId = await k.uploaded(alice, id, "a.txt", "内容");
    expect((await k.call(alice, "POST", `/${id}/files/${fileId}/preview`, { method: "nope" })).statusCode).toBe(400);
    const badRegex = await k.call(alice, "POST", `/${id}/files/${fileId}/commit`, {
      method: "auto",
      cleaning: { replace: [{ pattern: "([", replacement: "" }] },
    });
    expect(badRegex.statusCode).toBe(400);
    expect((await k.state(alice, id, fileId)).committed).toBe(false);
  });

  it("segments can be edited, added, disabled and deleted; hand edits survive a re-parse", async () => {
    const id = await k.createBase(alice, "分段编辑");
    const fileId = await k.uploaded(alice, id, "policy.md", DOC);
    const body = { method: "auto", chunkSize: 64, overlap: 0 };
    await k.call(alice, "POST", `/${id}/files/${fileId}/commit`, body);
    await k.settled(alice, id, fileId);
    const [first, second] = (await k.segments(alice, id, `&fileId=${fileId}`)).list;
    const edit = await k.call(alice, "PUT", `/${id}/segments/${first.id}`, { content: "手工修改：退货请联系客服。" });
    expect(edit.json()).toMatchObject({ code: 0, data: { edited: true, content: "手工修改：退货请联系客服。" } });
    expect((await k.call(alice, "PUT", `/${id}/segments/${second.id}`, { enabled: false })).json().data).toMatchObject({
      enabled: false,
      edited: false,
    });
    expect((await k.call(alice, "PUT", `/${id}/segments/${second.id}`, { content: "  " }, "en")).json().msg).toBe(
      "the segment content cannot be empty",
    );
    const added = await k.call(alice, "POST", `/${id}/segments`, { content: "新增的一段", fileId });
    expect(added.json().data).toMatchObject({ edited: true, enabled: true, fileId });
    expect((await k.call(bob, "PUT", `/${id}/segments/${first.id}`, { content: "偷改" })).statusCode).toBe(404);

    // Re-parse with other options: parsed segments are replaced, the edited and added ones stay.
    await k.call(alice, "POST", `/${id}/files/${fileId}/commit`, { method: "full_text" });
    await k.settled(alice, id, fileId);
    const after = (await k.segments(alice, id, `&fileId=${fileId}`)).list;
    const ids = after.map((s: { id: string }) => s.id);
    expect(ids).toContain(first.id);
    expect(ids).toContain(added.json().data.id);
    expect(ids).not.toContain(second.id);
    expect(after.filter((s: { edited: boolean }) => !s.edited)).toHaveLength(1);

    expect((await k.call(alice, "DELETE", `/${id}/segments/${first.id}`)).json().code).toBe(0);
    expect((await k.segments(alice, id, `&fileId=${fileId}`)).list.map((s: { id: string }) => s.id)).not.toContain(first.id);
  });

  it("deleting a file removes its segments", async () => {
    const id = await k.createBase(alice, "删文件");
    const fileId = await k.uploaded(alice, id, "policy.md", DOC);
    await k.call(alice, "POST", `/${id}/files/${fileId}/commit`, { method: "auto" });
    await k.settled(alice, id, fileId);
    expect((await k.segments(alice, id)).total).toBeGreaterThan(0);
    expect((await k.call(bob, "DELETE", `/${id}/files/${fileId}`)).statusCode).toBe(404);
    expect((await k.call(alice, "DELETE", `/${id}/files/${fileId}`)).json().code).toBe(0);
    expect((await k.segments(alice, id)).total).toBe(0);
    expect((await k.call(alice, "GET", `/${id}/files/${fileId}`)).statusCode).toBe(404);
  });
});

describe("Q&A pairs", () => {
  it("need a question and an answer; CSV import needs a CSV", async () => {
    const id = await k.createBase(alice, "问答");
    const pair = await k.call(alice, "POST", `/${id}/qa`, { question: "营业时间？", answer: "每天九点到十八点。" });
    expect(pair.json()).toMatchObject({ code: 0, data: { question: "营业时间？", answer: "每天九点到十八点。", edited: true } });
    const empty = await k.call(alice, "POST", `/${id}/qa`, { question: "有答案吗", answer: " " }, "en");
    expect(empty.json().msg).toBe("the question and the answer cannot be empty");
    const csv = '问题,答案\n如何退款？,"在订单页点击""申请退款""即可"\n运费多少？,满99包邮\n';
    const imported = await k.upload(alice, id, "faq.csv", csv, "qa/import");
    expect(imported.json()).toMatchObject({ code: 0, data: { imported: 2 } });
    const qa = await k.segments(alice, id, "&qa=true");
    expect(qa.list.map((s: { question: string }) => s.question)).toEqual(["营业时间？", "如何退款？", "运费多少？"]);
    expect(qa.list[1].answer).toBe('在订单页点击"申请退款"即可');
    // Excel on Chinese Windows saves CSV in GBK (these bytes: "问题,答案\r\n几点关门？,晚上九点\r\n"): read as Chinese, not mojibake.
    const gbkCsv = Buffer.from("cecacce22cb4f0b0b80d0abcb8b5e3b9d8c3c5a3bf2ccdedc9cfbec5b5e30d0a", "hex");
    const gbk = await k.upload(alice, id, "gbk.csv", gbkCsv, "qa/import");
    expect(gbk.json()).toMatchObject({ code: 0, data: { imported: 1 } });
    expect((await k.segments(alice, id, "&qa=true")).list.at(-1)).toMatchObject({ question: "几点关门？", answer: "晚上九点" });
    const notCsv = await k.upload(alice, id, "faq.txt", "a,b", "qa/import", "en");
    expect(notCsv.json().msg).toBe("a CSV file must be chosen");
    const none = await t.app.inject({
      method: "POST",
      url: `/wendao_api/wendao/knowledge/${id}/qa/import`,
      headers: { ...alice.headers, lang: "en" },
      payload: {},
    });
    expect(none.json().msg).toBe("a CSV file must be chosen");
    expect((await k.upload(alice, id, "half.csv", "只有问题,\n", "qa/import", "en")).json().msg).toBe(
      "the question and the answer cannot be empty",
    );
    // Editing a pair: both parts required; re-indexed under the new question; only pairs, only the owner.
    const pairId = pair.json().data.id;
    const edit = await k.call(alice, "PUT", `/${id}/qa/${pairId}`, { question: "周末营业吗？", answer: "周末照常营业。" });
    expect(edit.json()).toMatchObject({ code: 0, data: { question: "周末营业吗？", answer: "周末照常营业。", content: "周末照常营业。" } });
    expect((await k.call(alice, "PUT", `/${id}/qa/${pairId}`, { question: " ", answer: "有" }, "en")).json().msg).toBe(
      "the question and the answer cannot be empty",
    );
    expect((await k.call(bob, "PUT", `/${id}/qa/${pairId}`, { question: "改", answer: "改" })).statusCode).toBe(404);
    const hits = (await k.call(alice, "POST", `/${id}/retrieval`, { query: "周末营业", topK: 3 })).json().data.hits;
    expect(hits[0].segmentId).toBe(pairId);
  });
});

describe("retrieval (keyword only: no embedding model)", () => {
  it("ranks by jieba keywords, questions above bodies, with keyword, vector and fused scores", async () => {
    const id = await k.createBase(alice, "检索");
    const fileId = await k.uploaded(alice, id, "policy.md", DOC);
    await k.call(alice, "POST", `/${id}/files/${fileId}/commit`, { method: "auto", chunkSize: 64, overlap: 0 });
    await k.settled(alice, id, fileId);
    await k.call(alice, "POST", `/${id}/qa`, { question: "发票怎么开？", answer: "在订单详情页申请。" });
    const res = await k.call(alice, "POST", `/${id}/retrieval`, { query: "电子产品保修多久", topK: 3 });
    expect(res.json().code).toBe(0);
    const { hits, vectorUsed } = res.json().data;
    expect(vectorUsed).toBe(false);
    expect(hits[0].content).toContain("保修一年");
    expect(hits[0]).toMatchObject({ fileId, fileName: "policy.md", vectorScore: 0 });
    // A reply's sources name the file a passage came from; a Q&A pair is named by its question.
    expect(docsOf(hits.slice(0, 1))[0].title).toMatch(/^\[1\] policy\.md/);
    expect(hits[0].keywordScore).toBeGreaterThan(0);
    expect(hits[0].score).toBe(hits[0].keywordScore);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1].score).toBeGreaterThanOrEqual(hits[i].score);
    // The question field weighs more than the same words in a body.
    const invoice = (await k.call(alice, "POST", `/${id}/retrieval`, { query: "发票", topK: 5 })).json().data.hits;
    expect(invoice[0].question).toBe("发票怎么开？");
    expect(docsOf(invoice.slice(0, 1))[0].title).toBe("[1] 发票怎么开？");
    expect(invoice[0].keywordScore).toBeGreaterThan(invoice[1].keywordScore);
    // Threshold drops weak hits; disabled segments are never found.
    const strict = (await k.call(alice, "POST", `/${id}/retrieval`, { query: "电子产品保修多久", topK: 5, threshold: 0.99 })).json().data;
    expect(strict.hits.every((h: { score: number }) => h.score >= 0.99)).toBe(true);
    await k.call(alice, "PUT", `/${id}/segments/${hits[0].segmentId}`, { enabled: false });
    const after = (await k.call(alice, "POST", `/${id}/retrieval`, { query: "电子产品保修多久", topK: 5 })).json().data.hits;
    expect(after.map((h: { segmentId: string }) => h.segmentId)).not.toContain(hits[0].segmentId);
    expect((await k.call(bob, "POST", `/${id}/retrieval`, { query: "保修", topK: 3 })).statusCode).toBe(404);
    expect((await k.call(alice, "POST", `/${id}/retrieval`, { query: "", topK: 3 })).statusCode).toBe(400);
  });
});
