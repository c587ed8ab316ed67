import ExcelJS from "exceljs";
import iconv from "iconv-lite";
import JSZip from "jszip";
import { beforeAll, describe, expect, it } from "vitest";
import { type DocxItem, docxOf, pptxOf, xlsxOf } from "./fixtures.test-helper.ts";
import { countTokens, INGEST_VERSION, IngestError, ingest, parseDocument, type Segment, type SegmentOptions } from "./index.ts";
import { formatNumber } from "./parse/docx-numbering.ts";
import { openZip } from "./parse/zip.ts";

const utf8 = (text: string) => new TextEncoder().encode(text);
const run = (name: string, data: Uint8Array | string, options: SegmentOptions) =>
  ingest({ name, data: typeof data === "string" ? utf8(data) : data }, options);
const reason = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    if (e instanceof IngestError) return e.reason;
    throw e;
  }
  return "resolved";
};

const LAW = `中华人民共和国示例管理法

目　　录
第一章　总　则
第二章　管理与监督
第三章　附　则

第一章　总　则
第一条　为了规范示例管理活动，保护当事人的合法权益，制定本法。
第二条　在中华人民共和国境内从事示例活动，适用本法。依照
第十条规定办理的除外。
第三条　示例活动应当遵循下列原则：
（一）依法合规；
（二）公开透明；
（三）诚实信用。
第二章　管理与监督
第四条　国务院有关部门负责全国的示例管理工作。
第五条　${"监督检查人员应当出示证件，依照本法第四条的规定开展工作，不得泄露当事人的商业秘密。".repeat(12)}
第三章　附　则
第六条　本法自公布之日起施行。`;

describe("options", () => {
  it("rejects a bad method, chunk size, overlap, delimiter and regex with invalidOptions", async () => {
    const bad: SegmentOptions[] = [
      { method: "nope" as never },
      { method: "auto", chunkSize: 10 },
      { method: "auto", chunkSize: 100_000 },
      { method: "auto", chunkSize: 256.5 },
      { method: "auto", chunkSize: 200, overlap: 150 },
      { method: "auto", delimiters: [""] },
      { method: "auto", cleaning: { replace: [{ pattern: "([a-z", replacement: "" }] } },
      { method: "auto", cleaning: { replace: [{ pattern: "x*", replacement: "" }] } },
      { method: "auto", cleaning: { replace: [{ pattern: "a", replacement: "", flags: "gy" }] } },
    ];
    for (const options of bad) expect(await reason(run("a.txt", "正文", options)), JSON.stringify(options)).toBe("invalidOptions");
  });

  it("runs cleaning patterns in linear time: one that backtracks for ever elsewhere ends at once", async () => {
    const started = Date.now();
    const text = `${"a".repeat(5000)}\n第一条　正文`;
    const doc = await run("a.txt", text, {
      method: "full_text",
      cleaning: {
        replace: [
          { pattern: "(a|a)*b", replacement: "" },
          { pattern: "(a+)+$", replacement: "x" },
        ],
      },
    });
    expect(doc[0].content).toContain("第一条");
    expect(Date.now() - started).toBeLessThan(5000);
    // A back-reference needs backtracking: refused as an invalid pattern.
    expect(await reason(run("a.txt", "正文", { method: "auto", cleaning: { replace: [{ pattern: "(.)\\1", replacement: "" }] } }))).toBe(
      "invalidOptions",
    );
  });

  it("exposes a version and counts cl100k tokens", () => {
    expect(INGEST_VERSION).toBeGreaterThan(0);
    expect(countTokens("hello world")).toBe(2);
    expect(countTokens("")).toBe(0);
  });
});

describe("cleaning", () => {
  it("drops URLs and e-mails, collapses whitespace and applies replacements", async () => {
    const text = "联系  我们：service@example.com 或访问 https://example.com/a?b=1 ，   官网 www.example.cn 。\n\n\n\n工号：A-1234";
    const [seg] = await run("a.txt", text, {
      method: "full_text",
      cleaning: { dropUrls: true, dropEmails: true, collapseWhitespace: true, replace: [{ pattern: "A-\\d+", replacement: "[工号]" }] },
    });
    expect(seg.content).not.toMatch(/example|@/);
    expect(seg.content).toContain("[工号]");
    expect(seg.content).not.toMatch(/ {2}|\n{3}/);
  });
});

