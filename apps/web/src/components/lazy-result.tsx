import type { ResultProps } from "antd/es/result";
import { lazy, Suspense } from "react";

// antd's Result carries three illustrations (~10 KB gzipped): loaded only when a page has nothing
// to show or failed, so that they stay out of every first load.
const Result = lazy(() => import("antd/es/result"));

/** antd's Result, loaded when first shown. */
export function LazyResult(props: ResultProps) {
  return (
    <Suspense fallback={null}>
      <Result {...props} />
    </Suspense>
  );
}
