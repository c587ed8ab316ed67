import JSZip from "jszip";
import { inflateEach } from "../../../../platform/zip.ts";
import { IngestError } from "../types.ts";
import { checkSignal } from "./limits.ts";

/** Office files unpack to at most this much (a 15 MB docx of text unpacks to far less; a bomb to gigabytes). */
export const MAX_INFLATED_BYTES = 256 * 1024 * 1024;
export const MAX_ZIP_ENTRIES = 5000;

export interface OfficeZip {
  zip: JSZip;
  /** The original bytes, for parsers that unzip again themselves (mammoth, exceljs) once the guard passed. */
  data: Uint8Array;
}

/**
 * Opens an Office file after checking it is not a decompression bomb: the entry count, then every entry is
 * inflated as a stream while the running total is checked (declared sizes can lie), before any parser sees it.
 */
export async function openZip(
  data: Uint8Array,
  signal?: AbortSignal,
  limits = { bytes: MAX_INFLATED_BYTES, entries: MAX_ZIP_ENTRIES },
): Promise<OfficeZip> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(data);
  } catch (e) {
    throw new IngestError("unreadable", `the file is not a valid Office document: ${(e as Error).message}`);
  }
  const entries = Object.values(zip.files).filter((f) => !f.dir);
  if (entries.length > limits.entries) throw new IngestError("tooLarge", `the file has more than ${limits.entries} parts`);
  let total = 0;
  for (const entry of entries) {
    checkSignal(signal);
    const within = await inflateEach(entry, (chunk) => {
      total += chunk.length;
      return total <= limits.bytes;
    }).catch((e: Error) => {
      throw new IngestError("unreadable", `the file is damaged: ${e.message}`);
    });
    if (!within) throw new IngestError("tooLarge", `the file unpacks to more than ${Math.round(limits.bytes / 1024 / 1024)} MB`);
  }
  return { zip, data };
}

export async function zipText(zip: JSZip, path: string): Promise<string | undefined> {
  return zip.file(path)?.async("string");
}
