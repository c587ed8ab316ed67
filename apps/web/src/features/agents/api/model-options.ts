import type { ModelOption } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** GET /api/models/options: enabled chat models of Model management an agent may use. */
export const fetchModelOptions = () => http.get<ModelOption[]>(`${API.agent}/api/models/options`, undefined, { silent: true });
export const useModelOptions = () => useQuery({ queryKey: ["agents", "modelOptions"], queryFn: fetchModelOptions, staleTime: 60_000 });

/** GET /api/models/options?type=RERANK: the enabled rerank models retrieval may use. */
export const useRerankModelOptions = () =>
  useQuery({
    queryKey: ["agents", "rerankModelOptions"],
    queryFn: () => http.get<ModelOption[]>(`${API.agent}/api/models/options`, { type: "RERANK" }, { silent: true }),
    staleTime: 60_000,
  });
