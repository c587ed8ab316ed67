import { API, http } from "../../../lib/http";

/** POST /aiagent_api/plugin/callable-name: a callable name made from the name and description. */
export const generateCallableName = (pluginName: string, pluginDescription: string) =>
  http.post<string>(`${API.builder}/plugin/callable-name`, { pluginName, pluginDescription });
