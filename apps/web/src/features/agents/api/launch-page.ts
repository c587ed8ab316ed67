import { AGENT_PAGE_SIZE, type AgentPage, type LaunchPageRequest } from "@agentfair/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** POST /api/agent/launch/page: the marketplace, 99 a page. */
export const launchPage = (req: LaunchPageRequest) =>
  http.post<AgentPage>(`${API.agent}/api/agent/launch/page`, { size: AGENT_PAGE_SIZE, ...req });

export const useLaunchPage = (req: LaunchPageRequest) =>
  useQuery({ queryKey: ["agents", "launch", req], queryFn: () => launchPage(req), placeholderData: keepPreviousData });
