import type { ModelTestResult } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

export const testModel = (id: string) => http.post<ModelTestResult>(`${API.agent}/api/models/${id}/test`, {});
