import type { ModelInfo } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export const modelsKey = ["models"] as const;
export const fetchModels = () => http.get<ModelInfo[]>(`${API.agent}/api/models`);
export const useModels = () => useQuery({ queryKey: modelsKey, queryFn: fetchModels });
