import type { ParsedDocument } from "../types.ts";
import { checkSignal } from "./limits.ts";
import { recognize } from "./ocr.ts";

/** A picture (PNG or JPEG) read by OCR into one block of text lines. */
export async function parseImage(data: Uint8Array, signal?: AbortSignal): Promise<ParsedDocument> {
  checkSignal(signal);
  const text = await recognize(data);
  return { format: "image", blocks: text ? [{ kind: "ocr", text }] : [], pages: 1, ocrPages: [1] };
}
