import type { PlatformSettings } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export const usePlatformSettings = () =>
  useQuery({
    queryKey: ["platformSettings"],
    queryFn: () => http.get<PlatformSettings>(`${API.agent}/api/platform/settings`, undefined, { silent: true, keepOnNavigate: true }),
    staleTime: Number.POSITIVE_INFINITY,
  });
