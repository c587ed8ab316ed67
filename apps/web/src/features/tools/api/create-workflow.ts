import type { WorkflowInput } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

/** POST /aiagent_api/workflow (doc 2 §7): the create modal's workflow type; the workflow is also a WORKFLOW tool. */
export const createWorkflow = (input: WorkflowInput) => http.post<{ id: string }>(`${API.builder}/workflow`, input);

/** POST /aiagent_api/workflow/callable-name: a callable name made from the workflow name and description. */
export const generateWorkflowCallableName = (workflowName: string, workflowDescription: string) =>
  http.post<string>(`${API.builder}/workflow/callable-name`, { workflowName, workflowDescription });
