import type JSZip from "jszip";

/**
 * A zip entry's bytes, or null once it inflates past `max`: counted while inflating, since the sizes
 * a zip declares may lie (a bomb declares 100 bytes and inflates to gigabytes), and stopped there.
 */
export function inflateWithin(entry: JSZip.JSZipObject, max: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let done = false;
    const stream = entry.nodeStream("nodebuffer");
    stream.on("data", (chunk: Buffer) => {
      if (done) return;
      total += chunk.length;
      if (total > max) {
        done = true;
        stream.pause();
        resolve(null);
      } else chunks.push(chunk);
    });
    stream.on("error", (err) => {
      done = true;
      reject(err);
    });
    stream.on("end", () => {
      if (!done) resolve(Buffer.concat(chunks));
    });
  });
}
