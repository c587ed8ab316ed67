import type { Workflow, WorkflowGraph } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

/** PUT /aiagent_api/workflow/{id}/graph: validates and saves the draft. The editor shows the errors on its nodes. */
export const saveGraph = (id: string, graph: WorkflowGraph) =>
  http.put<Workflow>(`${API.builder}/workflow/${id}/graph`, graph, { silent: true });
