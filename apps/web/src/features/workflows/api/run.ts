import type { WorkflowRun } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

/** POST /aiagent_api/workflow/{id}/run: a test run of the saved draft. */
export const startRun = (id: string, inputs: Record<string, unknown>) =>
  http.post<{ runId: string }>(`${API.builder}/workflow/${id}/run`, { inputs, version: "draft" });

/** GET /aiagent_api/workflow/runs/{runId}. */
export const fetchRun = (runId: string) =>
  http.get<WorkflowRun>(`${API.builder}/workflow/runs/${runId}`, undefined, { keepOnNavigate: true, silent: true });

/** POST /aiagent_api/workflow/runs/{runId}/resume: a FAILED run from its failed node. */
export const resumeRun = (runId: string) => http.post<{ runId: string }>(`${API.builder}/workflow/runs/${runId}/resume`, {});

/** POST /aiagent_api/workflow/runs/{runId}/human-input: the answer a PAUSED run waits for. */
export const answerRun = (runId: string, body: { nodeId: string; scope: string; values: Record<string, unknown> }) =>
  http.post<{ runId: string }>(`${API.builder}/workflow/runs/${runId}/human-input`, body);
