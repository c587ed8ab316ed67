import { lazy, Suspense } from "react";

// The Markdown stack (remark, rehype, parse5: ~90 KB gzipped) loads with the first reply that
// needs it, not with the chat page: a new chat shows its welcome without it.
const Loaded = lazy(() => import("./markdown").then((m) => ({ default: m.Markdown })));

/** Markdown loaded on demand; until its code arrives the text shows as it is, its line breaks kept. */
export function Markdown({ text, streaming }: { text: string; streaming?: boolean }) {
  return (
    <Suspense fallback={<div className="chat-markdown chat-markdown-pending">{text}</div>}>
      <Loaded text={text} streaming={streaming} />
    </Suspense>
  );
}