describe("auto", () => {
  const paragraphs = Array.from(
    { length: 40 },
    (_, i) => `第${i + 1}段。这是一段用于测试分段的中文正文，内容包含若干句子。每一句都应当完整地保留下来。`,
  );
  const md = `# 产品介绍\n\n${paragraphs.slice(0, 20).join("\n\n")}\n\n## 价格表\n\n| 型号 | 价格 |\n|---|---|\n${Array.from({ length: 30 }, (_, i) => `| X-${i} | ${100 + i} |`).join("\n")}\n\n${paragraphs.slice(20).join("\n\n")}`;
  let segments: Segment[];
  beforeAll(async () => {
    segments = await run("a.md", md, { method: "auto", chunkSize: 128, overlap: 24 });
  });

  it("packs to the token budget, keeps every sentence whole, and repeats a tail as overlap", () => {
    expect(segments.length).toBeGreaterThan(5);
    for (const s of segments) {
      expect(s.tokens).toBe(countTokens(s.content));
      expect(s.tokens).toBeLessThanOrEqual(128 + 8);
    }
    const all = segments.map((s) => s.content).join("\n");
    for (const p of paragraphs) expect(all).toContain(p);
    const overlapping = segments.slice(1).filter((s, i) => segments[i].content.endsWith(s.content.split("\n")[0]));
    expect(overlapping.length).toBeGreaterThan(0);
    expect(segments.map((s) => s.position)).toEqual(segments.map((_, i) => i));
  });

  it("never ends a chunk with a heading and repeats a table's header in every chunk of its rows", () => {
    for (const s of segments) {
      const last = s.content.split("\n").at(-1)!;
      expect(last).not.toMatch(/^(产品介绍|价格表|\| 型号 \| 价格 \|)$/);
      if (/\| X-\d+ \|/.test(s.content)) expect(s.content).toContain("| 型号 | 价格 |");
    }
  });

  it("cuts at the user's delimiters", async () => {
    const text = Array.from({ length: 30 }, (_, i) => `条目${i}的说明文字比较长一些###`).join("");
    const segs = await run("a.txt", text, { method: "auto", chunkSize: 64, delimiters: ["###"] });
    expect(segs.length).toBeGreaterThan(2);
    for (const s of segs) expect(s.content.endsWith("###")).toBe(true);
  });

  it("a Word document: 512 cl100k tokens by default, headings never last, the user's delimiters as cut points", async () => {
    const items: DocxItem[] = [];
    for (let i = 1; i <= 6; i++) {
      items.push({ heading: 1, text: `第${i}部分` });
      for (let j = 0; j < 8; j++)
        items.push({
          text: `第${i}部分第${j}段：设备应当定期检查；发现异常及时上报；记录每次检查的结果；保存检查记录三年；每年复核一次。`,
        });
    }
    const data = await docxOf(items);
    const segs = await run("a.docx", data, { method: "auto" });
    for (const s of segs) {
      expect(s.tokens).toBeLessThanOrEqual(512);
      expect(s.content.split("\n").at(-1)).not.toMatch(/^第\d部分$/);
    }
    expect(Math.max(...segs.map((s) => s.tokens))).toBeGreaterThan(400);
    const cut = await run("a.docx", data, { method: "auto", chunkSize: 48, delimiters: ["；"] });
    for (const s of cut) expect(s.content).toMatch(/[；。]$/);
    expect(cut.some((s) => s.content.endsWith("；"))).toBe(true);
  });

  it("is deterministic: the same file and options give the same segments", async () => {
    expect(await run("a.md", md, { method: "auto", chunkSize: 128, overlap: 24 })).toEqual(segments);
  });
});

describe("qa", () => {
  it("reads two-column CSV and xlsx, named columns first", async () => {
    const csv = await run("qa.csv", '编号,问题,答案\n1,怎么退款？,在订单页点击“退款”。\n2,多久到账？,"3个工作日,节假日顺延"', {
      method: "qa",
    });
    expect(csv.map((s) => [s.question, s.answer])).toEqual([
      ["怎么退款？", "在订单页点击“退款”。"],
      ["多久到账？", "3个工作日,节假日顺延"],
    ]);
    const xlsx = await run(
      "qa.xlsx",
      await xlsxOf({
        FAQ: [
          ["如何开票？", "在我的订单中申请。"],
          ["支持哪些支付方式？", "微信和支付宝。"],
        ],
        // A second sheet with a title line above its named columns: the title is no pair.
        售后: [
          ["售后常见问题解答", null],
          ["问题", "答案"],
          ["保修多久？", "一年。"],
        ],
      }),
      { method: "qa" },
    );
    expect(xlsx.map((s) => s.question)).toEqual(["如何开票？", "支持哪些支付方式？", "保修多久？"]);
    expect(xlsx[0].content).toBe("如何开票？\n在我的订单中申请。");
  });

  it("reads tab-separated txt, 问/答 lines, and markdown or docx headings as questions", async () => {
    const tab = await run("qa.txt", "营业时间？\t每天9点到18点\n在哪里取货？\t一楼前台", { method: "qa" });
    expect(tab.map((s) => s.answer)).toEqual(["每天9点到18点", "一楼前台"]);
    const comma = await run("qa.txt", "营业时间？,每天9点到18点\r\n在哪里取货？,一楼前台，周日不营业", { method: "qa" });
    expect(comma.map((s) => [s.question, s.answer])).toEqual([
      ["营业时间？", "每天9点到18点"],
      ["在哪里取货？", "一楼前台，周日不营业"],
    ]);
    const marked = await run("qa.txt", "问：可以退货吗？\n答：七天内可以。\n包装需完好。\n问：运费谁出？\n答：卖家承担。", {
      method: "qa",
    });
    expect(marked).toMatchObject([
      { question: "可以退货吗？", answer: "七天内可以。\n包装需完好。" },
      { question: "运费谁出？", answer: "卖家承担。" },
    ]);
    const md = await run("qa.md", "## 如何注册？\n\n点击右上角注册。\n\n## 忘记密码怎么办？\n\n使用找回密码。", { method: "qa" });
    expect(md.map((s) => [s.question, s.answer])).toEqual([
      ["如何注册？", "点击右上角注册。"],
      ["忘记密码怎么办？", "使用找回密码。"],
    ]);
    const docx = await docxOf([
      { heading: 2, text: "发票怎么开？" },
      { text: "联系客服开具。" },
      { heading: 2, text: "能加急吗？" },
      { text: "可以，需加价。" },
    ]);
    expect((await run("qa.docx", docx, { method: "qa" })).map((s) => s.question)).toEqual(["发票怎么开？", "能加急吗？"]);
    const tableDocx = await docxOf([
      { text: "常见问题" },
      {
        table: [
          ["问题", "答案"],
          ["保修多久？", "一年。"],
        ],
      },
    ]);
    expect(await run("faq.docx", tableDocx, { method: "qa" })).toMatchObject([{ question: "保修多久？", answer: "一年。" }]);
  });
});

