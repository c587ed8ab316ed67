import type { InsightReport } from "@agentfair/contracts";
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun, WidthType } from "docx";
import { type Browser, chromium } from "playwright-core";
import PptxGenJS from "pptxgenjs";
import { blockTable, reportHtml } from "./report.ts";

const cell = (v: unknown) => (v === null || v === undefined ? "" : String(v));

/** Findings are a Markdown list: one paragraph per line, without the list marks. */
const textLines = (content: string) =>
  content
    .split("\n")
    .map((l) => l.replace(/^\s*(?:[-*+]|\d+\.)\s+/, "").trim())
    .filter(Boolean);

/** Rows a table in a Word document or on a slide keeps (the page and the HTML export keep all). */
const DOC_ROWS = 100;
const SLIDE_ROWS = 12;

/** A Word document: the title and question, the findings, and each chart or table as a table. */
export async function reportDocx(r: InsightReport): Promise<Buffer> {
  const children: (Paragraph | Table)[] = [
    new Paragraph({ text: r.title, heading: HeadingLevel.TITLE }),
    new Paragraph({ children: [new TextRun({ text: r.question, italics: true })] }),
  ];
  for (const b of r.blocks) {
    children.push(new Paragraph({ text: b.title, heading: HeadingLevel.HEADING_1 }));
    if (b.kind === "text") {
      for (const line of textLines(b.content)) children.push(new Paragraph({ text: line, bullet: { level: 0 } }));
      continue;
    }
    const t = blockTable(b);
    if (!t) continue;
    const row = (cells: unknown[], header = false) =>
      new TableRow({
        tableHeader: header,
        children: cells.map(
          (c) => new TableCell({ children: [new Paragraph({ children: [new TextRun({ text: cell(c), bold: header })] })] }),
        ),
      });
    children.push(
      new Table({
        width: { size: 100, type: WidthType.PERCENTAGE },
        rows: [row(t.columns, true), ...t.rows.slice(0, DOC_ROWS).map((cells) => row(cells))],
      }),
    );
  }
  return Packer.toBuffer(new Document({ creator: "Agentfair", title: r.title, sections: [{ children }] }));
}

/** A slide deck: a title slide, the findings, then one slide per chart (a native, editable chart) or table. */
export async function reportPptx(r: InsightReport): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.layout = "LAYOUT_WIDE";
  pptx.title = r.title;
  const title = pptx.addSlide();
  title.addText(r.title, { x: 0.6, y: 2.4, w: 12, h: 1.2, fontSize: 36, bold: true });
  title.addText(r.question, { x: 0.6, y: 3.7, w: 12, h: 0.8, fontSize: 18, color: "666666" });
  const kinds = { bar: pptx.ChartType.bar, line: pptx.ChartType.line, pie: pptx.ChartType.pie } as const;
  for (const b of r.blocks) {
    const slide = pptx.addSlide();
    slide.addText(b.title, { x: 0.5, y: 0.3, w: 12.3, h: 0.8, fontSize: 26, bold: true });
    if (b.kind === "text") {
      slide.addText(
        textLines(b.content).map((line) => ({ text: line, options: { bullet: true, breakLine: true } })),
        { x: 0.6, y: 1.3, w: 12, h: 5.6, fontSize: 18, valign: "top" },
      );
    } else if (b.kind === "chart") {
      slide.addChart(
        kinds[b.chartType],
        (b.chartType === "pie" ? b.series.slice(0, 1) : b.series).map((s) => ({ name: s.name, labels: b.categories, values: s.data })),
        { x: 0.6, y: 1.3, w: 12, h: 5.8, showLegend: b.series.length > 1 || b.chartType === "pie", showValue: b.chartType === "pie" },
      );
    } else {
      const t = blockTable(b);
      if (!t) continue;
      const head = t.columns.map((c) => ({ text: c, options: { bold: true, fill: { color: "F0F0F0" } } }));
      slide.addTable([head, ...t.rows.slice(0, SLIDE_ROWS).map((cells) => cells.map((c) => ({ text: cell(c) })))], {
        x: 0.6,
        y: 1.3,
        w: 12,
        fontSize: 14,
        border: { type: "solid", pt: 0.5, color: "CCCCCC" },
      });
    }
  }
  return (await pptx.write({ outputType: "nodebuffer" })) as Buffer;
}

/**
 * PDFs are printed by Chromium from the export page: it lays out Chinese text with the system's
 * fonts and paginates tables, which a JavaScript PDF writer would need embedded CJK fonts for.
 * One browser per process, started on the first export; pages run without scripts or network.
 */
export class ReportPrinter {
  private browser: Promise<Browser> | undefined;

  constructor(private readonly executablePath: string) {}

  private launch() {
    this.browser ??= chromium
      .launch({
        executablePath: this.executablePath,
        args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
      })
      .catch((err) => {
        this.browser = undefined;
        throw err;
      });
    return this.browser;
  }

  async pdf(r: InsightReport): Promise<Buffer> {
    const browser = await this.launch();
    const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
    try {
      const page = await context.newPage();
      await page.route("**/*", (route) => route.abort());
      await page.setContent(reportHtml(r), { waitUntil: "load", timeout: 30_000 });
      return await page.pdf({ format: "A4", printBackground: true, margin: { top: "16mm", bottom: "16mm", left: "12mm", right: "12mm" } });
    } finally {
      await context.close();
    }
  }

  async close() {
    const b = this.browser;
    this.browser = undefined;
    if (b) await (await b.catch(() => null))?.close();
  }
}
