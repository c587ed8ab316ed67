import { AGENT_PAGE_SIZE, type AgentPage, type MinePageRequest } from "@agentfair/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";
import { getToken } from "../../../lib/storage";

/** POST /api/agent/page-created-by-me: my agents (anonymous: empty). */
export const minePage = (req: MinePageRequest) =>
  http.post<AgentPage>(`${API.agent}/api/agent/page-created-by-me`, { size: AGENT_PAGE_SIZE, ...req });

export const useMinePage = (req: MinePageRequest) =>
  useQuery({
    queryKey: ["agents", "mine", req],
    queryFn: () => (getToken() ? minePage(req) : Promise.resolve({ list: [], total: 0 })),
    placeholderData: keepPreviousData,
  });
