import type { Label } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** GET /api/lables/list (the spec's spelling). */
export const fetchLabels = () => http.get<Label[]>(`${API.agent}/api/lables/list`);
export const useLabels = () => useQuery({ queryKey: ["agents", "labels"], queryFn: fetchLabels, staleTime: 10 * 60_000 });
