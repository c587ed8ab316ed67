import type { VersionSummary } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** GET /aiagent_api/agent/versions/{id}. */
export const fetchVersions = (id: string) => http.get<VersionSummary[]>(`${API.builder}/agent/versions/${id}`);
export const useVersions = (id: string | null) =>
  useQuery({ queryKey: ["agents", "versions", id], queryFn: () => fetchVersions(id!), enabled: !!id });
