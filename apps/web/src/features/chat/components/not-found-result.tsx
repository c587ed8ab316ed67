import type { ResultProps } from "antd/es/result";
import { LazyResult } from "../../../components/lazy-result";

/** The 404 result of the chat pages (an unknown agent or share link). */
export function NotFoundResult(props: Omit<ResultProps, "status">) {
  return <LazyResult status="404" {...props} />;
}