describe("table", () => {
  it("writes each row as 列: 值 lines, drops index columns, renames duplicates and normalises typed values", async () => {
    const data = await xlsxOf({
      员工: [
        ["序号", "姓名", "入职日期", "工资", "在职", "工资", "备注"],
        [1, "张三", new Date(Date.UTC(2020, 0, 5)), 12000.5, true, 1, "组长"],
        [2, "李四", new Date(Date.UTC(2021, 2, 4)), 9000, false, 2, null],
      ],
    });
    const segs = await run("t.xlsx", data, { method: "table" });
    expect(segs).toHaveLength(2);
    expect(segs[0].content).toBe("姓名: 张三\n入职日期: 2020-01-05\n工资: 12000.5\n在职: 是\n工资_2: 1\n备注: 组长");
    expect(segs[1].content).toContain("姓名: 李四\n入职日期: 2021-03-04");
    expect(segs[0].title).toBe("员工");
    const csv = await run("t.csv", 'id,城市,人口,日期\n1,北京,"21,893,095",2020/11/1\n2,上海,"24,870,895",2020年11月1日', {
      method: "table",
    });
    expect(csv[1].content).toBe("城市: 上海\n人口: 24870895\n日期: 2020-11-01");
    // Saved by Excel on Chinese Windows: GBK with CRLF ("姓名,在职\r\n张三,是\r\n").
    const gbk = await run("t.csv", Buffer.from("d0d5c3fb2cd4dad6b00d0ad5c5c8fd2ccac70d0a", "hex"), { method: "table" });
    expect(gbk.map((s) => s.content)).toEqual(["姓名: 张三\n在职: 是"]);
  });

  it("a workbook of several sheets, a merged title row above the header and a merged cell over two rows", async () => {
    const workbook = new ExcelJS.Workbook();
    const staff = workbook.addWorksheet("员工");
    staff.addRow(["2024年员工名单", null, null]);
    staff.mergeCells("A1:C1");
    staff.addRow(["部门", "姓名", "工号"]);
    staff.addRow(["研发部", "张三", 1001]);
    staff.addRow([null, "王五", 1003]);
    staff.mergeCells("A3:A4"); // one department over two people: each row reads it
    staff.addRow(["市场部", "李四", 1002]);
    const teams = workbook.addWorksheet("部门");
    teams.addRow(["部门", "负责人"]);
    teams.addRow(["研发部", "赵六"]);
    const data = new Uint8Array(await workbook.xlsx.writeBuffer());
    expect((await run("staff.xlsx", data, { method: "table" })).map((s) => [s.title, s.content])).toEqual([
      ["员工 > 2024年员工名单", "部门: 研发部\n姓名: 张三\n工号: 1001"],
      ["员工 > 2024年员工名单", "部门: 研发部\n姓名: 王五\n工号: 1003"],
      ["员工 > 2024年员工名单", "部门: 市场部\n姓名: 李四\n工号: 1002"],
      ["部门", "部门: 研发部\n负责人: 赵六"],
    ]);
    // Other methods keep the sheet's name and title above its rows.
    expect((await run("staff.xlsx", data, { method: "full_text" }))[0].content).toBe(
      "员工 > 2024年员工名单\n| 部门 | 姓名 | 工号 |\n| 研发部 | 张三 | 1001 |\n| 研发部 | 王五 | 1003 |\n| 市场部 | 李四 | 1002 |\n部门\n| 部门 | 负责人 |\n| 研发部 | 赵六 |",
    );
    // A CSV's title line too; a header with one name over a row of data (numbers, or as short texts) stays the header.
    const csv = await run("t.csv", "2024年城市人口\n城市,人口\n北京,21893095\n", { method: "table" });
    expect(csv).toMatchObject([{ title: "2024年城市人口", content: "城市: 北京\n人口: 21893095" }]);
    const named = await run("t.csv", "名称,,\n苹果,3,5\n", { method: "table" });
    expect(named).toMatchObject([{ content: "名称: 苹果\n列2: 3\n列3: 5" }]);
    const short = await run("t.csv", "产品,,\n苹果,红色,水果\n", { method: "table" });
    expect(short).toMatchObject([{ content: "产品: 苹果\n列2: 红色\n列3: 水果" }]);
  });

  it("a Word table with vertically merged cells: the merged value fills each row it covers, the other cells keep their column", async () => {
    const data = await docxOf([
      {
        table: [
          ["部门", "姓名", "工号"],
          [{ text: "研发部", rowSpan: 2 }, "张三", "1001"],
          ["李四", "1002"],
          ["市场部", "王五", "1003"],
        ],
      },
    ]);
    expect((await run("staff.docx", data, { method: "table" })).map((s) => s.content)).toEqual([
      "部门: 研发部\n姓名: 张三\n工号: 1001",
      "部门: 研发部\n姓名: 李四\n工号: 1002",
      "部门: 市场部\n姓名: 王五\n工号: 1003",
    ]);
  });

  it("says so when a file has no table", async () => {
    expect(await reason(run("a.txt", "没有表格的文本", { method: "table" }))).toBe("empty");
  });
});

