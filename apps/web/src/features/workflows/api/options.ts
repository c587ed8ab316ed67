import type { AgentPage, KnowledgeBase, ModelOption, PluginPage, WorkflowSummary } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** What the property panel's pickers list: the caller's own models, bases, plugins and agents. */
const silent = { silent: true } as const;

export const useModelOptions = () =>
  useQuery({
    queryKey: ["workflows", "options", "models"],
    queryFn: () => http.get<ModelOption[]>(`${API.agent}/api/models/options`, undefined, silent),
    staleTime: 60_000,
  });

export const useKnowledgeOptions = () =>
  useQuery({
    queryKey: ["workflows", "options", "knowledge"],
    queryFn: () =>
      http.get<{ list: KnowledgeBase[] }>(`${API.knowledge}/wendao/knowledge/page`, { page: 1, limit: 100, createdByMe: true }, silent),
    staleTime: 30_000,
  });

/** Plugins (1) and MCP tools (3) a tool node may call. */
export const usePluginOptions = () =>
  useQuery({
    queryKey: ["workflows", "options", "plugins"],
    queryFn: async () => {
      const page = (pluginTypes: 1 | 3) =>
        http.post<PluginPage>(
          `${API.builder}/plugin/page`,
          { pageNumber: 0, pageSize: 100, pluginTypes, pluginStatus: 0, createdByMe: true },
          silent,
        );
      const [plugins, mcp] = await Promise.all([page(1), page(3)]);
      return [...plugins.content, ...mcp.content];
    },
    staleTime: 30_000,
  });

export const useAgentOptions = () =>
  useQuery({
    queryKey: ["workflows", "options", "agents"],
    queryFn: () => http.post<AgentPage>(`${API.agent}/api/agent/page-created-by-me`, { page: 1, size: 99 }, silent),
    staleTime: 30_000,
  });

/** The caller's workflows a sub-workflow node may run (released ones run; the list shows all). */
export const useWorkflowOptions = () =>
  useQuery({
    queryKey: ["workflows", "options", "workflows"],
    queryFn: () => http.get<{ content: WorkflowSummary[] }>(`${API.builder}/workflow/list`, { pageNumber: 0, pageSize: 100 }, silent),
    staleTime: 30_000,
  });
