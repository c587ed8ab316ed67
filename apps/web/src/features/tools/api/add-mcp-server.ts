import { API, http } from "../../../lib/http";

/** POST /aiagent_api/plugin/mcp: connects to the server and makes one MCP tool per tool it lists. */
export const addMcpServer = (input: { serverUrl: string; pluginTags: string[]; pluginIcon: string; pluginIconBackground: string }) =>
  http.post<{ ids: string[] }>(`${API.builder}/plugin/mcp`, input);
