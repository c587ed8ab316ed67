import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { extractText, PDF_PAGES_MAX, ZIP_UNPACKED_MAX } from "./extract.ts";

/** A minimal PDF with one line of text per page ("page N"). */
function pdf(pages: number) {
  const objects: string[] = ["<< /Type /Catalog /Pages 2 0 R >>", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"];
  const kids: string[] = [];
  for (let i = 1; i <= pages; i++) {
    const stream = `BT /F1 12 Tf 72 720 Td (page ${i}) Tj ET`;
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
    const contentId = objects.length;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentId} 0 R >>`,
    );
    kids.push(`${objects.length} 0 R`);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${pages} >>`;
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

const pptx = async (slideText: string) => {
  const zip = new JSZip();
  zip.file("ppt/slides/slide1.xml", `<p:sld><a:t>${slideText}</a:t></p:sld>`);
  return zip.generateAsync({ type: "uint8array", compression: "DEFLATE", compressionOptions: { level: 1 } });
};

describe("extractText", () => {
  it("reads the text of a pptx", async () => {
    expect(await extractText(await pptx("你好 world"), "deck.pptx")).toBe("## 1\n你好 world");
  });

  it("reads a pdf page by page, and no further than PDF_PAGES_MAX pages", async () => {
    expect(await extractText(pdf(2), "two.pdf")).toMatch(/page 1\s+page 2/);
    const long = await extractText(pdf(PDF_PAGES_MAX + 20), "long.pdf");
    expect(long).toContain(`page ${PDF_PAGES_MAX}`);
    expect(long).not.toContain(`page ${PDF_PAGES_MAX + 1}`);
  }, 60_000);

  it("attack: a zip bomb (a small upload that unpacks past the limit) is not unpacked", async () => {
    const bomb = await pptx("a".repeat(ZIP_UNPACKED_MAX + 1024));
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    expect(await extractText(bomb, "bomb.pptx")).toBeNull();
    expect(await extractText(bomb, "bomb.docx")).toBeNull();
    expect(await extractText(bomb, "bomb.xlsx")).toBeNull();
  }, 60_000);
});
