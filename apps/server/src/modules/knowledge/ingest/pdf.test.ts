import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser, pdfFromHtml } from "./fixtures.test-helper.ts";
import { ingest, parseDocument, type ParsedDocument } from "./index.ts";

// PDFs printed by Chromium with Noto Sans CJK: its text layer spells many characters as Kangxi radicals (⽤⼾ for 用户).
const WORDS = ["电源", "风扇", "滤网", "电池", "接口", "屏幕", "按键", "外壳", "线缆", "支架"];
const para = (i: number) =>
  `<p>第${i}段：用户应当按照说明书操作设备，检查${WORDS[i % 10]}与${WORDS[(i * 3 + 1) % 10]}，确保${WORDS[(i * 7 + 2) % 10]}安全运行。</p>`;
const manualHtml = [
  `<h1>第一章 安装</h1><h3 style="font-size:14px">1.1 环境要求</h3>${Array.from({ length: 30 }, (_, i) => para(i + 1)).join("")}`,
  `<h1>第二章 使用</h1><h3 style="font-size:14px">2.1 开机</h3>${Array.from({ length: 30 }, (_, i) => para(i + 31)).join("")}`,
].join("");
const lawHtml = `<p>中华人民共和国示例法</p><p>目　　录</p><p>第一章　总　则</p><p>第二章　附　则</p><div style="page-break-after:always"></div>
<p>第一章　总　则</p><p>第一条　为了规范示例活动，制定本法。</p><p>第二条　示例活动适用本法，依照</p><p>第三条规定的除外。</p>
<p>第三条　有下列情形之一的，不予登记：</p><p>（一）材料不全；</p><p>（二）逾期申请。</p><p>第二章　附　则</p><p>第四条　本法自公布之日起施行。</p>`;
const paperHtml = `<h1>基于检索增强的企业问答</h1><p>张三<sup>1</sup>，李四<sup>2</sup></p><p>（1. 示例大学 计算机学院；2. 示例研究院）</p>
<p><b>摘要：</b>本文研究检索增强生成在企业知识库中的应用，提出混合检索方法。</p><p><b>关键词：</b>检索；问答</p>
<p><b>1 引言</b></p><p>企业知识分散在大量文档中。</p><p><b>2 方法</b></p><p>我们结合关键词与向量检索。</p><p><b>3 结论</b></p><p>混合检索效果更好。</p>`;

const bookHtml = `<h1>示例之书</h1><h2>目录</h2>
<p>第一章 起源 ........................ 2</p><p>第一节 远古 ........................ 2</p><p>第二章 发展 ........................ 3</p>
<div style="page-break-after:always"></div><h2>第一章 起源</h2><h3>第一节 远古</h3><p>很久以前，人们在河边生活。</p>
<div style="page-break-after:always"></div><h2>第二章 发展</h2><p>城市逐渐出现。</p>`;
let manual: Uint8Array;
let law: Uint8Array;
let paper: Uint8Array;
let manualDoc: ParsedDocument;

beforeAll(async () => {
  manual = await pdfFromHtml(manualHtml, { outline: true, header: "示例设备说明书", footer: '第 <span class="pageNumber"></span> 页' });
  law = await pdfFromHtml(lawHtml);
  paper = await pdfFromHtml(paperHtml);
  manualDoc = await parseDocument({ name: "manual.pdf", data: manual });
}, 60_000);
afterAll(closeBrowser);

