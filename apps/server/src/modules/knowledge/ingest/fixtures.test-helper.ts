/** Documents the ingestion tests generate: PDFs and screenshots printed by Chromium, docx, xlsx, pptx. */
import { AlignmentType, Document, HeadingLevel, ImageRun, LevelFormat, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from "docx";
import ExcelJS from "exceljs";
import JSZip from "jszip";
import { type Browser, chromium } from "playwright-core";

let browser: Promise<Browser> | undefined;

function launch(): Promise<Browser> {
  browser ??= chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/lib/chromium/chromium-headless-shell",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
    ],
  });
  return browser;
}

export async function closeBrowser(): Promise<void> {
  if (browser) await (await browser).close();
  browser = undefined;
}

const PAGE_STYLE = `<style>
  body { font-family: "Noto Sans CJK SC", "Noto Sans SC", sans-serif; font-size: 14px; line-height: 1.6; }
  h1 { font-size: 26px; } h2 { font-size: 20px; } h3 { font-size: 17px; }
  p { margin: 0 0 8px; }
</style>`;

/** A PDF printed by Chromium from HTML; `outline` embeds bookmarks from the headings; header/footer templates repeat on every page. */
export async function pdfFromHtml(
  body: string,
  options: { outline?: boolean; header?: string; footer?: string } = {},
): Promise<Uint8Array> {
  const page = await (await launch()).newPage();
  try {
    await page.setContent(`<!doctype html><html lang="zh"><head><meta charset="utf-8">${PAGE_STYLE}</head><body>${body}</body></html>`);
    const template = (text = "") => `<div style="font-size:10px;width:100%;text-align:center;font-family:'Noto Sans CJK SC'">${text}</div>`;
    const pdf = await page.pdf({
      format: "A4",
      outline: options.outline ?? false,
      tagged: options.outline ?? false,
      displayHeaderFooter: Boolean(options.header || options.footer),
      headerTemplate: template(options.header),
      footerTemplate: template(options.footer),
      margin: { top: "60px", bottom: "60px", left: "50px", right: "50px" },
    });
    return new Uint8Array(pdf);
  } finally {
    await page.close();
  }
}

/** A PNG "scan": Chinese text rendered by Chromium and photographed as a screenshot. */
export async function screenshotOf(body: string, width = 900): Promise<Uint8Array> {
  const page = await (await launch()).newPage({ viewport: { width, height: 400 }, deviceScaleFactor: 1 });
  try {
    await page.setContent(
      `<!doctype html><html><head><meta charset="utf-8">${PAGE_STYLE}<style>body{font-size:24px;margin:40px;background:#fff;color:#111}</style></head><body>${body}</body></html>`,
    );
    return new Uint8Array(await page.screenshot({ fullPage: true, type: "png" }));
  } finally {
    await page.close();
  }
}

/** A PDF whose pages are only images (no text layer), like a scanner makes. */
export async function scannedPdf(pages: Uint8Array[]): Promise<Uint8Array> {
  const imgs = pages
    .map((png) => `<img src="data:image/png;base64,${Buffer.from(png).toString("base64")}" style="width:100%;page-break-after:always">`)
    .join("");
  return pdfFromHtml(imgs);
}

/** A table cell: its text, or its text and the rows it spans down (Word's vertically merged cells; the rows below omit it). */
export type DocxCell = string | { text: string; rowSpan: number };
/**
 * `numbered`: an item of the document's default list (Word's numbering "1.", "2.", …), or of one of the lists given
 * to `docxOf` at a level (0–8); another `instance` of a list is Word's "restart numbering" (a startOverride).
 */
export type DocxItem =
  | { heading?: 1 | 2 | 3; text: string; numbered?: boolean | { list: string; level?: number; instance?: number } }
  | { table: DocxCell[][] }
  | { png: Uint8Array; width: number; height: number };

/**
 * A list's levels in numbering.xml: Word's number format (`decimal`, `chineseCounting`, …), text (`第%1条`, `%1.%2`),
 * and `legal` for Word's 正规形式编号 (every %N of the level in Arabic digits).
 */
export type DocxList = { format: string; text: string; start?: number; legal?: boolean }[];

/**
 * A Word document with real heading styles (Heading 1–3) and tables (with vertically merged cells). `lists` are
 * automatic numberings items can use; `headingList` numbers the heading styles themselves (Heading n at level n-1).
 */