describe("laws", () => {
  let segs: Segment[];
  beforeAll(async () => {
    segs = await run("law.txt", LAW, { method: "laws", chunkSize: 200 });
  });

  it("drops the 目录, makes one chunk per 条 under its chapter, keeps items and cross-references inside", () => {
    const all = segs.map((s) => s.content).join("\n");
    expect(all.match(/管理与监督/g)?.length).toBe(segs.filter((s) => s.title === "中华人民共和国示例管理法 > 第二章 管理与监督").length);
    // The law's name is no chunk of its own: it leads every title.
    expect(segs[0]).toMatchObject({
      content: "第一章 总则\n第一条 为了规范示例管理活动，保护当事人的合法权益，制定本法。",
      title: "中华人民共和国示例管理法 > 第一章 总则",
    });
    expect(segs[1].content).toBe("第一章 总则\n第二条 在中华人民共和国境内从事示例活动，适用本法。依照\n第十条规定办理的除外。");
    expect(segs[2].content).toBe("第一章 总则\n第三条 示例活动应当遵循下列原则：\n（一）依法合规；\n（二）公开透明；\n（三）诚实信用。");
    expect(segs.filter((s) => /第十条/.test(s.content.split("\n")[1] ?? ""))).toHaveLength(0);
  });

  it("splits only an overlong article, each part under its chapter and article", () => {
    const five = segs.filter((s) => s.content.includes("第五条"));
    expect(five.length).toBeGreaterThan(1);
    expect(five[0].content.startsWith("第二章 管理与监督\n第五条 ")).toBe(true);
    for (const part of five.slice(1)) expect(part.content.startsWith("第二章 管理与监督\n第五条（续）\n")).toBe(true);
    for (const s of segs) expect(s.tokens).toBeLessThanOrEqual(200);
    expect(segs.filter((s) => /^第四条 /m.test(s.content))).toHaveLength(1);
    expect(segs.at(-1)!.content).toBe("第三章 附则\n第六条 本法自公布之日起施行。");
  });

  it("编, 章 and 节 form the path above each article", async () => {
    const text = [
      "第一编　总　则",
      "第一章　基本规定",
      "第一节　一般规定",
      "第一条　为了规范示例行为，制定本法。",
      "第二节　特别规定",
      "第二条　特别事项依照本节办理。",
      "第二章　其他规定",
      "第三条　其他事项另行规定。",
      "第二编　分　则",
      "第三章　登记",
      "第四条　登记应当公开。",
    ].join("\n");
    expect((await run("law.txt", text, { method: "laws" })).map((s) => s.content)).toEqual([
      "第一编 总则\n第一章 基本规定\n第一节 一般规定\n第一条 为了规范示例行为，制定本法。",
      "第一编 总则\n第一章 基本规定\n第二节 特别规定\n第二条 特别事项依照本节办理。",
      "第一编 总则\n第二章 其他规定\n第三条 其他事项另行规定。",
      "第二编 分则\n第三章 登记\n第四条 登记应当公开。",
    ]);
  });

  it("a Word law with 附则 and 第X条之一, a cross-reference wrapped onto the next article's number, and the same text as CRLF txt", async () => {
    const lines = [
      "示例登记条例",
      "目　　录",
      "第一章　总　则",
      "第二章　附　则",
      "第一章　总　则",
      "第九条　登记机关应当依照",
      "第十条规定办理登记。",
      "第十条　登记应当公开。",
      "第十条之一　电子登记与纸质登记具有同等效力。",
      "第二章　附　则",
      "第十一条　本条例自公布之日起施行。",
    ];
    const expected = [
      "第一章 总则\n第九条 登记机关应当依照\n第十条规定办理登记。",
      "第一章 总则\n第十条 登记应当公开。",
      "第一章 总则\n第十条之一 电子登记与纸质登记具有同等效力。",
      "第二章 附则\n第十一条 本条例自公布之日起施行。",
    ];
    const docx = await run("law.docx", await docxOf(lines.map((text) => ({ text }))), { method: "laws" });
    expect(docx.map((s) => s.content)).toEqual(expected);
    expect(docx.map((s) => s.title)).toEqual([
      "示例登记条例 > 第一章 总则",
      "示例登记条例 > 第一章 总则",
      "示例登记条例 > 第一章 总则",
      "示例登记条例 > 第二章 附则",
    ]);
    const crlf = await run("law.txt", lines.join("\r\n"), { method: "laws" });
    expect(crlf.map((s) => s.content)).toEqual(expected);
    // Typed without the space after the number, right under the law's name.
    const tight = await run("law.txt", "示例条例\n第一条为了规范登记，制定本条例。\n第二条本条例自公布之日起施行。", { method: "laws" });
    expect(tight.map((s) => s.content)).toEqual(["第一条为了规范登记，制定本条例。", "第二条本条例自公布之日起施行。"]);
    // A long preamble (序言) is cut to the budget like the articles.
    const preamble = `序言\n${"我国各族人民共同创造了光辉灿烂的文化，具有光荣的革命传统。".repeat(40)}\n第一条　本法是根本法。`;
    const parts = await run("law.txt", preamble, { method: "laws", chunkSize: 128 });
    expect(parts.length).toBeGreaterThan(3);
    for (const p of parts) expect(p.tokens).toBeLessThanOrEqual(128);
    expect(parts.at(-1)!.content).toBe("第一条 本法是根本法。");
  });

  it("markdown: a '#' heading names the law instead of standing alone; '##' chapters and a preamble keep working", async () => {
    const md = [
      "# 示例数据安全条例",
      "",
      "（2024年1月1日发布）",
      "",
      "## 第一章　总　则",
      "",
      "第一条　为了保障数据安全，制定本条例。",
      "",
      "第二条　本条例适用于境内的数据处理活动。",
      "",
      "## 第二章　附　则",
      "",
      "第三条　本条例自发布之日起施行。",
      "",
      "### 附件",
      "",
      "数据分类目录。",
    ].join("\n");
    const out = await run("law.md", md, { method: "laws" });
    expect(out.map((s) => s.content)).not.toContain("示例数据安全条例");
    expect(out.every((s) => !/^#/m.test(s.content))).toBe(true);
    expect(out[0]).toMatchObject({ content: "（2024年1月1日发布）", title: "示例数据安全条例" });
    expect(out[1]).toMatchObject({
      content: "第一章 总则\n第一条 为了保障数据安全，制定本条例。",
      title: "示例数据安全条例 > 第一章 总则",
    });
    expect(out.at(-1)).toMatchObject({ content: "第二章 附则\n第三条 本条例自发布之日起施行。\n附件\n数据分类目录。" });
    expect(out).toHaveLength(4);
  });
});

describe("book, manual, paper", () => {
  it("book: drops the table of contents, chunks carry their chain of headings", async () => {
    const text = `示例之书\n\n目录\n第一章 起源 ........ 1\n第一节 远古 ........ 2\n第二章 发展 ........ 9\n\n第一章 起源\n\n第一节 远古\n\n很久以前，人们在河边生活。\n\n第二章 发展\n\n城市逐渐出现。`;
    const segs = await run("book.txt", text, { method: "book" });
    expect(segs.map((s) => s.content).join("\n")).not.toContain("........");
    expect(segs).toContainEqual(
      expect.objectContaining({ title: "第一章 起源 > 第一节 远古", content: "第一章 起源 > 第一节 远古\n很久以前，人们在河边生活。" }),
    );
    expect(segs).toContainEqual(expect.objectContaining({ title: "第二章 发展" }));
  });

  it("manual: docx heading styles give the title path that prefixes each chunk; numbered lists keep their numbers", async () => {
    const docx = await docxOf([
      { heading: 1, text: "安装指南" },
      { heading: 2, text: "硬件要求" },
      { text: "内存不少于 8 GB。" },
      { heading: 2, text: "软件要求" },
      { text: "操作系统为 Linux。" },
      { heading: 1, text: "故障排除" },
      { text: "重启设备。" },
      { text: "断开电源", numbered: true },
      { text: "等待十秒", numbered: true },
    ]);
    const segs = await run("m.docx", docx, { method: "manual" });
    // The numbered list's numbers are kept (Word stores them as list markup, not text).
    expect(segs.map((s) => s.content)).toEqual([
      "安装指南 > 硬件要求\n内存不少于 8 GB。",
      "安装指南 > 软件要求\n操作系统为 Linux。",
      "故障排除\n重启设备。\n1. 断开电源\n2. 等待十秒",
    ]);
  });

  it("manual: numbering gives the path when there are no heading styles", async () => {
    const segs = await run("m.txt", "1 概述\n本设备用于测量。\n1.1 用途\n测量温度。\n2 安装\n固定在墙上。", { method: "manual" });
    expect(segs.map((s) => s.title)).toEqual(["1 概述", "1 概述 > 1.1 用途", "2 安装"]);
  });

  it("manual and book lose no text: a numbered list is body text, a heading with nothing under it is a chunk of its path", async () => {
    const text = "1 开机\n按下列步骤开机：\n1.1 准备\n1.2 通电\n检查电源线。\n2 关机\n1. 保存数据\n2. 按下电源键\n3 维护";
    const segs = await run("m.txt", text, { method: "manual" });
    expect(segs.map((s) => s.content)).toEqual([
      "1 开机\n按下列步骤开机：\n1.1 准备\n1.2 通电\n检查电源线。",
      "2 关机\n1. 保存数据\n2. 按下电源键",
      "3 维护",
    ]);
    expect((await run("b.txt", "1. 保存数据\n2. 按下电源键", { method: "book" })).map((s) => s.content)).toEqual([
      "1. 保存数据\n2. 按下电源键",
    ]);
    const md = await run("m.md", "# 手册\n\n## 第一部分\n\n## 第二部分\n\n内容。", { method: "manual" });
    expect(md.map((s) => s.content)).toEqual(["手册 > 第一部分", "手册 > 第二部分\n内容。"]);
  });

  it("paper: title, authors and abstract first, then sections", async () => {
    const md = `# 基于检索增强的问答系统\n\n张三 李四\n\n示例大学 计算机学院\n\n摘要：本文提出一种检索增强方法。\n\n关键词：检索；问答\n\n## 1 引言\n\n问答系统很重要。\n\n## 2 方法\n\n### 2.1 检索\n\n使用混合检索。\n\n## 参考文献\n\n[1] 某某. 论文.`;
    const segs = await run("p.md", md, { method: "paper" });
    expect(segs[0].content).toBe(
      "基于检索增强的问答系统\n张三 李四\n示例大学 计算机学院\n摘要：本文提出一种检索增强方法。\n关键词：检索；问答",
    );
    expect(segs.slice(1).map((s) => s.title)).toEqual(["1 引言", "2 方法 > 2.1 检索", "参考文献"]);
  });
});

describe("resume", () => {
  it("one chunk per field group and per job, each with the summary line", async () => {
    const text = `王小明
电话：138-0013-8000  邮箱：wxm@example.com
求职意向：后端工程师

教育背景
2010.09 - 2014.06 北京示例大学 计算机科学 本科

工作经历
2018.03 - 至今 上海示例科技有限公司 高级工程师
负责支付系统设计。
2014.07 - 2018.02 杭州某某网络有限公司 工程师
开发订单服务。

专业技能
Java、Go、PostgreSQL`;
    const segs = await run("r.txt", text, { method: "resume" });
    const summary = "姓名：王小明｜电话：13800138000｜公司：上海示例科技有限公司｜学历：北京示例大学 本科｜工作年限：4年";
    for (const s of segs) expect(s.content.split("\n")[0]).toBe(summary);
    expect(segs.map((s) => s.title)).toEqual(["基本信息", "教育背景", "工作经历", "工作经历", "专业技能"]);
    expect(segs[3].content).toContain("杭州某某网络有限公司");
    expect(segs[3].content.split("\n").slice(1).join("\n")).not.toContain("上海示例科技");
  });

  it("a Word resume: the form table of label/value cells and the job table feed the summary line", async () => {
    const docx = await docxOf([
      { text: "个人简历" },
      {
        table: [
          ["姓名", "李华", "性别", "女"],
          ["电话", "139-1234-5678", "工作年限", "6年"],
          ["学历", "硕士", "毕业院校", "南方示例大学"],
        ],
      },
      { heading: 2, text: "工作经历" },
      {
        table: [
          ["时间", "公司", "职位"],
          ["2020.07 - 至今", "广州示例信息技术有限公司", "数据工程师"],
          ["2018.07 - 2020.06", "深圳某某数据有限公司", "分析师"],
        ],
      },
      { heading: 2, text: "专业技能" },
      { text: "Python、SQL、Spark" },
    ]);
    const segs = await run("resume.docx", docx, { method: "resume" });
    const summary = "姓名：李华｜电话：13912345678｜公司：广州示例信息技术有限公司｜学历：南方示例大学 硕士｜工作年限：6年";
    for (const s of segs) expect(s.content.split("\n")[0]).toBe(summary);
    expect(segs.map((s) => s.title)).toEqual(["基本信息", "工作经历", "工作经历", "专业技能"]);
    expect(segs[0].content).toContain("姓名：李华｜性别：女");
    // The job table's header leads the first job.
    expect(segs[1].content).toBe(`${summary}\n工作经历\n时间 公司 职位\n2020.07 - 至今 广州示例信息技术有限公司 数据工程师`);
    expect(segs[2].content).toBe(`${summary}\n工作经历\n2018.07 - 2020.06 深圳某某数据有限公司 分析师`);
  });
});

describe("ppt and full_text", () => {
  it("ppt: one chunk per slide in show order, table rows as 表头: 单元格", async () => {
    const data = await pptxOf([
      { title: "季度汇报", bullets: ["营收增长 20%", "新客户 35 家"] },
      {
        title: "区域数据",
        table: [
          ["区域", "销售额"],
          ["华东", "120万"],
          ["华南", "80万"],
        ],
      },
    ]);
    const segs = await run("s.pptx", data, { method: "ppt" });
    expect(segs.map((s) => s.content)).toEqual([
      "季度汇报\n营收增长 20%\n新客户 35 家",
      "区域数据\n区域: 华东\n销售额: 120万\n\n区域: 华南\n销售额: 80万",
    ]);
  });

  it("ppt: a table's merged cells repeat the merged text under each column they cover", async () => {
    const data = await pptxOf([
      {
        title: "排班",
        table: [
          ["日期", "早班", "晚班"],
          ["周一", "张三", "<"],
          ["^", "李四", "王五"],
        ],
      },
    ]);
    expect((await run("s.pptx", data, { method: "ppt" }))[0].content).toBe(
      "排班\n日期: 周一\n早班: 张三\n晚班: 张三\n\n日期: 周一\n早班: 李四\n晚班: 王五",
    );
  });

  it("full_text: the whole document is one chunk", async () => {
    const segs = await run("law.txt", LAW, { method: "full_text" });
    expect(segs).toHaveLength(1);
    expect(segs[0].content).toContain("第六条");
  });
});

describe("parsing", () => {
  it("reads UTF-16 with and without BOM, Big5 and GBK, and refuses bytes in no encoding it knows", async () => {
    const text = "第一条　為了規範管理，制定本辦法。\n第二条 Scope: all staff.\n";
    const plain = (data: Uint8Array) =>
      parseDocument({ name: "a.txt", data }).then((d) => d.blocks.map((b) => ("text" in b ? b.text : "")));
    const expected = [text.trim()];
    const le = iconv.encode(text, "utf-16le");
    const be = iconv.encode(text, "utf-16be");
    for (const data of [le, be, Buffer.concat([Buffer.from([0xff, 0xfe]), le]), Buffer.concat([Buffer.from([0xfe, 0xff]), be])]) {
      expect(await plain(data), data.subarray(0, 4).toString("hex")).toEqual(expected);
    }
    // Traditional Chinese saved as Big5 (a Taiwan or Hong Kong regulation), and the same as GBK: each read as itself.
    const traditional = "中華民國勞動基準法：第一條，為規定勞動條件最低標準，保障勞工權益，加強勞雇關係，促進社會與經濟發展，特制定本法。";
    expect(await plain(iconv.encode(traditional, "big5"))).toEqual([traditional]);
    const simplified =
      "中华人民共和国劳动法：第一条，为了保护劳动者的合法权益，调整劳动关系，建立和维护适应社会主义市场经济的劳动制度，制定本法。";
    expect(await plain(iconv.encode(simplified, "gbk"))).toEqual([simplified]);
    expect(await plain(iconv.encode(simplified, "gb18030"))).toEqual([simplified]);
    const csv = await run("t.csv", iconv.encode("姓名,職稱\n陳大文,經理\n", "big5"), { method: "table" });
    expect(csv.map((s) => s.content)).toEqual(["姓名: 陳大文\n職稱: 經理"]);
    // Binary bytes (a file misnamed .txt) and UTF-16 cut in half are refused, not stored as mojibake.
    let seed = 7;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >> 16) & 0xff;
    };
    const random = Uint8Array.from({ length: 4000 }, next);
    expect(await reason(parseDocument({ name: "a.txt", data: random }))).toBe("unreadable");
    expect(await reason(parseDocument({ name: "a.txt", data: random.map((b) => b || 1) }))).toBe("unreadable");
    expect(await reason(parseDocument({ name: "a.txt", data: le.subarray(1) }))).toBe("unreadable");
  });

  it("reads GB18030 text, HTML headings and tables", async () => {
    const gbk = new Uint8Array([0xd6, 0xd0, 0xce, 0xc4, 0xb2, 0xe2, 0xca, 0xd4]); // "中文测试" in GBK
    expect((await parseDocument({ name: "a.txt", data: gbk })).blocks).toEqual([{ kind: "paragraph", text: "中文测试" }]);
    const html = utf8(
      "<html><head><script>x()</script></head><body><h2>标题</h2><p>段落<br>第二行</p><table><tr><th>名</th><th>值</th></tr><tr><td>a</td><td>1</td></tr></table></body></html>",
    );
    expect((await parseDocument({ name: "a.html", data: html })).blocks).toEqual([
      { kind: "heading", level: 2, text: "标题" },
      { kind: "paragraph", text: "段落\n第二行" },
      { kind: "table", header: ["名", "值"], rows: [["a", "1"]] },
    ]);
  });

  it("rejects unsupported and disguised files, and Office files that unpack too much", async () => {
    expect(await reason(parseDocument({ name: "a.exe", data: utf8("MZ") }))).toBe("unsupportedFormat");
    expect(await reason(parseDocument({ name: "a.pdf", data: utf8("not a pdf") }))).toBe("unreadable");
    // A small bomb against a small limit: the guard counts inflated bytes as they stream, whatever the headers say.
    const zip = new JSZip();
    zip.file("word/document.xml", new Uint8Array(4 * 1024 * 1024));
    const bomb = await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" });
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(await reason(openZip(bomb, undefined, { bytes: 1024 * 1024, entries: 100 }))).toBe("tooLarge");
    await expect(openZip(bomb, undefined, { bytes: 8 * 1024 * 1024, entries: 100 })).resolves.toBeDefined();
    const many = new JSZip();
    for (let i = 0; i < 11; i++) many.file(`x/${i}.xml`, "");
    expect(await reason(openZip(await many.generateAsync({ type: "uint8array" }), undefined, { bytes: 1024, entries: 10 }))).toBe(
      "tooLarge",
    );
  });

  it("reports an aborted parse", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await reason(ingest({ name: "a.txt", data: utf8("正文") }, { method: "auto" }, { signal: controller.signal }))).toBe("aborted");
  });

  it("reports a file without text as empty", async () => {
    expect(await reason(run("a.txt", "   \n\n ", { method: "auto" }))).toBe("empty");
  });
});

