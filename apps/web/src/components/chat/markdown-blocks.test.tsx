import { act, render } from "@testing-library/react";
import { renderToStaticMarkup } from "react-dom/server";
import ReactMarkdown from "react-markdown";
import rehypeRaw from "rehype-raw";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import { describe, expect, it } from "vitest";
import { Markdown, renderedBlocks } from "./markdown";
import { LEAST_BLOCK, markdownBlocks as blocksOf } from "./markdown-blocks";

/** Every block, however short. */
const markdownBlocks = (text: string) => blocksOf(text, 0);

/** The sanitised HTML of a text parsed whole, as before the blocks, without the blanks between elements (they show nothing). */
const html = (text: string) =>
  renderToStaticMarkup(
    <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeRaw, rehypeSanitize]}>
      {text}
    </ReactMarkdown>,
  )
    // React's server rendering adds a preload <link> per image: not part of the reply.
    .replace(/<link [^>]*>/g, "")
    .replace(/>\s+</g, "><")
    .trim();

const reply = [
  "# 报告",
  "正文 **粗体** 和 `code`，[链接](https://example.com)。\n第二行",
  "| a | b |\n|---|--:|\n| 1 | 2 |",
  "```python\nx = 1\n\n\ny = 2\n```",
  "1. 一\n   - 子项\n\n2. 二（松散列表）\n\n   续段\n\n- 另一列表",
  "> 引用\n\n> 另一引用",
  "    缩进代码\n\n    续",
  '<div align="center">\n\n居中 **粗体**\n\n</div>',
  "前 <b>粗体\n\n后面仍粗</b> 尾",
  "<!--\n\n注释\n\n-->",
  "~~~\n```\n\n~~~",
  "---",
  "结尾",
].join("\n\n");

describe("a reply's top-level blocks", () => {
  it("render as the whole text does", () => {
    const blocks = markdownBlocks(reply);
    expect(blocks.join("")).toBe(reply);
    expect(blocks.length).toBeGreaterThan(8);
    expect(blocks.map(html).join("")).toBe(html(reply));
  });

  it("are cut only where every block has ended", () => {
    expect(markdownBlocks("a\n\nb")).toEqual(["a\n\n", "b"]);
    // Inside a fence, before a list item, an indented line, inside an open element or an HTML comment: no cut.
    expect(markdownBlocks("```\na\n\nb\n```")).toHaveLength(1);
    expect(markdownBlocks("- a\n\n- b")).toHaveLength(1);
    expect(markdownBlocks("- a\n\n  b")).toHaveLength(1);
    expect(markdownBlocks("<div>\n\na\n\n</div>")).toHaveLength(1);
    expect(markdownBlocks("<!--\n\na\n\n-->")).toHaveLength(1);
    // After the element closes, cutting goes on.
    expect(markdownBlocks("<div>\n\na\n\n</div>\n\nb")).toEqual(["<div>\n\na\n\n</div>\n\n", "b"]);
    // Code spans are not HTML.
    expect(markdownBlocks("`<div>`\n\nb")).toHaveLength(2);
  });

  it("are one when the text defines a reference a block elsewhere may use", () => {
    for (const text of ["[x]\n\n[x]: https://example.com", "脚注[^1]\n\n[^1]: 说明"]) {
      expect(markdownBlocks(text)).toEqual([text]);
      expect(markdownBlocks(text).map(html).join("")).toBe(html(text));
    }
  });

  it("keep what the sanitiser removes removed, HTML spread over blank lines too", () => {
    const attacks = [
      "<script>\n\nalert(1)\n\n</script>\n\n后",
      "<svg>\n\n<script>alert(2)</script>\n\n</svg>\n\n后",
      '<div onclick="alert(3)">\n\n[x](javascript:alert(4))\n\n</div>\n\n<img src=x onerror="alert(5)">\n\n后',
      "<iframe src='https://example.com'>\n\n</iframe>\n\n<form><input></form>\n\n后",
    ];
    for (const text of attacks) {
      const { container } = render(<Markdown text={text} />);
      expect(container.querySelector("script, svg, iframe, form, input:not([type=checkbox]), [onclick], [onerror]")).toBeNull();
      expect(container.innerHTML).not.toMatch(/alert|javascript:/);
      expect(markdownBlocks(text).map(html).join("")).toBe(html(text));
      container.remove();
    }
  });

  it("keep each block's text as the text grows, the last one aside", () => {
    const growing = [reply.slice(0, 200), reply.slice(0, 400), reply];
    const [a, b, c] = growing.map(markdownBlocks);
    expect(b?.slice(0, (a?.length ?? 1) - 1)).toEqual(a?.slice(0, -1));
    expect(c?.slice(0, (b?.length ?? 1) - 1)).toEqual(b?.slice(0, -1));
  });
});

describe("a streaming reply", () => {
  it("parses only its last block again when a piece comes", async () => {
    const section = (i: number) => `## 第 ${i} 节\n\n段落 ${i} **粗体**\n\n| a | b |\n|---|---|\n${`| ${i} | x |\n`.repeat(40)}`;
    const text = Array.from({ length: 30 }, (_, i) => section(i)).join("\n");
    const { rerender, container } = render(<Markdown text={text} streaming />);
    expect(blocksOf(text).length).toBeGreaterThan(5);
    const before = renderedBlocks.count;
    await act(async () => rerender(<Markdown text={`${text}| 30 | y |`} streaming />));
    expect(renderedBlocks.count - before).toBe(1);
    expect(container.querySelectorAll("tr")).toHaveLength(30 * 41 + 1);
    await act(async () => rerender(<Markdown text={`${text}| 30 | y |\n\n新段落`} streaming />));
    // The last block again (complete now, no longer streaming) and the new one.
    expect(renderedBlocks.count - before).toBe(3);
    expect(container.textContent).toContain("新段落");
  });

  it("groups short blocks, a thousand one-line paragraphs in a few parses", () => {
    const text = "**粗体** 文字\n\n".repeat(1000);
    const blocks = blocksOf(text);
    expect(blocks.join("")).toBe(text);
    expect(blocks.length).toBeLessThanOrEqual(Math.ceil(text.length / LEAST_BLOCK));
    expect(blocks.slice(0, -1).every((b) => b.length >= LEAST_BLOCK)).toBe(true);
  });

  it("formats a long reply that appears whole", async () => {
    const text = "**粗体** 文字\n\n".repeat(1000);
    const { container } = render(<Markdown text={text} />);
    await act(async () => undefined);
    expect(container.querySelectorAll("strong")).toHaveLength(1000);
    expect(container.querySelector(".chat-markdown-pending")).toBeNull();
  });
});