export async function docxOf(
  items: DocxItem[],
  options: { lists?: Record<string, DocxList>; headingList?: string } = {},
): Promise<Uint8Array> {
  const levels = { 1: HeadingLevel.HEADING_1, 2: HeadingLevel.HEADING_2, 3: HeadingLevel.HEADING_3 } as const;
  const children = items.map((item) =>
    "png" in item
      ? new Paragraph({
          children: [new ImageRun({ type: "png", data: item.png, transformation: { width: item.width, height: item.height } })],
        })
      : "table" in item
        ? new Table({
            rows: item.table.map(
              (row) =>
                new TableRow({
                  children: row.map((c) =>
                    typeof c === "string"
                      ? new TableCell({ children: [new Paragraph(c)] })
                      : new TableCell({ children: [new Paragraph(c.text)], rowSpan: c.rowSpan }),
                  ),
                }),
            ),
          })
        : new Paragraph({
            children: [new TextRun(item.text)],
            ...(item.heading ? { heading: levels[item.heading] } : {}),
            ...(item.numbered === true ? { numbering: { reference: "steps", level: 0 } } : {}),
            ...(typeof item.numbered === "object"
              ? { numbering: { reference: item.numbered.list, level: item.numbered.level ?? 0, instance: item.numbered.instance } }
              : {}),
            alignment: AlignmentType.LEFT,
          }),
  );
  const lists: Record<string, DocxList> = { steps: [{ format: LevelFormat.DECIMAL, text: "%1." }], ...options.lists };
  const numbering = {
    config: Object.entries(lists).map(([reference, levels]) => ({
      reference,
      levels: levels.map((l, level) => ({
        level,
        format: l.format as (typeof LevelFormat)[keyof typeof LevelFormat],
        text: l.text,
        start: l.start ?? 1,
        isLegalNumberingStyle: l.legal,
        alignment: AlignmentType.START,
      })),
    })),
  };
  const headingList = options.headingList;
  const heading = (level: number) => (headingList ? { paragraph: { numbering: { reference: headingList, level } } } : {});
  const styles = headingList ? { default: { heading1: heading(0), heading2: heading(1), heading3: heading(2) } } : undefined;
  const doc = new Document({ numbering, styles, sections: [{ children }] });
  return new Uint8Array(await Packer.toBuffer(doc));
}

/** A workbook with one sheet per entry; cells may be numbers, dates, booleans or text. */
export async function xlsxOf(
  sheets: Record<string, (string | number | boolean | Date | null)[][]>,
  pictures: Record<string, Uint8Array> = {},
): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const sheet = workbook.addWorksheet(name);
    for (const row of rows) sheet.addRow(row);
    const png = pictures[name];
    if (png) {
      const id = workbook.addImage({ buffer: Buffer.from(png) as unknown as ExcelJS.Buffer, extension: "png" });
      sheet.addImage(id, { tl: { col: 0, row: rows.length + 1 }, ext: { width: 600, height: 200 } });
    }
  }
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

export interface SlideSpec {
  title: string;
  bullets?: string[];
  /** Cells "<" and "^" are covered by a merge with the cell to their left or above (hMerge, vMerge), as PowerPoint writes them. */
  table?: string[][];
  /** A PNG placed on the slide (stored once in ppt/media, however many slides show it). */
  picture?: Uint8Array;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const tableCell = (c: string) => {
  const merge = c === "<" ? ' hMerge="1"' : c === "^" ? ' vMerge="1"' : "";
  return `<a:tc${merge}><a:txBody><a:p>${merge ? "" : `<a:r><a:t>${esc(c)}</a:t></a:r>`}</a:p></a:txBody></a:tc>`;
};

/** A presentation written as PresentationML: a title placeholder, a text box and optionally a table per slide. */
export async function pptxOf(slides: SlideSpec[]): Promise<Uint8Array> {
  const zip = new JSZip();
  const ns = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`;
  zip.file(
    "[Content_Types].xml",
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/>${slides.map((_, i) => `<Override PartName="/ppt/slides/slide${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/>`).join("")}</Types>`,
  );
  // Slide i of the show is stored as file slide(n - i): only the presentation's list gives the right order.
  const file = (i: number) => `slides/slide${slides.length - i}.xml`;
  zip.file(
    "ppt/presentation.xml",
    `<?xml version="1.0" encoding="UTF-8"?><p:presentation ${ns}><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join("")}</p:sldIdLst></p:presentation>`,
  );
  zip.file(
    "ppt/_rels/presentation.xml.rels",
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${slides.map((_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="${file(i)}"/>`).join("")}</Relationships>`,
  );
  slides.forEach((slide, i) => {
    const title = `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:t>${esc(slide.title)}</a:t></a:r></a:p></p:txBody></p:sp>`;
    const body = slide.bullets?.length
      ? `<p:sp><p:nvSpPr><p:cNvPr id="3" name="Body"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr><p:txBody>${slide.bullets.map((b) => `<a:p><a:r><a:t>${esc(b)}</a:t></a:r></a:p>`).join("")}</p:txBody></p:sp>`
      : "";
    const table = slide.table
      ? `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl>${slide.table.map((row) => `<a:tr h="370840">${row.map(tableCell).join("")}</a:tr>`).join("")}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`
      : "";
    let picture = "";
    if (slide.picture) {
      const media = `image${slides.indexOf(slides.find((x) => x.picture === slide.picture)!) + 1}.png`;
      zip.file(`ppt/media/${media}`, slide.picture);
      zip.file(
        `ppt/slides/_rels/${file(i).slice("slides/".length)}.rels`,
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdPic" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="../media/${media}"/></Relationships>`,
      );
      picture = `<p:pic><p:nvPicPr><p:cNvPr id="5" name="Picture"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="rIdPic"/></p:blipFill><p:spPr/></p:pic>`;
    }
    zip.file(
      `ppt/${file(i)}`,
      `<?xml version="1.0" encoding="UTF-8"?><p:sld ${ns}><p:cSld><p:spTree>${title}${body}${table}${picture}</p:spTree></p:cSld></p:sld>`,
    );
  });
  return new Uint8Array(await zip.generateAsync({ type: "uint8array", compression: "DEFLATE" }));
}
