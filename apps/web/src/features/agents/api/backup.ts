import i18n from "../../../i18n";
import { API, http } from "../../../lib/http";
import { getToken } from "../../../lib/storage";

/** GET /aiagent_api/agent/{id}/export: downloads a released agent's backup zip. */
export async function exportAgentZip(id: string) {
  const res = await fetch(`${API.builder}/agent/${id}/export`, {
    headers: { authorization: `Bearer ${getToken() ?? ""}`, lang: i18n.language === "en" ? "en" : "zh" },
  });
  if (!res.ok || !(res.headers.get("content-type") ?? "").includes("zip")) {
    const body = (await res.json().catch(() => null)) as { msg?: string } | null;
    throw new Error(body?.msg ?? String(res.status));
  }
  const name = decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "agent.zip");
  const a = document.createElement("a");
  a.href = URL.createObjectURL(await res.blob());
  a.download = name;
  a.click();
  URL.revokeObjectURL(a.href);
}

/** POST /aiagent_api/agent/import: restores a backup zip as a new agent. */
export function importAgentZip(file: File) {
  const form = new FormData();
  form.append("file", file);
  return http.post<{ agentId: string; agentName: string; missing: Record<string, string[]> }>(`${API.builder}/agent/import`, form);
}