describe("countTokens", () => {
  it("counts exactly as js-tiktoken's cl100k encoder", async () => {
    const { Tiktoken } = await import("js-tiktoken/lite");
    const { default: ranks } = await import("js-tiktoken/ranks/cl100k_base");
    const reference = new Tiktoken(ranks);
    const samples = [
      "中华人民共和国民法典第一千二百六十条规定，本法自2021年1月1日起施行。",
      "Hello, world! It's 3.14159 — naïve café; don't   stop\n\n\tindentation",
      "混合 text 与 English words，还有数字 12345678 和 emoji 🎉👍🏽 以及 ⼀ radicals",
      "用户应当按照说明书操作设备，确保设备安全运行并定期检查电源。".repeat(6),
      "https://example.com/a?b=1&c=2 support@example.com ####### ......",
    ];
    for (const text of samples) expect(countTokens(text), text.slice(0, 20)).toBe(reference.encode(text).length);
    expect(countTokens("<|endoftext|>")).toBeGreaterThan(1);
  });
});

describe("Word's automatic numbering", () => {
  const LAW_LIST = { law: [{ format: "chineseCounting", text: "第%1条" }] };

  it("laws: articles numbered 第%1条 by Word under typed chapters are one chunk each, counting on across chapters", async () => {
    const article = (text: string) => ({ text, numbered: { list: "law" } });
    const docx = await docxOf(
      [
        { text: "示例管理办法" },
        { text: "第一章　总　则" },
        article("为了规范管理，制定本办法。"),
        article("本办法适用于全体员工。"),
        { text: "第二章　附　则" },
        ...Array.from({ length: 8 }, (_, i) => article(`第${i + 3}项规定的内容。`)),
        article("本办法自发布之日起施行。"),
      ],
      { lists: LAW_LIST },
    );
    const segs = await run("law.docx", docx, { method: "laws" });
    expect(segs.map((s) => s.content)).toEqual([
      "第一章 总则\n第一条 为了规范管理，制定本办法。",
      "第一章 总则\n第二条 本办法适用于全体员工。",
      ...Array.from(
        { length: 8 },
        (_, i) => `第二章 附则\n第${["三", "四", "五", "六", "七", "八", "九", "十"][i]}条 第${i + 3}项规定的内容。`,
      ),
      "第二章 附则\n第十一条 本办法自发布之日起施行。",
    ]);
    expect(segs[0].title).toBe("示例管理办法 > 第一章 总则");
  });

  it("nested %1. / %1.%2 lists restart the inner level when the outer advances; （%1） items count in Chinese and restart", async () => {
    const docx = await docxOf(
      [
        { text: "准备", numbered: { list: "outline" } },
        { text: "检查电源", numbered: { list: "outline", level: 1 } },
        { text: "检查网络", numbered: { list: "outline", level: 1 } },
        { text: "安装", numbered: { list: "outline" } },
        { text: "固定设备", numbered: { list: "outline", level: 1 } },
        { text: "申请人应当提交下列材料：" },
        ...["申请书", "身份证明", "其他材料"].map((text) => ({ text, numbered: { list: "items" } })),
        { text: "变更时提交：" },
        ...["变更申请", "原证书"].map((text) => ({ text, numbered: { list: "items", instance: 1 } })),
      ],
      {
        lists: {
          outline: [
            { format: "decimal", text: "%1." },
            { format: "decimal", text: "%1.%2" },
          ],
          items: [{ format: "chineseCounting", text: "（%1）" }],
        },
      },
    );
    const doc = await parseDocument({ name: "a.docx", data: docx });
    expect(doc.blocks.map((b) => ("text" in b ? b.text : ""))).toEqual([
      "1. 准备",
      "1.1 检查电源",
      "1.2 检查网络",
      "2. 安装",
      "2.1 固定设备",
      "申请人应当提交下列材料：",
      "（一） 申请书",
      "（二） 身份证明",
      "（三） 其他材料",
      "变更时提交：",
      "（一） 变更申请",
      "（二） 原证书",
    ]);
  });

  it("counts a numbered paragraph in a text box once, though Word stores it twice (mc:Choice and mc:Fallback)", async () => {
    const zip = await JSZip.loadAsync(await docxOf(["甲", "乙", "丙"].map((text) => ({ text, numbered: true }))));
    const xml = await zip.file("word/document.xml")!.async("string");
    const first = /<w:p>.*?<\/w:p>/.exec(xml)![0];
    const boxed = `<mc:AlternateContent><mc:Choice Requires="wps">${first}</mc:Choice><mc:Fallback>${first}</mc:Fallback></mc:AlternateContent>`;
    zip.file("word/document.xml", xml.replace(first, boxed));
    const doc = await parseDocument({ name: "a.docx", data: await zip.generateAsync({ type: "uint8array" }) });
    expect(doc.blocks.map((b) => ("text" in b ? b.text : ""))).toEqual(["1. 甲", "2. 乙", "3. 丙"]);
  });

  it("manual: heading styles numbered by Word (第%1章 / %1.%2 in legal form) give numbered title paths", async () => {
    const docx = await docxOf(
      [
        { heading: 1, text: "安装" },
        { heading: 2, text: "硬件要求" },
        { text: "内存不少于 8 GB。" },
        { heading: 2, text: "软件要求" },
        { text: "操作系统为 Linux。" },
        { heading: 1, text: "维护" },
        { heading: 2, text: "清洁" },
        { text: "每月清洁一次。" },
      ],
      {
        lists: {
          headings: [
            { format: "chineseCounting", text: "第%1章" },
            { format: "decimal", text: "%1.%2", legal: true },
          ],
        },
        headingList: "headings",
      },
    );
    const segs = await run("m.docx", docx, { method: "manual" });
    expect(segs.map((s) => s.title)).toEqual(["第一章 安装 > 1.1 硬件要求", "第一章 安装 > 1.2 软件要求", "第二章 维护 > 2.1 清洁"]);
    expect(segs[0].content).toBe("第一章 安装 > 1.1 硬件要求\n内存不少于 8 GB。");
    // Without legal form %1 keeps its own level's format, as Word shows it.
    const plain = await docxOf(
      [
        { heading: 1, text: "安装" },
        { heading: 2, text: "接线" },
      ],
      {
        lists: {
          headings: [
            { format: "chineseCounting", text: "第%1章" },
            { format: "decimal", text: "%1.%2" },
          ],
        },
        headingList: "headings",
      },
    );
    expect((await run("m.docx", plain, { method: "manual" }))[0].title).toBe("第一章 安装 > 一.1 接线");
  });

  it("formats counters as Word does", () => {
    const chinese = [1, 10, 11, 19, 20, 21, 99, 100, 101, 110, 111, 1000, 1001, 1010, 10_000, 10_005, 20_300].map((n) =>
      formatNumber(n, "chineseCounting"),
    );
    expect(chinese).toEqual([
      "一",
      "十",
      "十一",
      "十九",
      "二十",
      "二十一",
      "九十九",
      "一百",
      "一百零一",
      "一百一十",
      "一百一十一",
      "一千",
      "一千零一",
      "一千零一十",
      "一万",
      "一万零五",
      "二万零三百",
    ]);
    expect([1, 3, 27].map((n) => formatNumber(n, "upperLetter"))).toEqual(["A", "C", "AA"]);
    expect([4, 9, 14].map((n) => formatNumber(n, "lowerRoman"))).toEqual(["iv", "ix", "xiv"]);
    expect([1, 10].map((n) => formatNumber(n, "ideographTraditional"))).toEqual(["甲", "癸"]);
    expect([1, 20].map((n) => formatNumber(n, "decimalEnclosedCircle"))).toEqual(["①", "⑳"]);
  });
});
