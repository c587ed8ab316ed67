import type { PluginPage } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** POST /aiagent_api/plugin/page: the caller's own plugins, to bind a design to their results. */
export const useMyPlugins = () =>
  useQuery({
    queryKey: ["designer", "my-plugins"],
    queryFn: () => http.post<PluginPage>(`${API.builder}/plugin/page`, { createdByMe: true, pageNumber: 0, pageSize: 100, pluginTypes: 1 }),
  });
