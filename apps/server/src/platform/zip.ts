import type JSZip from "jszip";

/**
 * Inflates a zip entry as a stream, handing each chunk to `take`, and stops at the first chunk it
 * refuses: true when the entry ended, false when refused. Sizes a zip declares may lie (a bomb declares
 * 100 bytes and inflates to gigabytes), so limits are counted here, on what really comes out.
 */
export function inflateEach(entry: JSZip.JSZipObject, take: (chunk: Buffer) => boolean): Promise<boolean> {
  return new Promise((resolve, reject) => {
    let done = false;
    const stream = entry.nodeStream("nodebuffer");
    stream.on("data", (chunk: Buffer) => {
      if (done || take(chunk)) return;
      done = true;
      stream.pause();
      resolve(false);
    });
    stream.on("error", (err) => {
      done = true;
      reject(err);
    });
    stream.on("end", () => {
      if (!done) resolve(true);
    });
  });
}

/** A zip entry's bytes, or null once it inflates past `max`. */
export async function inflateWithin(entry: JSZip.JSZipObject, max: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let total = 0;
  const whole = await inflateEach(entry, (chunk) => {
    total += chunk.length;
    chunks.push(chunk);
    return total <= max;
  });
  return whole ? Buffer.concat(chunks) : null;
}

/** Whether a zip's entries unpack to at most `max` bytes in all; stops at the first byte past it. */
export async function unpacksWithin(zip: JSZip, max: number): Promise<boolean> {
  let total = 0;
  for (const entry of Object.values(zip.files)) {
    if (entry.dir) continue;
    const within = await inflateEach(entry, (chunk) => {
      total += chunk.length;
      return total <= max;
    });
    if (!within) return false;
  }
  return true;
}
