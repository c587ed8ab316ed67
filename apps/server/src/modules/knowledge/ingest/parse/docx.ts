import mammoth from "mammoth";
import type { ParsedDocument } from "../types.ts";
import { writeListNumbers } from "./docx-numbering.ts";
import { blocksFromHtml, OCR_IMAGE_SRC } from "./html.ts";
import { checkSignal } from "./limits.ts";
import { OCR_TEXT_PER_PICTURE, recognize } from "./ocr.ts";
import type { OfficeZip } from "./zip.ts";

/** Word's heading styles (also the Chinese names of the built-in styles) as h1–h6; the title style as h1. */
const STYLE_MAP = [
  "p[style-name='Title'] => h1:fresh",
  "p[style-name='标题'] => h1:fresh",
  ...[1, 2, 3, 4, 5, 6].flatMap((n) => [`p[style-name='标题 ${n}'] => h${n}:fresh`, `p[style-name='heading ${n}'] => h${n}:fresh`]),
];

/**
 * A Word document through mammoth: heading styles, paragraphs, tables. When it is mostly pictures (pages scanned
 * into Word), the PNG and JPEG pictures are read by OCR in their place. Word's list numbers are written into the
 * text first (`docx-numbering.ts`).
 */
export async function parseDocx({ zip, data }: OfficeZip, signal?: AbortSignal): Promise<ParsedDocument> {
  const numbered = (await writeListNumbers(zip)) ?? data;
  const buffer = Buffer.from(numbered.buffer, numbered.byteOffset, numbered.byteLength);
  let images = 0;
  const textOnly = await mammoth.convertToHtml(
    { buffer },
    {
      styleMap: STYLE_MAP,
      ignoreEmptyParagraphs: true,
      convertImage: mammoth.images.imgElement(async () => {
        images++;
        return { src: "" };
      }),
    },
  );
  let html = textOnly.value;
  const ocrPages: number[] = [];
  if (images > 0 && textLength(html) < images * OCR_TEXT_PER_PICTURE) {
    const read = await mammoth.convertToHtml(
      { buffer },
      {
        styleMap: STYLE_MAP,
        ignoreEmptyParagraphs: true,
        convertImage: mammoth.images.imgElement(async (image) => {
          if (!/^image\/(png|jpe?g)$/.test(image.contentType)) return { src: "" };
          checkSignal(signal);
          ocrPages.push(ocrPages.length + 1);
          return { src: OCR_IMAGE_SRC, alt: await recognize(new Uint8Array(await image.readAsArrayBuffer())) };
        }),
      },
    );
    html = read.value;
  }
  return { format: "docx", ...blocksFromHtml(html), ocrPages };
}

function textLength(html: string): number {
  return html.replace(/<[^>]*>/g, "").replace(/\s+/g, "").length;
}
