/** The ingestion library's public types: options in, a structured document in the middle, segments out. */

// The methods are the contract's (doc 2 §9): one list for the API, the web and this library.
import type { SegmentMethodName } from "@agentfair/contracts";

export { SEGMENT_METHODS } from "@agentfair/contracts";
export type SegmentMethod = SegmentMethodName;

export interface CleaningRules {
  collapseWhitespace?: boolean;
  dropUrls?: boolean;
  dropEmails?: boolean;
  replace?: { pattern: string; replacement: string; flags?: string }[];
}

export interface SegmentOptions {
  method: SegmentMethod;
  /** Token budget of one chunk (cl100k tokens), default 512. */
  chunkSize?: number;
  /** Tokens repeated from the end of one chunk at the start of the next (auto only). */
  overlap?: number;
  /** Where text may be cut, best first (auto only); default: paragraph, line, sentence ends. */
  delimiters?: string[];
  cleaning?: CleaningRules;
}

export interface Segment {
  position: number;
  content: string;
  /** Title path, e.g. "第一章 总则" or "2 Method > 2.1 Data". */
  title?: string;
  question?: string;
  answer?: string;
  tokens: number;
}

export interface IngestFile {
  name: string;
  data: Uint8Array;
}

export interface IngestContext {
  signal?: AbortSignal;
  onProgress?: (percent: number) => void;
}

export const DOCUMENT_FORMATS = ["pdf", "docx", "xlsx", "csv", "pptx", "txt", "md", "html", "image"] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

/** One piece of a parsed document, in reading order. */
export type Block =
  | { kind: "heading"; level: number; text: string; page?: number }
  | { kind: "paragraph"; text: string; page?: number }
  /** A table with its header row kept apart from the data rows (a sheet of a workbook, a CSV, a docx/html/pptx table). */
  | { kind: "table"; header: string[]; rows: string[][]; name?: string; page?: number }
  /** Starts page `page` (1-based) of a PDF. */
  | { kind: "pageBreak"; page: number }
  /** Starts slide `index` (1-based) of a presentation; the blocks up to the next slide belong to it. */
  | { kind: "slide"; index: number }
  /** Text read by OCR from an image or a scanned PDF page, one line per text line. */
  | { kind: "ocr"; text: string; page?: number };

export interface ParsedDocument {
  format: DocumentFormat;
  blocks: Block[];
  /** Pages of a PDF, slides of a presentation, sheets of a workbook; 1 otherwise. */
  pages: number;
  /** Pages that were read by OCR (1-based). */
  ocrPages: number[];
}

export interface ParseOptions {
  /** Read every PDF page by OCR, ignoring its text layer (scanned manual). */
  forceOcr?: boolean;
}

export type IngestErrorReason =
  /** The options are invalid (chunk size, overlap, delimiters, a cleaning regex). */
  | "invalidOptions"
  /** The file's type is not one we read. */
  | "unsupportedFormat"
  /** The file is damaged, encrypted, or not what its name says. */
  | "unreadable"
  /** The file is too big once unpacked, or has too many parts (a decompression bomb). */
  | "tooLarge"
  /** Reading took longer than the bound. */
  | "timeout"
  /** The caller aborted. */
  | "aborted"
  /** Nothing to segment: no text in the file, or no table for the table method. */
  | "empty";

/** Every failure the library reports; `reason` lets the caller map it to a status (invalidOptions → 400). */
export class IngestError extends Error {
  constructor(
    readonly reason: IngestErrorReason,
    message: string,
  ) {
    super(message);
    this.name = "IngestError";
  }
}
