import type { WorkflowRunSummary } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** GET /aiagent_api/workflow/{id}/runs: the run history, newest first (page size 20). */
export const fetchRuns = (id: string, pageNumber: number) =>
  http.get<{ content: WorkflowRunSummary[]; totalElements: number }>(`${API.builder}/workflow/${id}/runs`, { pageNumber });
export const runsKey = (id: string) => ["workflows", "runs", id] as const;
export const useRuns = (id: string, pageNumber: number) =>
  useQuery({ queryKey: [...runsKey(id), pageNumber], queryFn: () => fetchRuns(id, pageNumber), enabled: !!id });
