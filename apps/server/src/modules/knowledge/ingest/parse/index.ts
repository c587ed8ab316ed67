import { IngestError, type DocumentFormat, type IngestContext, type IngestFile, type ParseOptions, type ParsedDocument } from "../types.ts";
import { parseCsv } from "./csv.ts";
import { parseDocx } from "./docx.ts";
import { parseHtml } from "./html.ts";
import { parseImage } from "./image.ts";
import { parsePdf } from "./pdf.ts";
import { parsePptx } from "./pptx.ts";
import { parseMarkdown, parseText } from "./text.ts";
import { parseXlsx } from "./xlsx.ts";
import { openZip } from "./zip.ts";
import { withDeadline } from "./limits.ts";

const BY_EXTENSION: Record<string, DocumentFormat> = {
  pdf: "pdf",
  docx: "docx",
  xlsx: "xlsx",
  csv: "csv",
  pptx: "pptx",
  txt: "txt",
  text: "txt",
  md: "md",
  markdown: "md",
  html: "html",
  htm: "html",
  png: "image",
  jpg: "image",
  jpeg: "image",
};

/**
 * The file's format from its content where the bytes tell (PDF, images, Office zips), else from its name.
 * A name that lies (a PDF called .docx) is read as what it is.
 */
export function detectFormat(file: IngestFile): DocumentFormat {
  const b = file.data;
  const ext = BY_EXTENSION[file.name.toLowerCase().split(".").pop() ?? ""];
  if (b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46) return "pdf";
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return "image";
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image";
  if (b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04) {
    if (ext === "docx" || ext === "xlsx" || ext === "pptx") return ext;
    throw new IngestError("unsupportedFormat", `${file.name} is a zip archive, not a document`);
  }
  if (!ext) throw new IngestError("unsupportedFormat", `${file.name}: unsupported file type`);
  if (ext === "pdf" || ext === "image" || ext === "docx" || ext === "xlsx" || ext === "pptx") {
    throw new IngestError("unreadable", `${file.name} is not a valid ${ext === "image" ? "image" : ext} file`);
  }
  return ext;
}

/** Reads any supported file into one structured document (blocks in reading order). */
export async function parseDocument(file: IngestFile, options: ParseOptions = {}, ctx: IngestContext = {}): Promise<ParsedDocument> {
  const format = detectFormat(file);
  return withDeadline(ctx, async (signal) => {
    switch (format) {
      case "pdf":
        return parsePdf(file.data, options, { ...ctx, signal });
      case "image":
        return parseImage(file.data, signal);
      case "docx":
        return parseDocx(await openZip(file.data, signal), signal);
      case "xlsx":
        return parseXlsx(await openZip(file.data, signal), signal);
      case "pptx":
        return parsePptx(await openZip(file.data, signal), signal);
      case "csv":
        return parseCsv(file.data);
      case "html":
        return parseHtml(file.data);
      case "md":
        return parseMarkdown(file.data);
      case "txt":
        return parseText(file.data);
    }
  });
}
