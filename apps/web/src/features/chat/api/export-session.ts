import i18n from "../../../i18n";
import { API } from "../../../lib/http";
import { getToken } from "../../../lib/storage";

/** GET /export: downloads the session as Markdown or JSON. */
export async function exportSession(session_id: string, format: "markdown" | "json") {
  // Times in the reader's own zone (the server falls back to Asia/Shanghai).
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone ?? "";
  const query = new URLSearchParams({ session_id, format, tz });
  const res = await fetch(`${API.runtime}/export?${query}`, {
    headers: { authorization: `Bearer ${getToken() ?? ""}`, lang: i18n.language === "en" ? "en" : "zh" },
  });
  if (!res.ok) throw new Error(String(res.status));
  const blob = await res.blob();
  const name = decodeURIComponent(
    /filename\*=UTF-8''([^;]+)/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? `chat.${format === "json" ? "json" : "md"}`,
  );
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  URL.revokeObjectURL(a.href);
}
