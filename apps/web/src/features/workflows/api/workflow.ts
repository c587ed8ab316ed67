import type { Workflow } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** GET /aiagent_api/workflow/{id}: the workflow with its draft and released graphs. */
export const fetchWorkflow = (id: string) => http.get<Workflow>(`${API.builder}/workflow/${id}`);
export const workflowKey = (id: string) => ["workflows", "workflow", id] as const;
export const useWorkflow = (id: string) => useQuery({ queryKey: workflowKey(id), queryFn: () => fetchWorkflow(id), enabled: !!id });
