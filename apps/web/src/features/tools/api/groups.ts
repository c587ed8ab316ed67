import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** GET /aiagent_api/plugin/groups: the industry groups to choose from. */
export const fetchGroups = () => http.get<string[]>(`${API.builder}/plugin/groups`);
export const useGroups = (enabled: boolean) =>
  useQuery({ queryKey: ["tools", "groups"], queryFn: fetchGroups, enabled, staleTime: 60_000 });
