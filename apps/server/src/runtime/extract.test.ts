import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { extractText, ZIP_UNPACKED_MAX } from "./extract.ts";

const pptx = async (slideText: string) => {
  const zip = new JSZip();
  zip.file("ppt/slides/slide1.xml", `<p:sld><a:t>${slideText}</a:t></p:sld>`);
  return zip.generateAsync({ type: "uint8array", compression: "DEFLATE", compressionOptions: { level: 1 } });
};

describe("extractText", () => {
  it("reads the text of a pptx", async () => {
    expect(await extractText(await pptx("你好 world"), "deck.pptx")).toBe("## 1\n你好 world");
  });

  it("attack: a zip bomb (a small upload that unpacks past the limit) is not unpacked", async () => {
    const bomb = await pptx("a".repeat(ZIP_UNPACKED_MAX + 1024));
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    expect(await extractText(bomb, "bomb.pptx")).toBeNull();
    expect(await extractText(bomb, "bomb.docx")).toBeNull();
    expect(await extractText(bomb, "bomb.xlsx")).toBeNull();
  }, 60_000);
});
