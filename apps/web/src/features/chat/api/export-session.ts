import { API } from "../../../lib/http";
import { getToken } from "../../../lib/storage";

/** GET /export: downloads the session as Markdown or JSON. */
export async function exportSession(session_id: string, format: "markdown" | "json") {
  const res = await fetch(`${API.runtime}/export?session_id=${encodeURIComponent(session_id)}&format=${format}`, {
    headers: { authorization: `Bearer ${getToken() ?? ""}` },
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
