import { memo, useDeferredValue, useEffect, useId, useState } from "react";
import ReactMarkdown from "react-markdown";
import rehypeRaw from "rehype-raw";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import { markdownBlocks } from "./markdown-blocks";
import { fitsMarkdown } from "./markdown-limits";
import { withoutDiagramStyles } from "./mermaid-config";
import { RawText, RawTextBoundary } from "./raw-text";

/** Mermaid's keys a diagram may not set itself (its defaults, then the styles: see mermaid-config.ts). */
const MERMAID_SECURE = [
  "secure",
  "securityLevel",
  "startOnLoad",
  "maxTextSize",
  "suppressErrorRendering",
  "maxEdges",
  "themeCSS",
  "fontFamily",
  "altFontFamily",
];

/**
 * Mermaid diagrams in strict security mode, loaded on first use. Labels are SVG text, not HTML:
 * markup in a label (an image, a link) shows as its text instead of a broken element. The
 * diagram's own configuration keeps no CSS or fonts (mermaid-config.ts).
 */
function Mermaid({ code }: { code: string }) {
  const id = useId().replace(/[^a-zA-Z0-9]/g, "");
  const [svg, setSvg] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let alive = true;
    import("mermaid")
      .then(async ({ default: mermaid }) => {
        mermaid.initialize({
          startOnLoad: false,
          securityLevel: "strict",
          secure: MERMAID_SECURE,
          htmlLabels: false,
          flowchart: { htmlLabels: false },
        });
        const { svg } = await mermaid.render(`m${id}`, withoutDiagramStyles(code));
        if (alive) setSvg(svg);
      })
      .catch(() => alive && setFailed(true));
    return () => {
      alive = false;
    };
  }, [code, id]);
  if (failed || !svg) return <pre className="chat-code">{code}</pre>;
  return <div className="chat-mermaid" dangerouslySetInnerHTML={{ __html: svg }} />;
}

/**
 * An image's address when the page may load it: this site's own (a path, or this origin) or an
 * image in the text itself (though the sanitiser's schema already drops `data:` addresses). A
 * reply's remote image would call another server as soon as it shows (`![](https://…/pixel?secret=…)`):
 * only the server's Content-Security-Policy stopped that.
 */
export function shownImageSrc(src: string | undefined): string | undefined {
  if (!src) return undefined;
  if (/^data:image\/(?:png|jpeg|gif|webp)[;,]/i.test(src)) return src;
  try {
    const url = new URL(src, window.location.href);
    return url.origin === window.location.origin ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Markdown shown as HTML, sanitised: raw HTML in a reply is parsed (so a tag never leaves its
 * pieces behind as text), then only safe elements stay: no scripts (nor their text), no SVG, safe links,
 * images from this site only (others are links). A text too large or too deeply nested to parse
 * (markdown-limits.ts), or one that fails to render, shows as its raw text.
 *
 * Each piece of a streaming reply changes the session's messages, and parsing is the costly part:
 * a text is parsed again only when it changed (the other messages of the session are not), and a
 * streaming one at a lower priority (`useDeferredValue`), so that when pieces come faster than the
 * page parses, the texts a newer one overtook are skipped instead of queued. The text is parsed in
 * its top-level blocks (markdown-blocks.ts), each only when it changed: a piece re-parses the last
 * block, not the whole reply; a deferred render yields between blocks, so no block holds the page
 * for longer than its own parse.
 */
export function Markdown({ text, streaming }: { text: string; streaming?: boolean }) {
  // A long text that appears whole (a reopened or shared session) shows as it is at first and is
  // formatted in the background, block after block, the page responsive meanwhile.
  const deferred = useDeferredValue<string | null>(text, text.length > FORMAT_LATER ? null : text);
  if (deferred === null) return <div className="chat-markdown chat-markdown-pending">{text}</div>;
  const shown = streaming ? deferred : text;
  return (
    <RawTextBoundary raw={shown}>
      <ParsedMarkdown text={shown} streaming={streaming} />
    </RawTextBoundary>
  );
}

/** Characters past which a text appearing whole is formatted in the background (below it, a few tens of ms of parsing). */
const FORMAT_LATER = 8_000;

const ParsedMarkdown = memo(function ParsedMarkdown({ text, streaming }: { text: string; streaming?: boolean }) {
  if (!fitsMarkdown(text)) return <RawText text={text} />;
  const blocks = markdownBlocks(text);
  return (
    <div className="chat-markdown">
      {blocks.map((block, i) => (
        // A block is cut off from the next only once it is complete: only the last one may still be streaming.
        // Its place is its identity: the text before it never changes.
        <MarkdownBlock key={i} text={block} streaming={streaming && i === blocks.length - 1} />
      ))}
    </div>
  );
});

/** Raw HTML is parsed only in a block that may have some: rehype-raw re-reads every node of the block through parse5. */
const WITH_HTML = [rehypeRaw, rehypeSanitize];
const WITHOUT_HTML = [rehypeSanitize];
const REMARK = [remarkGfm];

/** One top-level block, parsed and rendered again only when its text changes (or it stops streaming). */
const MarkdownBlock = memo(function MarkdownBlock({ text, streaming }: { text: string; streaming?: boolean }) {
  renderedBlocks.count++;
  return (
    <ReactMarkdown
      remarkPlugins={REMARK}
      // Without a "<" there is no raw HTML: the sanitiser alone gives the same tree.
      rehypePlugins={text.includes("<") ? WITH_HTML : WITHOUT_HTML}
      components={{
        a: ({ href, children }) => (
          <a href={href} target="_blank" rel="noopener noreferrer">
            {children}
          </a>
        ),
        img: ({ src, alt, title }) => {
          const shown = shownImageSrc(typeof src === "string" ? src : undefined);
          if (shown) return <img src={shown} alt={alt ?? ""} title={title} />;
          // Not loaded: its address as a link the reader may follow.
          return typeof src === "string" && src ? (
            <a href={src} target="_blank" rel="noopener noreferrer" title={alt} className="chat-image-link">
              {src}
            </a>
          ) : (
            <span>{alt}</span>
          );
        },
        // A <picture>'s sources (srcset) would load remote images too: its <img> is enough.
        source: () => null,
        code: ({ className, children }) => {
          const lang = /language-(\w+)/.exec(className ?? "")?.[1];
          const code = String(children ?? "").replace(/\n$/, "");
          if (lang === "mermaid" && !streaming) return <Mermaid code={code} />;
          return lang ? (
            <code className={`chat-code-block ${className}`}>{code}</code>
          ) : (
            <code className="chat-inline-code">{children}</code>
          );
        },
      }}
    >
      {text}
    </ReactMarkdown>
  );
});

/** How many blocks were parsed and rendered so far: the tests count those a streamed piece renders again. */
export const renderedBlocks = { count: 0 };
