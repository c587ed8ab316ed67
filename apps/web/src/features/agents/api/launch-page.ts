import { AGENT_PAGE_SIZE, type LaunchPageRequest, type MarketPage } from "@agentfair/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** POST /api/agent/launch/page: the marketplace, 99 a page, ten pages at most. */
export const launchPage = (req: LaunchPageRequest) =>
  http.post<MarketPage>(`${API.agent}/api/agent/launch/page`, { size: AGENT_PAGE_SIZE, ...req });

export const useLaunchPage = (req: LaunchPageRequest) =>
  useQuery({ queryKey: ["agents", "launch", req], queryFn: () => launchPage(req), placeholderData: keepPreviousData });
