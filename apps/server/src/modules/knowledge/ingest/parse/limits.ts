import { IngestError, type IngestContext } from "../types.ts";

/** A file's parsing may take this long (OCR of a long scanned PDF is the slow case). */
export const PARSE_TIMEOUT_MS = 10 * 60_000;
/** Text kept from one document; past it the file is reported as too large (a 15 MB file of text stays below). */
export const MAX_TEXT_CHARS = 20_000_000;
/** Pages of a PDF read (and OCR'd) at most. */
export const MAX_PDF_PAGES = 3000;
/** Cells of a workbook or CSV read at most. */
export const MAX_CELLS = 2_000_000;

/** Runs `work` with a signal that fires on the caller's abort or after PARSE_TIMEOUT_MS; maps both to IngestError. */
export async function withDeadline<T>(ctx: IngestContext, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const timeout = AbortSignal.timeout(PARSE_TIMEOUT_MS);
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
  try {
    checkSignal(signal);
    return await work(signal);
  } catch (e) {
    if (e instanceof IngestError) throw e;
    if (ctx.signal?.aborted) throw new IngestError("aborted", "parsing was aborted");
    if (timeout.aborted) throw new IngestError("timeout", "parsing took too long");
    throw new IngestError("unreadable", `the file could not be read: ${(e as Error)?.message ?? e}`);
  }
}

export function checkSignal(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  const reason = signal.reason as { name?: string } | undefined;
  throw new IngestError(
    reason?.name === "TimeoutError" ? "timeout" : "aborted",
    reason?.name === "TimeoutError" ? "parsing took too long" : "parsing was aborted",
  );
}

/** Text bytes as a string: UTF-8 (with or without BOM), UTF-16 with BOM, else GB18030 (Chinese Windows files). */
export function decodeText(bytes: Uint8Array): string {
  let text: string;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder("utf-16le").decode(bytes.subarray(2));
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder("utf-16be").decode(bytes.subarray(2));
  else {
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      text = new TextDecoder("gb18030").decode(bytes);
    }
  }
  if (text.length > MAX_TEXT_CHARS) throw new IngestError("tooLarge", "the file holds too much text");
  return text.replace(/\r\n?/g, "\n");
}

/** Fullwidth punctuation that Chinese text uses on purpose; NFKC would turn it into ASCII. */
const KEEP_FULLWIDTH = /[\uFF01-\uFF0F\uFF1A-\uFF20\uFF3B-\uFF40\uFF5B-\uFF65]/;
const NOT_KEPT = /[^\uFF01-\uFF0F\uFF1A-\uFF20\uFF3B-\uFF40\uFF5B-\uFF65]+/g;
/**
 * Radicals that PDF fonts (Noto/Source Han SC among them) emit for whole simplified characters: the "C-simplified"
 * radicals, which NFKC leaves alone, and the Kangxi radicals whose NFKC form is the traditional character while the
 * glyph shown is the simplified one (⼾ is drawn as 户, NFKC gives 戶).
 */
const RADICALS: Record<string, string> = {
  "\u2E9F": "母",
  "\u2EA0": "民",
  "\u2EC4": "西",
  "\u2EC5": "见",
  "\u2EC6": "角",
  "\u2EC8": "讠",
  "\u2EC9": "贝",
  "\u2ECB": "车",
  "\u2ED0": "钅",
  "\u2ED3": "长",
  "\u2ED4": "门",
  "\u2ED8": "青",
  "\u2ED9": "韦",
  "\u2EDA": "页",
  "\u2EDB": "风",
  "\u2EDC": "飞",
  "\u2EE0": "饣",
  "\u2EE2": "马",
  "\u2EE3": "骨",
  "\u2EE4": "鬼",
  "\u2EE5": "鱼",
  "\u2EE6": "鸟",
  "\u2EE7": "卤",
  "\u2EE8": "麦",
  "\u2EE9": "黄",
  "\u2EEA": "黾",
  "\u2EEC": "齐",
  "\u2EEE": "齿",
  "\u2EF0": "龙",
  "\u2EF3": "龟",
  "\u2F3E": "户",
  "\u2FC8": "黄",
};
const RADICAL = /[\u2E80-\u2EFF\u2F3E\u2FC8]/g;

/**
 * NFKC for text out of PDFs and OCR: Kangxi radicals (⼀ ⼈ ⽇) become the ordinary characters (一 人 日), fullwidth
 * letters and digits become ASCII, ligatures split; Chinese fullwidth punctuation (，：（）) is kept as it is.
 */
export function normalizeText(text: string): string {
  const mapped = text.replace(RADICAL, (c) => RADICALS[c] ?? c);
  return KEEP_FULLWIDTH.test(mapped) ? mapped.replace(NOT_KEPT, (s) => s.normalize("NFKC")) : mapped.normalize("NFKC");
}
