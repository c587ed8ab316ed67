/**
 * The knowledge ingestion library: a file in, segments out. Parsing (`parseDocument`) turns any supported
 * format into one structured document; the chunkers of the eleven segmentation methods read only that
 * document. Everything is deterministic, so the wizard's preview is exactly what a commit stores.
 * The contracts of the methods are in README.md beside this file.
 */
import { chunkDocument } from "./chunk/index.ts";
import { cleanDocument } from "./cleaning.ts";
import { normalizeOptions } from "./options.ts";
import { parseDocument } from "./parse/index.ts";
import type { IngestContext, IngestFile, Segment, SegmentOptions } from "./types.ts";

export { SEGMENT_METHODS, IngestError, DOCUMENT_FORMATS } from "./types.ts";
export type {
  Block,
  CleaningRules,
  DocumentFormat,
  IngestContext,
  IngestErrorReason,
  IngestFile,
  ParsedDocument,
  ParseOptions,
  Segment,
  SegmentMethod,
  SegmentOptions,
} from "./types.ts";
export { countTokens } from "./tokens.ts";
export { detectFormat, parseDocument } from "./parse/index.ts";
export { decodeText } from "./parse/limits.ts";
export { normalizeOptions } from "./options.ts";

/** Bump when the segments for the same file and options change (stored segments are keyed by it). */
export const INGEST_VERSION = 3;

/** Parses and segments a file; same input → same output (deterministic), so preview == commit. */
export async function ingest(file: IngestFile, options: SegmentOptions, ctx: IngestContext = {}): Promise<Segment[]> {
  const opts = normalizeOptions(options);
  const doc = await parseDocument(file, { forceOcr: opts.method === "scanned_manual" }, ctx);
  ctx.onProgress?.(90);
  const segments = chunkDocument(cleanDocument(doc, opts.cleaning), opts);
  ctx.onProgress?.(100);
  return segments;
}
