import JSZip from "jszip";
import { badRequest } from "../../platform/errors.ts";
import { inflateWithin } from "../../platform/zip.ts";
import { decodeText } from "./ingest/index.ts";

/** Limits of a bulk-import zip, checked on its central directory before anything is unpacked. */
export const ZIP_LIMITS = {
  /** Sum of the entries' declared (and then actual) unpacked sizes. */
  totalBytes: 100 * 1024 * 1024,
  entries: 200,
  /** Folder depth of an entry's path. */
  depth: 8,
};

const ARCHIVE = /\.(zip|rar|7z|tar|gz|tgz|bz2|xz|jar)$/i;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
/** Files zip tools add that are not documents. */
const IGNORED = (name: string) => name.startsWith("__MACOSX/") || /(^|\/)(\.DS_Store|Thumbs\.db)$/.test(name);

export interface ZipEntry {
  name: string;
  data: Buffer;
}

/**
 * The documents of a zip, after checking every entry: count, total unpacked size (declared, then
 * counted while unpacking), no nested archive, no absolute or parent-relative path (zip-slip),
 * no symbolic link, not too deep, and each of an accepted type and size.
 */
export async function unpackZip(data: Buffer, accept: { extensions: readonly string[]; maxFileBytes: number; sizeLabel: string }) {
  let zip: JSZip;
  try {
    // A name without zip's UTF-8 flag is in the packer's code page: GBK when Windows' own "compressed folder" made the
    // zip on a Chinese system. Read as document text is (UTF-8 when it is valid, else GB18030), not as mojibake.
    // (jszip's types say string[]; loading bytes in Node, it passes the name's bytes as a Uint8Array.)
    const decodeFileName = (bytes: unknown) => decodeText(Uint8Array.from(bytes as Uint8Array));
    zip = await JSZip.loadAsync(data, { checkCRC32: false, createFolders: false, decodeFileName });
  } catch {
    throw badRequest("zipInvalid");
  }
  const entries = Object.values(zip.files).filter((f) => !f.dir && !IGNORED(f.name));
  if (entries.length > ZIP_LIMITS.entries) throw badRequest("zipTooManyEntries", { count: ZIP_LIMITS.entries });
  let declared = 0;
  for (const entry of entries) {
    // jszip resolves "../" in names when loading; the name as written in the zip is what is judged.
    const name = (entry as unknown as { unsafeOriginalName?: string }).unsafeOriginalName ?? entry.name;
    const parts = name.split(/[\\/]/);
    if (name.startsWith("/") || name.includes("\\") || /^[a-zA-Z]:/.test(name) || parts.includes("..") || name.includes("\0"))
      throw badRequest("zipUnsafeEntry", { name });
    const mode = typeof entry.unixPermissions === "number" ? entry.unixPermissions : 0;
    if ((mode & S_IFMT) === S_IFLNK) throw badRequest("zipUnsafeEntry", { name });
    if (parts.length > ZIP_LIMITS.depth) throw badRequest("zipUnsafeEntry", { name });
    if (ARCHIVE.test(name)) throw badRequest("zipNested", { name });
    const ext = name.includes(".") ? (name.toLowerCase().split(".").pop() ?? "") : "";
    if (!accept.extensions.includes(ext)) throw badRequest("zipEntryNotSupported", { name });
    // Sizes from the central directory: jszip keeps them on the entry's compressed data.
    const size = (entry as unknown as { _data?: { uncompressedSize?: number } })._data?.uncompressedSize ?? 0;
    if (size > accept.maxFileBytes) throw badRequest("fileTooLarge", { size: accept.sizeLabel });
    declared += size;
    if (declared > ZIP_LIMITS.totalBytes) throw badRequest("zipTooLarge", { size: `${ZIP_LIMITS.totalBytes / 1024 / 1024}MB` });
  }
  const out: ZipEntry[] = [];
  let left = ZIP_LIMITS.totalBytes;
  for (const entry of entries) {
    // A lying header is caught here: inflating stops at the first byte past either limit.
    const bytes = await inflateWithin(entry, Math.min(accept.maxFileBytes, left)).catch(() => {
      throw badRequest("zipInvalid");
    });
    if (!bytes) {
      throw left < accept.maxFileBytes
        ? badRequest("zipTooLarge", { size: `${ZIP_LIMITS.totalBytes / 1024 / 1024}MB` })
        : badRequest("fileTooLarge", { size: accept.sizeLabel });
    }
    left -= bytes.length;
    out.push({ name: entry.name.split("/").pop() ?? entry.name, data: bytes });
  }
  return out;
}
