import { PLUGIN_PAGE_SIZE, type PluginPage } from "@agentfair/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";
import { getToken } from "../../../lib/storage";

export type PluginPageQuery = {
  pluginName?: string;
  pageNumber: number;
  pluginTypes: number;
  pluginStatus: number;
  timeRangeStart?: string;
  timeRangeEnd?: string;
};

/** POST /aiagent_api/plugin/page (page size 20); logged-out visitors see an empty list (doc 2 §2). */
export const pluginPage = (req: PluginPageQuery) =>
  http.post<PluginPage>(`${API.builder}/plugin/page`, { pageSize: PLUGIN_PAGE_SIZE, ...req });

export const toolsKey = ["tools"] as const;

export const usePluginPage = (req: PluginPageQuery) =>
  useQuery({
    queryKey: [...toolsKey, "page", req],
    queryFn: () => (getToken() ? pluginPage(req) : Promise.resolve({ content: [], totalPages: 0, totalElements: 0 })),
    placeholderData: keepPreviousData,
  });
