import type { InsightReport, InsightReportItem, ReportUpdateRequest } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";
import { downloadReport } from "../../../lib/report-file";

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

/** The report builder's save: title, order, titles and views of the blocks. */
export const updateReport = (req: ReportUpdateRequest) => http.post<InsightReport>(`${base}/update`, req);

/** Runs the report's stored queries again over the latest data. */
export const refreshReport = (id: string) => http.post<InsightReport>(`${base}/refresh`, { id });

/** Downloads a finished report (a page, Markdown, PDF, Word or slides), with the report token. */
export const exportReport = downloadReport;
