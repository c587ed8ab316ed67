import type { InsightReport, InsightReportItem, ReportExportFormat } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import i18n from "../../../i18n";
import { API, http } from "../../../lib/http";
import { getReportToken, getToken } from "../../../lib/storage";

const base = `${API.report}/dashboard/tReportBuilder`;

/** GET /prod-api/dashboard/tReportBuilder/findByAgentId?id= (doc 1 §7): the caller's reports of a report agent. */
export const useReportsOfAgent = (agentId: string) =>
  useQuery({
    queryKey: ["insight", "byAgent", agentId],
    queryFn: () => http.get<InsightReportItem[]>(`${base}/findByAgentId`, { id: agentId }),
    enabled: !!agentId,
  });

export const useRecentReports = () =>
  useQuery({ queryKey: ["insight", "recent"], queryFn: () => http.get<InsightReportItem[]>(`${base}/recent`) });

/** One report: the owner's, or by a share link's token (read-only, no sign-in). */
export const useReport = (q: { id?: string; shareToken?: string }) =>
  useQuery({
    queryKey: ["insight", "report", q],
    queryFn: () =>
      q.shareToken
        ? http.get<InsightReport>(`${base}/shared`, { token: q.shareToken })
        : http.get<InsightReport>(`${base}/report`, { id: q.id }),
    enabled: !!(q.id || q.shareToken),
    // A report still being built is asked for again until it is done or failed.
    refetchInterval: (query) => (["PENDING", "RUNNING"].includes(query.state.data?.status ?? "") ? 2000 : false),
  });

export const shareReport = (id: string) => http.post<{ shareToken: string }>(`${base}/share`, { id });

/** Downloads a finished report (a page, Markdown, PDF, Word or slides), with the report token. */
export async function exportReport(id: string, format: ReportExportFormat) {
  const res = await fetch(`${base}/export?${new URLSearchParams({ id, format })}`, {
    headers: { authorization: `Bearer ${getReportToken() ?? getToken() ?? ""}`, lang: i18n.language === "en" ? "en" : "zh" },
  });
  if (!res.ok) throw new Error(String(res.status));
  const blob = await res.blob();
  const name = decodeURIComponent(
    /filename\*=UTF-8''([^;]+)/.exec(res.headers.get("content-disposition") ?? "")?.[1] ??
      `report.${format === "markdown" ? "md" : format}`,
  );
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  URL.revokeObjectURL(a.href);
}
