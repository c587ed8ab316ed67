import type { ModelOption } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** GET /api/models/options?type=EMBEDDING: the enabled embedding models a base may use (names only). */
export const useEmbeddingModels = (enabled: boolean) =>
  useQuery({
    queryKey: ["knowledge", "embeddingModels"],
    queryFn: () => http.get<ModelOption[]>(`${API.agent}/api/models/options`, { type: "EMBEDDING" }, { silent: true }),
    enabled,
    staleTime: 60_000,
  });
