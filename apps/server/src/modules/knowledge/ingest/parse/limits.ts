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

/**
 * Text bytes as a string, in the encodings Chinese users' files come in. A BOM decides (UTF-8, UTF-16 LE/BE).
 * Without one: NUL bytes mean UTF-16 (every ASCII character of it, a newline too, has one: at odd places in LE, at
 * even places in BE) or a binary file; then UTF-8 when valid; then GB18030 (GBK, Simplified) or Big5 (Traditional),
 * whichever reads with fewer unlikely characters (`legacyChinese`). A file none of these reads cleanly is refused
 * as unreadable rather than stored garbled. (UTF-16 without a BOM and without a single ASCII character is not
 * recognised: guessing it would misread ordinary files.)
 */
export function decodeText(bytes: Uint8Array): string {
  const text = decodeBytes(bytes);
  if (text.length > MAX_TEXT_CHARS) throw new IngestError("tooLarge", "the file holds too much text");
  return text.replace(/\r\n?/g, "\n");
}

function decodeBytes(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return decode("utf-8", bytes.subarray(3)) ?? unknownEncoding();
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return decode("utf-16le", bytes.subarray(2)) ?? unknownEncoding();
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decode("utf-16be", bytes.subarray(2)) ?? unknownEncoding();
  if (bytes.includes(0)) {
    let odd = 0;
    let even = 0;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0) i % 2 ? odd++ : even++;
    const text = decode(odd > even ? "utf-16le" : "utf-16be", bytes);
    return text !== undefined && plausible(text) ? text : unknownEncoding();
  }
  return decode("utf-8", bytes) ?? legacyChinese(bytes);
}

/** Strict decoding: undefined when the bytes are not valid in the encoding. */
function decode(encoding: string, bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Text, not binary read as UTF-16: at most 5 % control, private-use or non-characters. */
function plausible(text: string): boolean {
  const odd = text.match(/[^\P{Cc}\t\n\r]|[\p{Co}\uFFFE\uFFFF]/gu)?.length ?? 0; // controls but tab and newlines
  return odd <= text.length * 0.05;
}

/**
 * GBK/GB18030 or Big5. Each decodes the other's bytes into valid but unlikely characters, so each reading is
 * charged for its unlikely ones: for GB18030 a double-byte character outside GB2312 (second byte below 0xA1),
 * where no common Simplified character lies but 40 % of Big5's do (its ，。 too); for Big5 a character past the
 * 5401 frequent ones (first byte above 0xC6), where half of GBK's Chinese characters fall. The cheaper reading wins
 * (GB18030 on a tie); when even it finds half its characters unlikely, the encoding is something else (random
 * bytes read so either way; Traditional text saved as GBK, 40 % outside GB2312, still reads).
 */
function legacyChinese(bytes: Uint8Array): string {
  let pairs = 0;
  let gbUnlikely = 0;
  let big5Unlikely = 0;
  for (let i = 0; i < bytes.length; i++) {
    const lead = bytes[i];
    if (lead < 0x81 || lead === 0xff) continue;
    const trail = bytes[i + 1] ?? 0;
    if (trail >= 0x30 && trail <= 0x39) {
      i += 3; // a GB18030 four-byte sequence: no Big5 character looks like it
      big5Unlikely++;
      pairs++;
      continue;
    }
    pairs++;
    if (trail < 0xa1) gbUnlikely++;
    if (lead > 0xc6) big5Unlikely++;
    i++;
  }
  const gb = new TextDecoder("gb18030").decode(bytes);
  const big5 = new TextDecoder("big5").decode(bytes);
  gbUnlikely += replacements(gb);
  big5Unlikely += replacements(big5);
  const [text, unlikely] = big5Unlikely < gbUnlikely ? [big5, big5Unlikely] : [gb, gbUnlikely];
  if (unlikely > pairs / 2) unknownEncoding();
  return text;
}

function replacements(text: string): number {
  return text.match(/\uFFFD/g)?.length ?? 0;
}

function unknownEncoding(): never {
  throw new IngestError("unreadable", "the text's encoding is not recognised (UTF-8, UTF-16, GB18030/GBK or Big5 are read)");
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
