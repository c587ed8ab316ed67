import ExcelJS from "exceljs";
import { IngestError, type Block, type ParsedDocument } from "../types.ts";
import { checkSignal, MAX_CELLS } from "./limits.ts";
import { isOcrPicture, recognize } from "./ocr.ts";
import { tableFromRows } from "./table.ts";
import type { OfficeZip } from "./zip.ts";

/** At most this many pictures of a workbook are read by OCR (each takes seconds). */
const MAX_OCR_PICTURES = 30;

/**
 * Every visible sheet of a workbook as a table named after the sheet; cells as the text a reader sees. The PNG and
 * JPEG pictures placed on a sheet (a scanned form, a screenshot of a table) are read by OCR after its table; a
 * picture placed several times is read once.
 */
export async function parseXlsx({ data }: OfficeZip, signal?: AbortSignal): Promise<ParsedDocument> {
  const workbook = new ExcelJS.Workbook();
  // exceljs's types want a Node Buffer of its own declaration; a Buffer view of the bytes is what it reads.
  await workbook.xlsx.load(Buffer.from(data.buffer, data.byteOffset, data.byteLength) as unknown as ExcelJS.Buffer);
  const blocks: Block[] = [];
  const read = new Set<number>();
  const ocrPages: number[] = [];
  let cells = 0;
  let sheetNo = 0;
  for (const sheet of workbook.worksheets) {
    if (sheet.state !== "visible") continue;
    sheetNo++;
    const rows: string[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const values: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell, col) => {
        values[col - 1] = cellText(cell.value);
      });
      cells += values.length;
      if (cells > MAX_CELLS) throw new IngestError("tooLarge", "the workbook has too many cells");
      rows.push(Array.from(values, (v) => v ?? ""));
    });
    const table = tableFromRows(rows, sheet.name);
    if (table) blocks.push(table);
    // Pictures in reading order: by their top-left cell.
    const placed = sheet
      .getImages()
      .map((img) => ({ id: Number(img.imageId), row: img.range.tl.nativeRow, col: img.range.tl.nativeCol }))
      .sort((a, b) => a.row - b.row || a.col - b.col);
    for (const { id } of placed) {
      if (read.has(id) || read.size >= MAX_OCR_PICTURES) continue;
      read.add(id);
      const media = workbook.getImage(id) as { buffer?: ArrayBuffer | Uint8Array; extension?: string } | undefined;
      const bytes = media?.buffer ? new Uint8Array(media.buffer) : undefined;
      if (!bytes || !isOcrPicture(bytes)) continue;
      checkSignal(signal);
      const text = await recognize(bytes);
      if (text) {
        blocks.push({ kind: "ocr", text, page: sheetNo });
        if (!ocrPages.includes(sheetNo)) ocrPages.push(sheetNo);
      }
    }
  }
  return { format: "xlsx", blocks, pages: Math.max(1, sheetNo), ocrPages };
}

export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return formatDate(value);
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(15)));
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "string") return value;
  if ("richText" in value) return value.richText.map((r) => r.text).join("");
  if ("formula" in value || "sharedFormula" in value) return cellText((value as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue);
  if ("hyperlink" in value) return typeof value.text === "string" ? value.text : cellText(value.text as ExcelJS.CellValue);
  if ("error" in value) return "";
  return String(value);
}

/** Dates as the sheet's author meant them: a day as YYYY-MM-DD, a moment with its time (UTC, as exceljs reads them). */
function formatDate(d: Date): string {
  const iso = d.toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso.slice(0, 19).replace("T", " ");
}
