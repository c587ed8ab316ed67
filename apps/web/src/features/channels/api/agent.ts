import type { AgentDetail } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** GET /api/agent/detail/{id}: the agent's name and icon for the page header. */
export const useChannelAgent = (id: string | null) =>
  useQuery({
    queryKey: ["channels", "agent", id],
    queryFn: () => http.get<AgentDetail>(`${API.agent}/api/agent/detail/${id}`),
    enabled: !!id,
    retry: false,
  });
