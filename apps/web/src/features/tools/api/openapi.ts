import type { PluginInput } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

/** POST /aiagent_api/plugin/openapi/parse: one plugin per operation of the document (URL or pasted). */
export const parseOpenApi = (openApiSchemaOrUrl: string, baseUrl: string) =>
  http.post<{ plugins: PluginInput[] }>(`${API.builder}/plugin/openapi/parse`, { openApiSchemaOrUrl, baseUrl });

/** POST /aiagent_api/plugin/openapi/save: saves the found plugins, unpublished, under a tag. */
export const saveOpenApi = (plugins: PluginInput[], tag: string) =>
  http.post<{ ids: string[] }>(`${API.builder}/plugin/openapi/save`, { release: false, plugins, tag });
