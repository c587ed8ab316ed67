import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ErrorBoundary } from "../error-boundary";

/** A text shown as it is, wrapped, with a note that it could not be shown formatted. */
export function RawText({ text }: { text: string }) {
  const { t } = useTranslation();
  return (
    <div className="chat-raw" data-testid="chat-raw-text">
      <div className="chat-raw-note">{t("chat.rawText")}</div>
      <pre className="chat-raw-text">{text}</pre>
    </div>
  );
}

/**
 * A part of a message (its text, a card) that, when it fails to render, shows its raw text instead:
 * a stored reply the page cannot show (too deeply nested, an unexpected shape) must not take the
 * whole chat down with it, on every reopen and every visit of a share link.
 */
export function RawTextBoundary({ raw, children }: { raw: string; children: ReactNode }) {
  return (
    <ErrorBoundary resetKeys={[raw]} fallback={<RawText text={raw} />}>
      {children}
    </ErrorBoundary>
  );
}

/** A value as text: strings as they are, anything else as JSON (indented by `indent` spaces). */
export function asText(value: unknown, indent?: number): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, indent) ?? String(value);
  } catch {
    return String(value);
  }
}
