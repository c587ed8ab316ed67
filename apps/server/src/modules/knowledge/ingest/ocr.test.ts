import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeBrowser, docxOf, pdfFromHtml, pptxOf, scannedPdf, screenshotOf, xlsxOf } from "./fixtures.test-helper.ts";
import { ingest, parseDocument } from "./index.ts";

// OCR runs PaddleOCR's Chinese models on onnxruntime: a few seconds per page here, so few pages.
const SCAN = `<p>第一章 安全须知</p><p>使用本设备前，请仔细阅读说明书。</p><p>1.1 电源要求</p><p>电源电压为交流220伏。</p>`;

let png: Uint8Array;
let scanned: Uint8Array;
beforeAll(async () => {
  png = await screenshotOf(SCAN);
  scanned = await scannedPdf([png]);
}, 60_000);
afterAll(closeBrowser);

const squash = (s: string) => s.replace(/\s+/g, "");

describe("OCR", () => {
  it("reads a picture of Chinese text", async () => {
    const doc = await parseDocument({ name: "scan.png", data: png });
    expect(doc.ocrPages).toEqual([1]);
    const text = squash(doc.blocks.map((b) => ("text" in b ? b.text : "")).join("\n"));
    for (const line of ["第一章安全须知", "使用本设备前，请仔细阅读说明书。", "电源电压为交流220伏。"]) expect(text).toContain(line);
  }, 60_000);

  it("reads the pictures of a Word document that is a pasted scan", async () => {
    const docx = await docxOf([{ text: "扫描件" }, { png, width: 600, height: 200 }]);
    const doc = await parseDocument({ name: "scan.docx", data: docx });
    expect(doc.ocrPages).toEqual([1]);
    expect(squash(doc.blocks.map((b) => ("text" in b ? b.text : "")).join(""))).toContain("使用本设备前，请仔细阅读说明书。");
  }, 60_000);

  it("reads the pictures of a slide that is mostly pictures, once however many slides show them; not a slide of text", async () => {
    const pptx = await pptxOf([
      { title: "扫描页", picture: png },
      { title: "说明", bullets: ["本页文字足够多，图片只是配图。".repeat(12)], picture: png },
      { title: "扫描页（重复）", picture: png },
    ]);
    const doc = await parseDocument({ name: "deck.pptx", data: pptx });
    expect(doc.ocrPages).toEqual([1, 3]);
    const slides = await ingest({ name: "deck.pptx", data: pptx }, { method: "ppt" });
    expect(slides).toHaveLength(3);
    expect(slides[0].content.startsWith("扫描页\n")).toBe(true);
    expect(squash(slides[0].content)).toContain("使用本设备前，请仔细阅读说明书。");
    expect(squash(slides[1].content)).not.toContain("使用本设备前");
    expect(squash(slides[2].content)).toContain("电源电压为交流220伏。");
  }, 60_000);

  it("reads the pictures placed on a sheet, after the sheet's table", async () => {
    const xlsx = await xlsxOf(
      {
        设备: [
          ["型号", "电压"],
          ["A1", "220V"],
        ],
      },
      { 设备: png },
    );
    const doc = await parseDocument({ name: "devices.xlsx", data: xlsx });
    expect(doc.ocrPages).toEqual([1]);
    expect(doc.blocks.map((b) => b.kind)).toEqual(["table", "ocr"]);
    const segs = await ingest({ name: "devices.xlsx", data: xlsx }, { method: "auto" });
    expect(squash(segs.map((s) => s.content).join(""))).toContain("电源电压为交流220伏。");
  }, 60_000);

  it("reads a PDF page that has no text layer, and scanned_manual builds title paths from the numbering", async () => {
    const segs = await ingest({ name: "scan.pdf", data: scanned }, { method: "scanned_manual" });
    expect(segs.map((s) => squash(s.title ?? ""))).toEqual(["第一章安全须知", "第一章安全须知>1.1电源要求"]);
    expect(squash(segs[1].content)).toContain("电源电压为交流220伏");
  }, 60_000);

  it("scanned_manual reads even a page with a text layer by OCR", async () => {
    const pdf = await pdfFromHtml("<p>第二章 维护</p><p>每月清洁一次滤网。</p>");
    const segs = await ingest({ name: "t.pdf", data: pdf }, { method: "scanned_manual" });
    expect(squash(segs.map((s) => s.content).join(""))).toContain("每月清洁一次滤网");
    expect((await parseDocument({ name: "t.pdf", data: pdf })).ocrPages).toEqual([]);
  }, 60_000);
});
