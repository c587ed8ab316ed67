import type { PluginPage } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** The most tools one picker lists (the page call's largest page). */
const PICKER_LIMIT = 100;

/** The type filter of POST /plugin/page (§9): 1 plugins (HTTP, JavaScript, Python), 2 workflows, 3 MCP tools. */
export type BindableToolKind = 1 | 2 | 3;

/** POST /aiagent_api/plugin/page with createdByMe: the caller's own plugins, workflows or MCP tools and the standard ones, for the studio's tool picker. */
export const fetchMyPlugins = (pluginTypes: BindableToolKind) =>
  http.post<PluginPage>(
    `${API.builder}/plugin/page`,
    { pageNumber: 0, pageSize: PICKER_LIMIT, pluginTypes, pluginStatus: 0, createdByMe: true, includeStandard: true },
    { silent: true },
  );

export const useMyPlugins = (pluginTypes: BindableToolKind) =>
  useQuery({ queryKey: ["agents", "bindable", "plugins", pluginTypes], queryFn: () => fetchMyPlugins(pluginTypes), staleTime: 30_000 });
