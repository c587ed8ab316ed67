import mammoth from "mammoth";
import type { ParsedDocument } from "../types.ts";
import { blocksFromHtml } from "./html.ts";
import type { OfficeZip } from "./zip.ts";

/** Word's heading styles (also the Chinese names of the built-in styles) as h1–h6; the title style as h1. */
const STYLE_MAP = [
  "p[style-name='Title'] => h1:fresh",
  "p[style-name='标题'] => h1:fresh",
  ...[1, 2, 3, 4, 5, 6].flatMap((n) => [`p[style-name='标题 ${n}'] => h${n}:fresh`, `p[style-name='heading ${n}'] => h${n}:fresh`]),
];

export async function parseDocx({ data }: OfficeZip): Promise<ParsedDocument> {
  const { value } = await mammoth.convertToHtml(
    { buffer: Buffer.from(data.buffer, data.byteOffset, data.byteLength) },
    { styleMap: STYLE_MAP, ignoreEmptyParagraphs: true, convertImage: mammoth.images.imgElement(async () => ({ src: "" })) },
  );
  return { format: "docx", ...blocksFromHtml(value), ocrPages: [] };
}
