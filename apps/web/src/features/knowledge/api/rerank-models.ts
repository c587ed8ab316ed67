import type { ModelOption } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** GET /api/models/options?type=RERANK: the enabled rerank models a retrieval may use (names only). */
export const useRerankModels = () =>
  useQuery({
    queryKey: ["knowledge", "rerankModels"],
    queryFn: () => http.get<ModelOption[]>(`${API.agent}/api/models/options`, { type: "RERANK" }, { silent: true }),
    staleTime: 60_000,
  });
