import { unpacksWithin } from "../platform/zip.ts";
import type { Attachment } from "./prompt.ts";

/**
 * Attachments as the model sees them: images as images (vision models), documents as extracted
 * text (pdf, docx, xlsx, pptx, txt). Other types (audio, zip, legacy doc/xls/ppt) are named only.
 */
const TEXT_MAX = 50_000;
/** Most bytes the entries of an Office (zip) upload may unpack to: a zip bomb is not opened. */
export const ZIP_UNPACKED_MAX = 100 * 1024 * 1024;
/** Most pages of a PDF that are read. */
export const PDF_PAGES_MAX = 300;

export function extensionOf(name: string) {
  return (name.split(".").pop() ?? "").toLowerCase();
}

/** The upload's real type from its first bytes, so a renamed file cannot pass as another type. */
export function sniffType(data: Uint8Array, name: string): string | null {
  const ext = extensionOf(name);
  const head = (n: number) => Buffer.from(data.subarray(0, n));
  const starts = (...bytes: number[]) => bytes.every((b, i) => data[i] === b);
  if (starts(0xff, 0xd8, 0xff)) return ["jpg", "jpeg"].includes(ext) ? "image/jpeg" : null;
  if (starts(0x89, 0x50, 0x4e, 0x47)) return ext === "png" ? "image/png" : null;
  if (head(5).toString("latin1") === "%PDF-") return ext === "pdf" ? "application/pdf" : null;
  if (starts(0x50, 0x4b, 0x03, 0x04) || starts(0x50, 0x4b, 0x05, 0x06)) {
    const zipTypes: Record<string, string> = {
      docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
      zip: "application/zip",
    };
    return zipTypes[ext] ?? null;
  }
  if (starts(0xd0, 0xcf, 0x11, 0xe0)) {
    const ole: Record<string, string> = {
      doc: "application/msword",
      xls: "application/vnd.ms-excel",
      ppt: "application/vnd.ms-powerpoint",
    };
    return ole[ext] ?? null;
  }
  if (head(4).toString("latin1") === "RIFF" && Buffer.from(data.subarray(8, 12)).toString("latin1") === "WAVE")
    return ext === "wav" ? "audio/wav" : null;
  if (head(3).toString("latin1") === "ID3" || (data[0] === 0xff && (data[1] & 0xe0) === 0xe0)) return ext === "mp3" ? "audio/mpeg" : null;
  if (ext === "txt") {
    const text = Buffer.from(data.subarray(0, 4096));
    return text.includes(0) ? null : "text/plain";
  }
  return null;
}

export async function extractText(data: Uint8Array, name: string): Promise<string | null> {
  const ext = extensionOf(name);
  try {
    if (["docx", "xlsx", "pptx"].includes(ext)) {
      const JSZip = (await import("jszip")).default;
      if (!(await unpacksWithin(await JSZip.loadAsync(data), ZIP_UNPACKED_MAX))) return null;
    }
    if (ext === "txt") return new TextDecoder("utf-8").decode(data).slice(0, TEXT_MAX);
    if (ext === "pdf") return (await pdfText(data)).slice(0, TEXT_MAX);
    if (ext === "docx") {
      const mammoth = await import("mammoth");
      const { value } = await mammoth.extractRawText({ buffer: Buffer.from(data) });
      return value.slice(0, TEXT_MAX);
    }
    if (ext === "xlsx") {
      const ExcelJS = (await import("exceljs")).default;
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(data) as unknown as ArrayBuffer);
      const lines: string[] = [];
      wb.eachSheet((sheet) => {
        lines.push(`# ${sheet.name}`);
        sheet.eachRow((row) => {
          const values = (row.values as unknown[]).slice(1).map((v) => cellText(v));
          lines.push(values.join("\t"));
        });
      });
      return lines.join("\n").slice(0, TEXT_MAX);
    }
    if (ext === "pptx") {
      const JSZip = (await import("jszip")).default;
      const zip = await JSZip.loadAsync(data);
      const slides = Object.keys(zip.files)
        .filter((f) => /^ppt\/slides\/slide\d+\.xml$/.test(f))
        .sort((a, b) => Number(a.match(/\d+/)?.[0]) - Number(b.match(/\d+/)?.[0]));
      const out: string[] = [];
      for (const [i, f] of slides.entries()) {
        const xml = await zip.files[f].async("string");
        const texts = [...xml.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((m) => decodeXml(m[1]));
        out.push(`## ${i + 1}\n${texts.join(" ")}`);
      }
      return out.join("\n").slice(0, TEXT_MAX);
    }
  } catch {
    return null;
  }
  return null;
}

/**
 * A PDF's text, page by page, and only as far as the prompt can use: at most PDF_PAGES_MAX pages,
 * stopping once TEXT_MAX characters are in, so a huge document costs no more than a short one.
 */
async function pdfText(data: Uint8Array) {
  const { getDocumentProxy } = await import("unpdf");
  const pdf = await getDocumentProxy(new Uint8Array(data));
  try {
    let text = "";
    for (let n = 1; n <= Math.min(pdf.numPages, PDF_PAGES_MAX) && text.length < TEXT_MAX * 2; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      for (const item of content.items) if ("str" in item) text += item.str + (item.hasEOL ? "\n" : "");
      text += "\n";
      page.cleanup();
    }
    // Padding would use up the budget. Chinese PDFs often map to Kangxi radical look-alikes:
    // NFKC folds them back.
    return text
      .replace(/[ \t]+/g, " ")
      .replace(/\n\s*\n\s*\n+/g, "\n\n")
      .normalize("NFKC");
  } finally {
    await pdf.destroy();
  }
}

function cellText(v: unknown): string {
  if (v == null) return "";
  if (typeof v === "object") {
    const o = v as { text?: string; result?: unknown; richText?: { text: string }[] };
    if (o.richText) return o.richText.map((r) => r.text).join("");
    if (o.text) return o.text;
    if (o.result !== undefined) return String(o.result);
    if (v instanceof Date) return v.toISOString().slice(0, 10);
  }
  return String(v);
}

const decodeXml = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");

/** One stored upload as an attachment for the prompt. */
export async function toAttachment(file: { name: string; contentType: string; data: Uint8Array }): Promise<Attachment> {
  if (file.contentType.startsWith("image/")) return { name: file.name, kind: "image", data: file.data, mimeType: file.contentType };
  const text = await extractText(file.data, file.name);
  return { name: file.name, kind: "text", text: text ?? `（${file.name}：无法提取文本内容）` };
}
