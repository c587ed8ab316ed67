import type { ResultProps } from "antd/es/result";
import { lazy, Suspense } from "react";

// antd's Result carries three illustrations (~10 KB gzipped): loaded only when a page has nothing to show.
const Result = lazy(() => import("antd/es/result"));

/** The 404 result of the chat pages (an unknown agent or share link). */
export function NotFoundResult(props: Omit<ResultProps, "status">) {
  return (
    <Suspense fallback={null}>
      <Result status="404" {...props} />
    </Suspense>
  );
}
