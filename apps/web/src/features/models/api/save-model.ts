import type { ModelInfo, ModelInput } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

export const saveModel = (id: string | null, body: ModelInput) =>
  id ? http.put<ModelInfo>(`${API.agent}/api/models/${id}`, body) : http.post<ModelInfo>(`${API.agent}/api/models`, body);
