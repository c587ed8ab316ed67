import { StyleProvider } from "@ant-design/cssinjs";
import { ConfigProvider, type ThemeConfig } from "antd";
import type { ReactNode } from "react";

const RUNTIME: ThemeConfig = { zeroRuntime: false };

/**
 * Around @ant-design/x's components (bubbles, sender, conversations, ...): antd's own components take
 * their styles from its prebuilt sheet (zeroRuntime, app.tsx), but x ships none, so its components
 * keep generating theirs as they render. Those land before the sheet in the page, so they are given
 * the class they are scoped to as weight (`hashPriority`), or the sheet's resets (`.ant-flex`, ...)
 * would undo them.
 */
export function XStyles({ children }: { children: ReactNode }) {
  return (
    <StyleProvider hashPriority="high">
      <ConfigProvider theme={RUNTIME}>{children}</ConfigProvider>
    </StyleProvider>
  );
}
