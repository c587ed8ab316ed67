import type { Plugin } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** GET /aiagent_api/plugin/{id}. */
export const fetchPlugin = (id: string) => http.get<Plugin>(`${API.builder}/plugin/${id}`);
export const pluginKey = (id: string) => ["tools", "plugin", id] as const;
export const usePlugin = (id: string) => useQuery({ queryKey: pluginKey(id), queryFn: () => fetchPlugin(id), enabled: !!id });
