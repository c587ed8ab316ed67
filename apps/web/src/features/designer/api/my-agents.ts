import type { AgentPage } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** POST /api/agent/page-created-by-me: the caller's agents, to preview a design's button in one's chat. */
export const useMyAgents = () =>
  useQuery({
    queryKey: ["designer", "my-agents"],
    queryFn: () => http.post<AgentPage>(`${API.agent}/api/agent/page-created-by-me`, { page: 1, size: 50 }),
  });
