import { type ReportExportFormat, reportExportUrl } from "@agentfair/contracts";
import i18n from "../i18n";
import { getReportToken, getToken } from "./storage";

/**
 * Downloads a finished report as a file (a page, Markdown, PDF, Word or slides) with the report
 * token of the second cookie, else the web token: the report page and a chatWord / chatPPT reply
 * in the chat both offer it.
 */
export async function downloadReport(id: string, format: ReportExportFormat) {
  const res = await fetch(reportExportUrl(id, format), {
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