describe("PDF text layer", () => {
  it("is NFKC-normalised: no Kangxi radicals where the raw text layer has them", async () => {
    const raw = (await extractText(await getDocumentProxy(new Uint8Array(manual)), { mergePages: true })).text;
    expect(raw).toMatch(/[\u2F00-\u2FDF]/);
    const text = manualDoc.blocks.map((b) => ("text" in b ? b.text : "")).join("\n");
    expect(text).not.toMatch(/[\u2E80-\u2FDF]/);
    expect(text).toContain("第1段：用户应当按照说明书操作设备，检查风扇与接口，确保支架安全运行。");
  });

  it("drops the running header and the page numbers", () => {
    expect(manualDoc.pages).toBeGreaterThanOrEqual(3);
    const text = manualDoc.blocks.map((b) => ("text" in b ? b.text : "")).join("\n");
    expect(text).not.toContain("示例设备说明书");
    expect(text).not.toMatch(/第 ?\d+ ?页/);
    expect(manualDoc.ocrPages).toEqual([]);
  });

  it("manual: bookmarks give the title path, even for a heading set in body type", async () => {
    const segs = await ingest({ name: "manual.pdf", data: manual }, { method: "manual", chunkSize: 256 });
    expect(new Set(segs.map((s) => s.title))).toEqual(new Set(["第一章 安装 > 1.1 环境要求", "第二章 使用 > 2.1 开机"]));
    for (const s of segs) expect(s.content.startsWith(`${s.title}\n`)).toBe(true);
    const all = segs.map((s) => s.content).join("\n");
    for (let i = 1; i <= 60; i++) expect(all).toContain(`第${i}段：`);
  });

  it("gives the same segments for the same file (preview equals commit)", async () => {
    const a = await ingest({ name: "manual.pdf", data: manual }, { method: "auto", chunkSize: 200, overlap: 30 });
    const b = await ingest({ name: "manual.pdf", data: manual }, { method: "auto", chunkSize: 200, overlap: 30 });
    expect(b).toEqual(a);
  });

  it("laws: one chunk per 条 from a printed law, the 目录 dropped, a cross-reference to the next article wrapped onto its own line kept as text", async () => {
    const segs = await ingest({ name: "law.pdf", data: law }, { method: "laws" });
    expect(segs.map((s) => s.content)).toEqual([
      "第一章 总则\n第一条 为了规范示例活动，制定本法。",
      "第一章 总则\n第二条 示例活动适用本法，依照\n第三条规定的除外。",
      "第一章 总则\n第三条 有下列情形之一的，不予登记：\n（一）材料不全；\n（二）逾期申请。",
      "第二章 附则\n第四条 本法自公布之日起施行。",
    ]);
    // The law's name leads every title instead of standing alone.
    expect(segs[0].title).toBe("中华人民共和国示例法 > 第一章 总则");
  });

  it("book: the table of contents is dropped, paragraphs carry their chain of headings", async () => {
    const segs = await ingest({ name: "book.pdf", data: await pdfFromHtml(bookHtml) }, { method: "book" });
    expect(segs.map((s) => s.content)).toEqual([
      "示例之书 > 第一章 起源 > 第一节 远古\n很久以前，人们在河边生活。",
      "示例之书 > 第二章 发展\n城市逐渐出现。",
    ]);
  });

  it("paper: title, authors and abstract first, then numbered sections", async () => {
    const segs = await ingest({ name: "paper.pdf", data: paper }, { method: "paper" });
    expect(segs[0].content).toContain("基于检索增强的企业问答");
    expect(segs[0].content).toContain("张三");
    expect(segs[0].content).toContain("本文研究检索增强生成");
    expect(segs.slice(1).map((s) => s.title)).toEqual(["1 引言", "2 方法", "3 结论"]);
    expect(segs[2].content).toBe("2 方法\n我们结合关键词与向量检索。");
  });
});

describe("PDF tables", () => {
  const tableHtml = `<h2>员工名单</h2><p>以下为研发部与市场部员工。</p>
<table style="border-collapse:collapse" cellpadding="6">
<tr><th align="left">姓名</th><th align="left">部门</th><th align="left">工号</th><th align="left">入职日期</th></tr>
<tr><td>张三</td><td>研发部</td><td>1001</td><td>2020-01-05</td></tr>
<tr><td>李四</td><td>市场部</td><td></td><td>2021-03-04</td></tr>
<tr><td>王五</td><td>研发部</td><td>1003</td><td>2022-07-15</td></tr>
</table><p>名单每季度更新一次。</p>`;

  it("rows of cells that line up in columns become a table: the table method writes one row per chunk with its header", async () => {
    const pdf = await pdfFromHtml(tableHtml);
    const doc = await parseDocument({ name: "staff.pdf", data: pdf });
    const table = doc.blocks.find((b) => b.kind === "table");
    expect(table).toMatchObject({
      header: ["姓名", "部门", "工号", "入职日期"],
      rows: [
        ["张三", "研发部", "1001", "2020-01-05"],
        ["李四", "市场部", "", "2021-03-04"],
        ["王五", "研发部", "1003", "2022-07-15"],
      ],
    });
    // Text around the table stays text.
    expect(doc.blocks.filter((b) => b.kind === "paragraph").map((b) => ("text" in b ? b.text : ""))).toEqual([
      "以下为研发部与市场部员工。",
      "名单每季度更新一次。",
    ]);
    const segs = await ingest({ name: "staff.pdf", data: pdf }, { method: "table" });
    expect(segs.map((s) => s.content)).toEqual([
      "姓名: 张三\n部门: 研发部\n工号: 1001\n入职日期: 2020-01-05",
      "姓名: 李四\n部门: 市场部\n工号: \n入职日期: 2021-03-04",
      "姓名: 王五\n部门: 研发部\n工号: 1003\n入职日期: 2022-07-15",
    ]);
    // Other methods keep each row on a line of its own.
    const auto = (await ingest({ name: "staff.pdf", data: pdf }, { method: "auto" })).map((s) => s.content).join("\n");
    expect(auto).toContain("| 李四 | 市场部 |  | 2021-03-04 |");
  });
});
