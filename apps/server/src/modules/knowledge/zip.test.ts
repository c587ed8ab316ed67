import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { unpackZip } from "./zip.ts";

const accept = { extensions: ["txt", "md"], maxFileBytes: 1024 * 1024, sizeLabel: "1MB" };

describe("unpackZip", () => {
  it("reads names as Windows writes them on a Chinese system (GBK, no UTF-8 flag) and as UTF-8 zips write them", async () => {
    const zip = new JSZip();
    // An ASCII stand-in of the GBK name's length, so the zip has no UTF-8 flag; its bytes are then swapped for GBK.
    zip.file("abcdefgh.txt", "甲");
    zip.file("资料/说明.md", "乙");
    const data = await zip.generateAsync({ type: "nodebuffer" });
    const gbk = Buffer.from("cab9d3c3cbb5c3f72e747874", "hex"); // "使用说明.txt" in GBK
    for (let at = data.indexOf("abcdefgh.txt"); at >= 0; at = data.indexOf("abcdefgh.txt", at + 1)) gbk.copy(data, at);
    const entries = await unpackZip(data, accept);
    expect(entries.map((e) => [e.name, e.data.toString()])).toEqual([
      ["使用说明.txt", "甲"],
      ["说明.md", "乙"],
    ]);
  });
});
